// Leaderboard: standings with intervals and the head-to-head heatmap, sent again as games land.
import { $, el, clear, option } from "./dom.js";
import { send, on } from "./app.js";

let stores = [];
let asked = null;

export function welcome(message) {
  stores = message.stores;
  const select = clear($("board-store"));
  for (const s of stores) option(select, String(s.index), `${s.name} (${s.variant})`);
  if (!stores.length) $("board-title").textContent = "No results store: start eights web with --results DIR.";
  if (document.body.dataset.view === "board") shown();
}

export function shown() {
  if (!stores.length) return;
  const store = Number($("board-store").value);
  if (asked === store) return;
  asked = store;
  send({ type: "board", store });
}

function heat(value) {
  // 0: red, 0.5: white, 1: blue (the report's RdBu)
  if (value === null) return "";
  const t = Math.abs(value - 0.5) * 2;
  const hue = value >= 0.5 ? 215 : 5;
  return `hsl(${hue} 70% ${Math.round(97 - 45 * t)}%)`;
}

function render(message) {
  $("board-title").textContent = message.title;
  document.body.dataset.boardGames = String(message.games_played);
  $("board-progress").textContent = message.games_played === message.games_total
    ? `All ${message.games_played} games played.`
    : `${message.games_played} of ${message.games_total} games played; updated as games land.`;
  const body = clear($("standings").tBodies[0]);
  for (const s of message.standings) {
    const tr = el("tr");
    const t = s.text;
    for (const cell of [s.rank ?? "—", s.agent, t.rating, t.rating_ci, s.ordinal.toFixed(1), s.games,
                        t.win_rate, t.win_ci, t.margin, t.margin_ci, t.failures]) tr.appendChild(el("td", cell));
    body.appendChild(tr);
  }
  const table = clear($("heatmap"));
  table.appendChild(el("caption", "Head-to-head win rates, row against column", { className: "visually-hidden" }));
  const head = el("tr");
  head.appendChild(el("th", "agent", { scope: "col" }));
  message.agents.forEach((a, j) => head.appendChild(el("th", `${j + 1} ${a}`, { scope: "col" })));
  const thead = el("thead");
  thead.appendChild(head);
  table.appendChild(thead);
  const tbody = el("tbody");
  message.matrix.forEach((row, i) => {
    const tr = el("tr");
    tr.appendChild(el("th", `${i + 1} ${message.agents[i]}`, { scope: "row" }));
    row.forEach((v, j) => {
      const td = el("td", v === null ? "—" : `${Math.round(100 * v)}%`,
                    { "aria-label": v === null ? "no games" : `${message.agents[i]} ahead of ${message.agents[j]} ${Math.round(100 * v)}%` });
      td.style.background = heat(v);
      tr.appendChild(td);
    });
    tbody.appendChild(tr);
  });
  table.appendChild(tbody);
  const pairs = clear($("pairs").tBodies[0]);
  for (const p of message.pairs) {
    const tr = el("tr");
    for (const cell of [p.agent, p.opponent, p.games, p.rate, p.rate_ci, p.margin, p.margin_ci]) tr.appendChild(el("td", cell));
    pairs.appendChild(tr);
  }
}

export function setup() {
  $("board-store").addEventListener("change", () => { asked = null; shown(); });
  on("board", render);
}
