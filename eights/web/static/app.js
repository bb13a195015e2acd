// The page: three views (Play, Watch, Leaderboard) over one WebSocket to eights web.
import { $, el } from "./dom.js";
import * as play from "./play.js";
import * as watch from "./watch.js";
import * as board from "./board.js";

let socket = null;
const handlers = {};

export function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else status("Not connected to the server; reload the page.");
}

// The live region: every sentence of the game, in order, as eights play says it.
const MAX_LINES = 400;
export function say(text) {
  const live = $("live");
  live.appendChild(el("p", text));
  while (live.childNodes.length > MAX_LINES) live.removeChild(live.firstChild);
  live.scrollTop = live.scrollHeight;
}

export function status(text) {
  $("status").textContent = text || "";
}

export function on(type, fn) { handlers[type] = fn; }

function selectTab(name) {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    const mine = tab.getAttribute("aria-controls") === name;
    tab.setAttribute("aria-selected", String(mine));
    tab.tabIndex = mine ? 0 : -1;
    $(tab.getAttribute("aria-controls")).hidden = !mine;
  }
  document.body.dataset.view = name;
  if (name === "board") board.shown();
}

export function currentView() { return document.body.dataset.view || "play"; }

function setupTabs() {
  const tabs = [...document.querySelectorAll("[role=tab]")];
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => selectTab(tab.getAttribute("aria-controls")));
    tab.addEventListener("keydown", (e) => {
      const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (!step) return;
      e.preventDefault();
      e.stopPropagation();
      const next = tabs[(i + step + tabs.length) % tabs.length];
      next.focus();
      selectTab(next.getAttribute("aria-controls"));
    });
  });
  const wanted = location.hash.replace("#", "");
  selectTab(["play", "watch", "board"].includes(wanted) ? wanted : "play");
}

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.addEventListener("open", () => { $("connection").textContent = "Connected."; });
  socket.addEventListener("close", () => {
    $("connection").textContent = "Disconnected from the server; reload the page to reconnect.";
    document.body.dataset.connected = "false";
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "error") {
      status(`${message.code}: ${message.message}`);
      document.body.dataset.lastError = message.code;
      return;
    }
    const handler = handlers[message.type];
    if (handler) handler(message);
  });
}

on("welcome", (message) => {
  document.body.dataset.connected = "true";
  play.welcome(message);
  watch.welcome(message);
  board.welcome(message);
});

setupTabs();
play.setup();
watch.setup();
board.setup();
connect();
