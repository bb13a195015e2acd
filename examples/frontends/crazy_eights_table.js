#!/usr/bin/env node
// A crazy_eights table in plain Node.js (no packages) that asks an eights bot for every move.
//
// It deals and runs its own game (two decks, seven cards each; match the top card's rank
// or suit, 8s are wild and name a suit, a Jack reverses (skips with two players), a Queen
// skips, a King makes the next player draw two and skips them; draw one card when you
// cannot or will not play: it is played at once if it fits, else you pass) and, for each
// decision with more than one legal action, sends the bot the minimal view of
// docs/protocol.md over WebSocket: the seat's hand, the top card, the suit to follow,
// the hand sizes and whose turn it is. Every seat is played by the bot here; a real
// frontend would ask a person for some of them, in `choose` below.
//
//   eights serve --agent heuristic --variant crazy_eights --port 8765
//   node examples/frontends/crazy_eights_table.js ws://127.0.0.1:8765 [SEED] [PLAYERS]
//
// Node 20 has no WebSocket client, so a minimal one (RFC 6455: text frames, masking,
// ping and close) is written out below; on Node 22 the global WebSocket would do.
"use strict";

const crypto = require("node:crypto");
const http = require("node:http");

const PROTOCOL = "eights-bot/2";

// ------------------------------------------------------------------ a WebSocket client
const WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

class WebSocketClient {
  constructor(socket, head) {
    this.socket = socket;
    this.buffer = head;
    this.fragments = [];
    this.messages = [];
    this.waiting = [];
    this.failure = null;
    socket.on("data", (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.readFrames();
    });
    socket.on("close", () => this.fail(new Error("the server closed the connection")));
    socket.on("error", (err) => this.fail(err));
    this.readFrames();
  }

  readFrames() {
    while (this.buffer.length >= 2) {
      const fin = this.buffer[0] & 0x80, opcode = this.buffer[0] & 0x0f;
      let length = this.buffer[1] & 0x7f, offset = 2;
      if (length === 126) {
        if (this.buffer.length < 4) return;
        length = this.buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (this.buffer.length < 10) return;
        length = Number(this.buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (this.buffer.length < offset + length) return; // the rest of the frame is on its way
      const payload = this.buffer.subarray(offset, offset + length);
      this.buffer = this.buffer.subarray(offset + length);
      if (opcode === 0x8) { // close: answer it and stop
        this.sendFrame(0x8, payload.subarray(0, 2));
        const reason = payload.length > 2 ? payload.subarray(2).toString("utf8") : "";
        this.fail(new Error(`the server closed the connection (${reason || "no reason"})`));
        this.socket.end();
        return;
      }
      if (opcode === 0x9) this.sendFrame(0xa, payload); // ping: pong
      if (opcode === 0x1 || opcode === 0x0) { // text, or a continuation of one
        this.fragments.push(payload);
        if (fin) {
          this.deliver(Buffer.concat(this.fragments).toString("utf8"));
          this.fragments = [];
        }
      }
    }
  }

  deliver(text) {
    const waiter = this.waiting.shift();
    if (waiter) waiter.resolve(text);
    else this.messages.push(text);
  }

  fail(err) {
    if (this.failure) return;
    this.failure = err;
    for (const waiter of this.waiting.splice(0)) waiter.reject(err);
  }

  sendFrame(opcode, payload) {
    const mask = crypto.randomBytes(4); // a client masks every frame it sends
    let header;
    if (payload.length < 126) {
      header = Buffer.from([0x80 | opcode, 0x80 | payload.length]);
    } else if (payload.length < 65536) {
      header = Buffer.alloc(4);
      header.writeUInt16BE(payload.length, 2);
      header[1] = 0x80 | 126;
    } else {
      header = Buffer.alloc(10);
      header.writeBigUInt64BE(BigInt(payload.length), 2);
      header[1] = 0x80 | 127;
    }
    header[0] = 0x80 | opcode;
    const masked = Buffer.alloc(payload.length);
    for (let i = 0; i < payload.length; i++) masked[i] = payload[i] ^ mask[i & 3];
    this.socket.write(Buffer.concat([header, mask, masked]));
  }

  send(message) {
    this.sendFrame(0x1, Buffer.from(JSON.stringify(message), "utf8"));
  }

  receive() {
    if (this.messages.length) return Promise.resolve(JSON.parse(this.messages.shift()));
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }))
      .then((text) => JSON.parse(text));
  }

  close() {
    this.sendFrame(0x8, Buffer.from([0x03, 0xe8])); // 1000: normal closure
    this.socket.end();
  }
}

