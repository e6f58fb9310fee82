#!/usr/bin/env node
// A rule engine for the one-way labyrinth in JavaScript (Node), speaking the engine protocol
// of docs/engine-protocol.md: JSON lines on stdin/stdout.
//
// Rules (universal, sound on every board):
//   dead-end  (disable): after the move, a free cell next to the old head would have too few ways
//             left (a cell needs two among the free cells and the new head, the end corner one);
//   early-end (disable): stepping onto the end corner while other cells are still free;
//   forced-cell (force): a free neighbour of the head (not the end corner) with one free
//             neighbour left must be entered now.
// With --wrong it adds a deliberately wrong rule, wall-ahead: never step straight on towards a
// wall (it closes moves that still have a completion: an audit reports them as over-pruned).
"use strict";

const WRONG = process.argv.includes("--wrong");
const MOVES = { U: [0, -1], D: [0, 1], L: [-1, 0], R: [1, 0] };
const ORDER = "UDLR";

function parse(text) {
  const m = /^(\d+):([UDLR]*)$/.exec(text);
  if (!m) throw new Error(`bad state ${JSON.stringify(text)}`);
  const n = Number(m[1]);
  const taken = new Set(["1,1"]);
  let x = 1, y = 1;
  for (const c of m[2]) {
    x += MOVES[c][0]; y += MOVES[c][1];
    if (x < 1 || y < 1 || x > n || y > n || taken.has(`${x},${y}`)) throw new Error(`bad move in ${text}`);
    taken.add(`${x},${y}`);
  }
  return { n, taken, x, y, last: m[2].slice(-1) || "D" };
}

function decide(text) {
  const s = parse(text);
  const { n, taken } = s;
  const on = (x, y) => x >= 1 && y >= 1 && x <= n && y <= n;
  const free = (x, y) => on(x, y) && !taken.has(`${x},${y}`);
  const isEnd = (x, y) => x === n && y === n;
  const freeCount = n * n - taken.size;
  const closed = {};
  const close = (m, rule, cells) => (closed[m] = closed[m] || []).push({ rule, cells });
  const moves = ORDER.split("").filter((m) => free(s.x + MOVES[m][0], s.y + MOVES[m][1]));
  for (const m of moves) {
    const wx = s.x + MOVES[m][0], wy = s.y + MOVES[m][1];
    if (isEnd(wx, wy) && freeCount > 1) close(m, "early-end", [[wx, wy]]);
    for (const k of ORDER) { // the old head's other free neighbours lose it as a way in
      const cx = s.x + MOVES[k][0], cy = s.y + MOVES[k][1];
      if (k === m || !free(cx, cy)) continue;
      let ways = 0; // its free neighbours, the new head w among them (the old head is on the line)
      for (const j of ORDER) if (free(cx + MOVES[j][0], cy + MOVES[j][1])) ways++;
      if (ways < (isEnd(cx, cy) ? 1 : 2)) close(m, "dead-end", [[cx, cy]]);
    }
    if (WRONG && m === s.last && !on(wx + MOVES[m][0], wy + MOVES[m][1])) close(m, "wall-ahead", [[wx, wy]]);
  }
  const forced = [];
  for (const m of moves) {
    const cx = s.x + MOVES[m][0], cy = s.y + MOVES[m][1];
    if (isEnd(cx, cy)) continue;
    let ways = 0;
    for (const j of ORDER) if (free(cx + MOVES[j][0], cy + MOVES[j][1])) ways++;
    if (ways === 1) forced.push({ move: m, rule: "forced-cell", cells: [[cx, cy]] });
  }
  const wanted = new Set(forced.map((f) => f.move));
  let allowed = moves.filter((m) => !closed[m]);
  if (forced.length) {
    for (const m of allowed) {
      if (!wanted.has(m) || wanted.size > 1) {
        for (const f of forced) close(m, f.rule, f.cells);
      }
    }
    allowed = allowed.filter((m) => wanted.has(m) && wanted.size === 1);
  }
  const out = { allowed: allowed.join("") };
  if (forced.length) out.forced = forced;
  if (Object.keys(closed).length) out.closed = closed;
  return out;
}

const send = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let i;
  while ((i = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, i).trim();
    buffer = buffer.slice(i + 1);
    if (!line) continue;
    let req;
    try { req = JSON.parse(line); } catch (e) { send({ type: "error", id: null, message: "not JSON" }); continue; }
    if (req.type === "quit") process.exit(0);
    if (req.type === "hello") {
      send({ type: "hello", protocol: 1, engine: WRONG ? "corners-js-wrong" : "corners-js", version: "1",
             puzzles: ["labyrinth"], sizes: "all", batch: false });
    } else if (req.type === "decide") {
      try { send(Object.assign({ type: "decision", id: req.id }, decide(req.state))); }
      catch (e) { send({ type: "error", id: req.id, message: e.message }); }
    } else {
      send({ type: "error", id: req.id === undefined ? null : req.id, message: `unknown request ${req.type}` });
    }
  }
});
process.stdin.on("end", () => process.exit(0));
