#!/usr/bin/env node
// A random bot for the eights bot protocol (docs/protocol.md), in plain Node.js.
//
// It reads one JSON message per line on stdin and writes one per line on stdout:
// a "ready" for each "hello", and for each "decide" an "action" naming one of the
// legal actions at random. Everything else (game_over, error) is informational.
//
//   node examples/bots/random_bot.js [SEED]
//   eights tournament --agents "heuristic,exec:node examples/bots/random_bot.js"
"use strict";

const readline = require("node:readline");

const PROTOCOL = "eights-bot/2";

// mulberry32: a small seeded generator, so a given SEED plays the same way every time.
let state = (Number(process.argv[2]) || Date.now()) >>> 0;
function random() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });

input.on("line", (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (err) {
    process.stderr.write(`random_bot: not JSON: ${line.slice(0, 80)}\n`);
    return;
  }
  switch (msg.type) {
    case "hello":
      if (msg.protocol !== PROTOCOL) {
        send({ type: "error", code: "unsupported_protocol",
               message: `random_bot speaks ${PROTOCOL} only, not ${msg.protocol}` });
      } else {
        send({ type: "ready", protocol: PROTOCOL, name: "random_bot.js" });
      }
      break;
    case "decide":
      send({ type: "action", id: msg.id,
             action: msg.legal[Math.floor(random() * msg.legal.length)] });
      break;
    case "error":
      process.stderr.write(`random_bot: the frontend says ${msg.code}: ${msg.message}\n`);
      break;
    case "bye":
      input.close();
      break;
    default:
      break; // game_over and any message this bot does not use
  }
});

input.on("close", () => process.exit(0));
