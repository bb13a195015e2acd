// Small DOM helpers shared by the views: every text goes in as text, never as HTML.

export const $ = (id) => document.getElementById(id);

export function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "className") node.className = v;
    else node.setAttribute(k, v);
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export function option(select, value, text, selected = false) {
  const o = el("option", text, { value });
  if (selected) o.selected = true;
  select.appendChild(o);
  return o;
}

// A card as a small tile: its text, its spoken name for screen readers.
export function cardItem(card) {
  const red = /[HD]$/.test(card.text);
  const li = el("li", card.text, { className: red ? "card red" : "card", "aria-label": card.spoken });
  li.title = card.spoken;
  return li;
}

// The facts of a seat's view (the sentences eights play reads) and its hand.
export function seatBlock(view, players, acting) {
  const box = el("section", null, { className: acting ? "seat-view acting" : "seat-view",
                                    "aria-label": players[view.seat] });
  box.appendChild(el("h4", players[view.seat] + (acting ? " — to act" : "")));
  const hand = el("ul", null, { className: "cards", "aria-label": `${players[view.seat]}'s hand` });
  for (const c of view.hand) hand.appendChild(cardItem(c));
  box.appendChild(hand);
  for (const s of [view.top, view.counts, view.in_play]) if (s) box.appendChild(el("p", s));
  return box;
}