function connect(url) {
  const { hostname, port, pathname, search } = new URL(url);
  const key = crypto.randomBytes(16).toString("base64");
  return new Promise((resolve, reject) => {
    const request = http.request({
      hostname, port, path: (pathname || "/") + search,
      headers: { Connection: "Upgrade", Upgrade: "websocket",
                 "Sec-WebSocket-Key": key, "Sec-WebSocket-Version": "13" },
    });
    request.on("upgrade", (response, socket, head) => {
      const accept = crypto.createHash("sha1").update(key + WS_GUID).digest("base64");
      if (response.headers["sec-websocket-accept"] !== accept) {
        socket.destroy();
        reject(new Error("the server's WebSocket handshake is wrong"));
      } else {
        resolve(new WebSocketClient(socket, head));
      }
    });
    request.on("response", (response) =>
      reject(new Error(`${url} answered HTTP ${response.statusCode}, not a WebSocket`)));
    request.on("error", reject);
    request.end();
  });
}

// ------------------------------------------------------------------ the game
const SUITS = "CDHS";
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const POINTS = { A: 1, 8: 50, J: 20, Q: 20, K: 20 }; // others: face value
const rankOf = (card) => card.slice(0, -1);
const suitOf = (card) => card.slice(-1);
const points = (card) => POINTS[rankOf(card)] || Number(rankOf(card));
const order = (card) => SUITS.indexOf(suitOf(card)) * 13 + RANKS.indexOf(rankOf(card));
const byOrder = (a, b) => order(a) - order(b);

