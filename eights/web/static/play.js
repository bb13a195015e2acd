// Play: a new game's form, the seat's table, its moves as buttons, and eights play's keys.
import { $, el, clear, option, cardItem } from "./dom.js";
import { send, say, on, status, currentView } from "./app.js";

const AGENT_CHOICES = ["heuristic", "policy", "random", "greedy", "ismcts:sims=50", "ismcts"];
const MAX_PLAYERS = 8;
let variants = [];
let playing = false;

export function welcome(message) {
  variants = message.variants;
  const select = clear($("variant"));
  for (const v of variants) option(select, v.name, v.name.replaceAll("_", " "), v.name === "crazy_eights");
  variantChanged();
}

function variantChanged() {
  const v = variants.find((x) => x.name === $("variant").value);
  if (!v) return;
  $("hand-row").hidden = !v.has_match;
  const body = clear($("option-table").tBodies[0]);
  for (const row of v.options) {
    const tr = el("tr");
    for (const k of ["name", "default", "allowed", "meaning"]) tr.appendChild(el("td", row[k]));
    body.appendChild(tr);
  }
}

function playersChanged() {
  const n = Number($("players").value);
  const box = $("opponents");
  const before = [...box.querySelectorAll("input")].map((i) => i.value);
  for (const old of box.querySelectorAll(".row")) old.remove();
  for (let k = 1; k < n; k++) {
    const row = el("div", null, { className: "row" });
    const id = `opponent-${k}`;
    row.appendChild(el("label", `Opponent ${k}`, { for: id }));
    const input = el("input", null, { id, list: "agent-choices", "aria-describedby": "agents-help" });
    input.value = before[k - 1] || "heuristic";
    row.appendChild(input);
    box.appendChild(row);
  }
  const seat = clear($("seat"));
  for (let p = 0; p < n; p++) option(seat, String(p), `seat ${p}${p === 0 ? " (plays first unless the deal says otherwise)" : ""}`, p === 0);
}

function options() {
  const out = {};
  for (const pair of $("options").value.split(/[\s,]+/).filter(Boolean)) {
    const at = pair.indexOf("=");
    if (at < 1) { status(`Options are NAME=VALUE pairs; "${pair}" is not one.`); return null; }
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

function start(event) {
  event.preventDefault();
  status("");
  const opts = options();
  if (opts === null) return;
  const seedText = $("seed").value.trim();
  const message = {
    type: "start", variant: $("variant").value,
    opponents: [...$("opponents").querySelectorAll("input")].map((i) => i.value.trim()),
    seat: Number($("seat").value), options: opts,
    hand: !$("hand-row").hidden && $("hand").checked,
  };
  if (seedText) message.seed = Number(seedText);
  const turnTime = $("turn-time").value.trim();
  if (turnTime) message.turn_time = Number(turnTime);
  send(message);
}

function renderTable(message) {
  const view = message.view;
  $("players-line").textContent = `Players: ${message.players.join("; ")}.`;
  $("top").textContent = view.top;
  $("phase").textContent = view.phase || "—";
  $("counts").textContent = view.counts;
  $("in-play").textContent = view.in_play || "—";
  $("scores").textContent = view.scores;
  const hand = clear($("my-hand"));
  for (const c of view.hand) hand.appendChild(cardItem(c));
  const fields = clear($("fields"));
  for (const [k, v] of Object.entries(view.fields)) {
    fields.appendChild(el("dt", k));
    fields.appendChild(el("dd", JSON.stringify(v)));
  }
  const moves = clear($("moves"));
  const hadFocus = document.activeElement && document.activeElement.closest("#moves");
  if (message.moves) {
    $("waiting").textContent = "Your turn: choose a move (its number, the arrows and Enter, or click it).";
    for (const m of message.moves) {
      const li = el("li");
      const b = el("button", `${m.number} ${m.phrase}`, { type: "button", "data-move": m.text, "data-number": m.number });
      b.addEventListener("click", () => send({ type: "move", index: m.number }));
      li.appendChild(b);
      moves.appendChild(li);
    }
    if (hadFocus) moves.querySelector("button").focus();
  } else {
    $("waiting").textContent = message.game_over ? "The game is over." : "The bots are playing…";
  }
  document.body.dataset.myTurn = message.moves ? "true" : "false";
  document.body.dataset.tables = String(Number(document.body.dataset.tables || 0) + 1);
}

// eights play's key names: one printable character as itself; Enter, arrows, Escape by name
const NAMED = { Enter: "enter", ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down", Escape: "escape", Backspace: "backspace" };

function onKey(e) {
  if (!playing || currentView() !== "play" || e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target;
  if (target.closest && target.closest("input, select, textarea, [role=tab], form")) return;
  let key = null;
  if (e.key === "Enter" && target.tagName === "BUTTON") return; // Enter on a button presses it
  if (NAMED[e.key]) key = NAMED[e.key];
  else if (e.key.length === 1) key = e.key;
  if (key === null) return;
  e.preventDefault();
  send({ type: "key", key });
}

export function setup() {
  $("variant").addEventListener("change", variantChanged);
  const players = $("players");
  for (let n = 2; n <= MAX_PLAYERS; n++) option(players, String(n), `${n} players`, n === 2);
  players.addEventListener("change", playersChanged);
  const list = el("datalist", null, { id: "agent-choices" });
  for (const a of AGENT_CHOICES) list.appendChild(el("option", null, { value: a }));
  document.body.appendChild(list);
  $("opponents").appendChild(el("p", "Any built-in agent spec: heuristic, policy, random, greedy, ismcts or ismcts:sims=50.", { id: "agents-help", className: "muted" }));
  playersChanged();
  $("new-game").addEventListener("submit", start);
  $("leave").addEventListener("click", () => send({ type: "leave" }));
  document.addEventListener("keydown", onKey);
  on("started", (m) => {
    playing = true;
    document.body.dataset.game = "playing";
    clear($("live"));
    $("table").hidden = false;
    $("leave").hidden = false;
    $("table-title").textContent = `Table: ${m.variant.replaceAll("_", " ")}, ${m.players} players, you are seat ${m.seat}`;
    $("table-title").focus();
  });
  on("say", (m) => say(m.text));
  on("table", renderTable);
  on("over", () => {
    playing = false;
    document.body.dataset.game = "over";
    clear($("moves"));
    $("leave").hidden = true;
    $("waiting").textContent = "The game is over. Start another with the form.";
  });
}
