// Watch: a store's games, a replay with step, back, play/pause and speed, and a bot's thinking.
import { $, el, clear, option, seatBlock } from "./dom.js";
import { send, on, status } from "./app.js";

let stores = [];
let replay = null;   // the replay message being shown
let position = 0;    // the frame shown
let timer = null;
let current = null;  // {store, game}

export function welcome(message) {
  stores = message.stores;
  const select = clear($("watch-store"));
  for (const s of stores) option(select, String(s.index), `${s.name} (${s.variant})`);
  if (!stores.length) {
    $("games-summary").textContent = "No results store: start eights web with --results DIR (an eights tournament --out directory).";
    $("list-games").disabled = true;
    return;
  }
  storeChanged();
}

function storeChanged() {
  const s = stores[Number($("watch-store").value)];
  const agent = clear($("watch-agent"));
  option(agent, "", "any agent");
  for (const a of s.agents) option(agent, a, a);
}

function listGames(event) {
  if (event) event.preventDefault();
  status("");
  const message = { type: "games", store: Number($("watch-store").value), outcome: $("watch-outcome").value };
  if ($("watch-agent").value) message.agent = $("watch-agent").value;
  send(message);
}

function showGames(message) {
  $("games-summary").textContent = `${message.matching} of ${message.total} games match` +
    (message.games.length < message.matching ? ` (the last ${message.games.length} are listed).` : ".");
  const body = clear($("games").tBodies[0]);
  for (const g of message.games) {
    const tr = el("tr");
    tr.appendChild(el("td", g.index));
    tr.appendChild(el("td", g.seats.map((s, k) => `${k}: ${s}`).join(", ")));
    tr.appendChild(el("td", g.truncated ? "none (turn limit)" : g.winners.map((w) => `${w} ${g.seats[w]}`).join(", ")));
    tr.appendChild(el("td", g.scores.join(", ")));
    tr.appendChild(el("td", g.turns));
    const td = el("td");
    const b = el("button", "Replay", { type: "button", "aria-label": `Replay game ${g.index}`, "data-game": g.index });
    b.addEventListener("click", () => open(Number($("watch-store").value), g.index));
    td.appendChild(b);
    tr.appendChild(td);
    body.appendChild(tr);
  }
}

function open(store, game, keep = 0) {
  pause();
  current = { store, game, keep };
  const seat = $("view-as").value;
  send({ type: "replay", store, game, seat: seat === "" ? null : Number(seat) });
}

function showReplay(message) {
  const first = !replay || replay.game.index !== message.game.index;
  replay = message;
  const viewAs = $("view-as");
  const chosen = viewAs.value;
  clear(viewAs);
  option(viewAs, "", "Referee (every hand)", chosen === "");
  message.players.forEach((p, k) => option(viewAs, String(k), p, chosen === String(k)));
  $("replay").hidden = false;
  $("replay-title").textContent = `Replay of game ${message.game.index}: ${message.players.join(" v ")}`;
  clear($("replay-log"));
  position = 0;
  const target = first ? 0 : Math.min(current.keep, message.frames.length - 1);
  for (let k = 0; k <= target; k++) log(k);
  position = target;
  show();
  if (first) $("replay-title").focus();
}

function log(k) {
  for (const s of replay.frames[k].sentences) $("replay-log").appendChild(el("li", s));
  const box = $("replay-log");
  box.scrollTop = box.scrollHeight;
}

function show() {
  const frame = replay.frames[position];
  const last = replay.frames.length - 1;
  $("position").textContent = `Frame ${position} of ${last}` + (frame.game_over ? ": the game is over." : ".");
  document.body.dataset.replayAtEnd = String(position === last);
  const d = frame.decision;
  $("decision").textContent = d ? `Decision ${d.step + 1}: ${replay.players[d.actor]} chose to ${d.phrase}.` : "The deal.";
  const views = clear($("replay-views"));
  const acting = position < last ? replay.frames[position + 1].decision.actor : -1;
  for (const v of frame.views) views.appendChild(seatBlock(v, replay.players, v.seat === acting));
  $("thinking").hidden = true;
  if (d && d.thinks) send({ type: "think", store: current.store, game: current.game, step: d.step });
}

function showThinking(message) {
  const d = replay && replay.frames[position].decision;
  if (!d || d.step !== message.step || current.game !== message.game) return;
  $("thinking").hidden = false;
  $("thinking-title").textContent = `What ${message.agent} thought at decision ${message.step + 1}`;
  $("measure").textContent = message.measure === "visits" ? "visits" : "probability";
  const body = clear($("thinking-table").tBodies[0]);
  const top = Math.max(...message.moves.map((m) => m.value), 1e-12);
  for (const m of message.moves) {
    const tr = el("tr", null, m.text === message.chosen ? { className: "chosen" } : {});
    tr.appendChild(el("td", m.phrase + (m.text === message.chosen ? " (chosen)" : "")));
    tr.appendChild(el("td", message.measure === "visits" ? String(m.value) : `${(100 * m.value).toFixed(1)}%`));
    const bar = el("div", null, { className: "bar", "aria-hidden": "true" });
    bar.style.width = `${Math.round(120 * m.value / top)}px`;
    const td = el("td");
    td.appendChild(bar);
    tr.appendChild(td);
    body.appendChild(tr);
  }
}

function step(delta) {
  if (!replay) return false;
  const next = position + delta;
  if (next < 0 || next >= replay.frames.length) return false;
  if (delta > 0) log(next);
  else {
    const list = $("replay-log");
    for (const _ of replay.frames[position].sentences) if (list.lastChild) list.removeChild(list.lastChild);
  }
  position = next;
  show();
  return true;
}

function pause() {
  if (timer) clearInterval(timer);
  timer = null;
  $("play-pause").textContent = "Play";
  $("play-pause").setAttribute("aria-pressed", "false");
}

function playPause() {
  if (timer) { pause(); return; }
  $("play-pause").textContent = "Pause";
  $("play-pause").setAttribute("aria-pressed", "true");
  timer = setInterval(() => { if (!step(1)) pause(); }, Number($("speed").value));
}

export function setup() {
  $("watch-store").addEventListener("change", storeChanged);
  $("games-form").addEventListener("submit", listGames);
  $("step").addEventListener("click", () => { pause(); step(1); });
  $("back").addEventListener("click", () => { pause(); step(-1); });
  $("play-pause").addEventListener("click", playPause);
  $("speed").addEventListener("change", () => { if (timer) { pause(); playPause(); } });
  $("to-end").addEventListener("click", () => { pause(); while (step(1)); });
  $("view-as").addEventListener("change", () => { if (current) open(current.store, current.game, position); });
  on("games", showGames);
  on("replay", showReplay);
  on("think", showThinking);
}