// mulberry32: a small seeded generator, so a SEED deals the same game every time
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle(cards, random) {
  for (let i = cards.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
}

class CrazyEights {
  constructor(players, random) {
    this.players = players;
    this.random = random;
    this.stock = [];
    for (let deck = 0; deck < 2; deck++) {
      for (const suit of SUITS) for (const rank of RANKS) this.stock.push(rank + suit);
    }
    shuffle(this.stock, random);
    this.first = this.current = Math.floor(random() * players);
    this.hands = Array.from({ length: players }, () => []);
    for (let round = 0; round < 7; round++) {
      for (let k = 0; k < players; k++) {
        this.hands[(this.first + k) % players].push(this.stock.pop());
      }
    }
    this.discard = [this.stock.pop()];
    this.suit = suitOf(this.top);
    this.direction = 1;
    this.phase = "play"; // or "choose suit", "after draw"
    this.drawn = null;
    this.stuck = 0; // turns in a row in which nobody could move
    this.turn = 0;
    this.over = false;
    this.winners = [];
  }

  get top() { return this.discard[this.discard.length - 1]; }

  next(steps = 1) {
    return (((this.current + steps * this.direction) % this.players) + this.players) % this.players;
  }

  playable(card) {
    return rankOf(card) === "8" || suitOf(card) === this.suit || rankOf(card) === rankOf(this.top);
  }

  canDraw() { return this.stock.length > 0 || this.discard.length > 1; }

  legal() {
    if (this.phase === "choose suit") return [...SUITS].map((s) => `suit ${s}`);
    if (this.phase === "after draw") { // a drawn card that fits is played, else the turn passes
      return this.playable(this.drawn) ? [`play ${this.drawn}`] : ["pass"];
    }
    const cards = [...new Set(this.hands[this.current].filter((c) => this.playable(c)))];
    const actions = cards.sort(byOrder).map((c) => `play ${c}`);
    if (this.canDraw()) actions.push("draw");
    else if (!actions.length) actions.push("pass");
    return actions;
  }

  drawOne(seat) {
    if (!this.stock.length) { // the discards but the top card become the new stock
      this.stock = this.discard.splice(0, this.discard.length - 1);
      shuffle(this.stock, this.random);
    }
    const card = this.stock.pop();
    if (card !== undefined) this.hands[seat].push(card);
    return card;
  }

  // Apply one legal action of the current seat; a sentence saying what happened.
  apply(action) {
    const seat = this.current, hand = this.hands[seat];
    this.turn++;
    if (action.startsWith("suit ")) {
      this.suit = action.slice(5);
      this.phase = "play";
      this.current = this.next();
      return `names ${this.suit}`;
    }
    if (action === "draw") {
      this.stuck = 0;
      this.drawn = this.drawOne(seat);
      this.phase = "after draw";
      return "draws a card";
    }
    if (action === "pass") {
      const moved = this.phase === "after draw";
      this.phase = "play";
      this.drawn = null;
      this.stuck = moved ? 0 : this.stuck + 1;
      if (this.stuck >= this.players) return this.end(this.lowestHands(), "nobody can move");
      this.current = this.next();
      return "passes";
    }
    const card = action.slice(5);
    hand.splice(hand.indexOf(card), 1);
    this.discard.push(card);
    this.suit = suitOf(card);
    this.phase = "play";
    this.drawn = null;
    this.stuck = 0;
    if (!hand.length) return this.end([seat], `plays ${card} and goes out`);
    const rank = rankOf(card);
    if (rank === "8") {
      this.phase = "choose suit";
      return `plays ${card}`;
    }
    if (rank === "J" && this.players === 2) return `plays ${card}: seat ${this.next()} is skipped`;
    if (rank === "J") {
      this.direction = -this.direction;
      this.current = this.next();
      return `plays ${card}: play reverses`;
    }
    if (rank === "Q") {
      const skipped = this.next();
      this.current = this.next(2);
      return `plays ${card}: seat ${skipped} is skipped`;
    }
    if (rank === "K") {
      const victim = this.next();
      const got = [this.drawOne(victim), this.drawOne(victim)].filter((c) => c).length;
      this.current = this.next(2);
      return `plays ${card}: seat ${victim} draws ${got} and is skipped`;
    }
    this.current = this.next();
    return `plays ${card}`;
  }

  lowestHands() {
    const totals = this.hands.map((h) => h.reduce((sum, c) => sum + points(c), 0));
    const best = Math.min(...totals);
    return totals.flatMap((total, seat) => (total === best ? [seat] : []));
  }

  end(winners, what) {
    this.over = true;
    this.winners = winners;
    return what;
  }

  // What the seat to act sees, in the protocol's minimal form (docs/protocol.md).
  view() {
    return {
      seat: this.current,
      current_player: this.current,
      hand: [...this.hands[this.current]].sort(byOrder),
      hand_sizes: this.hands.map((h) => h.length),
      top: this.top,
      active_suit: this.suit,
    };
  }
}

// ------------------------------------------------------------------ the table
let decisions = 0;

const TIME_LIMIT_MS = 5000;

// The bot's next message, or an error once the time limit has passed.
function reply(bot) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${TIME_LIMIT_MS} ms`)), TIME_LIMIT_MS);
  });
  return Promise.race([bot.receive(), late]).finally(() => clearTimeout(timer));
}

// Ask the bot which of `legal` the seat to act plays; check the answer is one of them.
async function choose(bot, game, legal) {
  const id = ++decisions, view = game.view();
  bot.send({ type: "decide", id, game: 1, time_limit_ms: TIME_LIMIT_MS, legal, view });
  const answer = await reply(bot);
  if (answer.type !== "action" || answer.id !== id) {
    throw new Error(`the bot answered decision ${id} with ${JSON.stringify(answer)}`);
  }
  if (!legal.includes(answer.action)) {
    throw new Error(`the bot chose ${JSON.stringify(answer.action)}, not one of ${legal}`);
  }
  console.log(`turn ${game.turn + 1}, seat ${view.seat} (${game.phase}): hand ` +
              `${view.hand.join(" ")}, top ${view.top}, suit ${view.active_suit}; ` +
              `legal: ${legal.join(", ")} -> ${answer.action}`);
  return answer.action;
}

async function main() {
  const [url, seedText, playersText] = process.argv.slice(2);
  if (!url) {
    process.stderr.write("usage: node crazy_eights_table.js ws://HOST:PORT [SEED] [PLAYERS]\n");
    process.exit(2);
  }
  const seed = Number(seedText || 1), players = Number(playersText || 2);
  const game = new CrazyEights(players, generator(seed));
  const bot = await connect(url);
  bot.send({ type: "hello", protocol: PROTOCOL, variant: "crazy_eights",
             config: { num_players: players }, name: "crazy_eights_table.js" });
  const ready = await reply(bot);
  if (ready.type !== "ready") throw new Error(`the bot refused the hello: ${ready.message}`);
  console.log(`${players} players, seed ${seed}; the bot is ${ready.name}`);
  console.log(`seat ${game.first} plays first; the starter is ${game.top}`);
  while (!game.over && game.turn < 2000) {
    const legal = game.legal(), seat = game.current, turn = game.turn + 1;
    if (legal.length === 1) { // a forced move (a pass, a drawn card that fits): no question
      console.log(`turn ${turn}, seat ${seat} ${game.apply(legal[0])}`);
      continue;
    }
    const what = game.apply(await choose(bot, game, legal));
    if (what.includes(":") || what.includes("goes out")) console.log(`  seat ${seat} ${what}`);
  }
  bot.send({ type: "bye" });
  bot.close();
  if (!game.over) throw new Error("the game reached 2000 turns without a winner");
  const left = game.hands.map((h, seat) => `seat ${seat}: ${h.length} cards`).join(", ");
  console.log(`game over after ${game.turn} turns and ${decisions} decisions: ` +
              `seat ${game.winners.join(" and seat ")} won (${left})`);
}

main().catch((err) => {
  process.stderr.write(`crazy_eights_table.js: ${err.message}\n`);
  process.exit(1);
});
