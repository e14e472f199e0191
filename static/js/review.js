// The engines' review on the replay page (DESIGN.md, "Review"): asks for it, follows
// its progress, and shows it: an evaluation graph under the board (click: go to that
// move), the moves marked ?! ? ??, the best move at the shown position on the board
// (its line on hover or focus), each player's summary, and the perfect-play result
// on exactly solved positions. Everything comes from /games/<id>/analysis.json.

import { createBoard, pointName } from "./board.js";

const $ = (id) => document.getElementById(id);
const page = $("replay");
const data = JSON.parse($("replay-data").textContent);
const url = `/games/${encodeURIComponent(data.id)}/analysis.json`;
const SVG_NS = "http://www.w3.org/2000/svg";
const MARK = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const NAME = { black: "Black", white: "White" };
const POLL_MS = 1500;
const WIDTH = 400;
const HEIGHT = 100;

let review = null;
let shown = Number(page.dataset.ply) || 0;

function svg(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  parent.append(node);
  return node;
}

const stepName = (step) => (step === "pass" ? "pass" : pointName(data.kind, data.size, step));

function verdictText(entry) {
  const value = Math.abs(entry.eval);
  const unit = data.kind === "othello" ? "disc" : "point";
  const units = `${value} ${unit}${value === 1 ? "" : "s"}`;
  if (entry.exact) {
    if (entry.eval === 0) return "Perfect play from here: a draw";
    return `Perfect play from here: ${entry.eval > 0 ? "Black" : "White"} wins by ${value}`;
  }
  if (entry.eval === 0) return "The engine sees the game even";
  return `The engine sees ${entry.eval > 0 ? "Black" : "White"} ahead by ${units}`;
}

// --- the request and its progress ------------------------------------------

async function load() {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`analysis.json: ${response.status}`);
  return response.json();
}

function showProgress() {
  const progress = $("review-progress");
  const running = review.status === "queued" || review.status === "running";
  progress.hidden = !running;
  progress.value = review.progress;
  progress.textContent = `${Math.round(review.progress * 100)}%`;
  const words = {
    queued: "Queued: the engines start soon.",
    running: `Analysing: ${Math.round(review.progress * 100)}%`,
    done: `Reviewed by ${review.engine}.`,
    failed: "The engines could not review this game.",
  };
  $("review-status").textContent = words[review.status];
  $("review-request").hidden = review.status !== "failed";
}

async function follow() {
  review = await load();
  if (!review) {
    // The game page's "Analyse this game" lands here: ask at once.
    if (new URLSearchParams(location.search).has("analyse") && !$("review-request").hidden) {
      $("review-request").requestSubmit();
    }
    return;
  }
  showProgress();
  draw();
  if (review.status === "queued" || review.status === "running") setTimeout(follow, POLL_MS);
}

$("review-request").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const response = await fetch(form.action, { method: "POST", body: new FormData(form) });
  if (response.status === 429) {
    $("review-status").textContent = "Too many reviews asked for: try again later.";
    return;
  }
  const answer = await response.json();
  if (answer.error) {
    $("review-status").textContent = answer.error;
    return;
  }
  form.hidden = true;
  follow();
});

// --- exploring other moves on a side board -------------------------------------

const explored = { ply: 0, moves: [] };
const sideBoard = createBoard($("explore-board"), { onPlay: (point) => tryMoves([...explored.moves, point]) });
const csrf = () => document.querySelector("#review-request [name=csrfmiddlewaretoken]").value;

// Go's engine answers in a second or more: only when asked ("Ask the engine").
async function tryMoves(moves, engine = false) {
  const response = await fetch(`/games/${encodeURIComponent(data.id)}/explore.json`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
    body: JSON.stringify({ ply: explored.ply, moves, engine }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    $("explore-status").textContent = answer.message ?? answer.error ?? "The server refused that move.";
    return;
  }
  // Othello's pass is automatic: the side with no move passes at once.
  if (data.kind === "othello" && !answer.over && answer.legal.length === 0) {
    tryMoves([...moves, "pass"]);
    return;
  }
  explored.moves = moves;
  const last = answer.diffs.at(-1);
  sideBoard.render({
    kind: data.kind,
    size: data.size,
    status: answer.over ? "finished" : "active",
    you: answer.to_move,
    to_move: answer.to_move,
    legal: answer.legal,
    ply: explored.ply + moves.length,
    board: answer.board,
    moves: last?.point ? [{ action: "place", point: last.point, color: last.color }] : [],
    last_move: last?.point ? { action: "place", point: last.point, color: last.color } : null,
    dead: [],
    territory: null,
  });
  const tried = moves.filter((move) => move !== "pass").map(stepName).join(" ");
  const verdict =
    "eval" in answer
      ? `${verdictText(answer)}.`
      : answer.engine_error
        ? "The engine could not answer."
        : "";
  const best = answer.best ? `Best: ${stepName(answer.best)}.` : "";
  const turn = answer.to_move ? `${NAME[answer.to_move]} to move.` : "";
  const words = [tried ? `Tried ${tried}.` : "", verdict, best, turn];
  $("explore-status").textContent = words.filter(Boolean).join(" ");
  $("explore-back").disabled = moves.length === 0;
}

$("explore-start").addEventListener("click", () => {
  explored.ply = shown;
  $("explore-box").hidden = false;
  $("explore-start").hidden = true;
  tryMoves([]);
});

$("explore-pass").addEventListener("click", () => tryMoves([...explored.moves, "pass"]));

$("explore-engine").addEventListener("click", () => {
  $("explore-status").textContent = "Asking the engine…";
  tryMoves(explored.moves, true);
});

$("explore-back").addEventListener("click", () => {
  const moves = [...explored.moves];
  while (moves.at(-1) === "pass") moves.pop();
  moves.pop();
  while (moves.at(-1) === "pass") moves.pop();
  tryMoves(moves);
});

$("explore-return").addEventListener("click", () => {
  $("explore-box").hidden = true;
  $("explore-start").hidden = false;
  $("explore-start").focus();
});


// --- drawing -----------------------------------------------------------------

function drawGraph() {
  const graph = $("review-graph");
  const title = graph.querySelector("title");
  graph.replaceChildren(title);
  const plies = review.plies;
  const total = Math.max(data.moves.length, plies.length - 1, 1);
  // Othello: every disc; Go: the game's widest lead, at least 10 points.
  const widest = Math.max(10, ...plies.map((entry) => Math.abs(entry.eval)));
  const limit = data.kind === "othello" ? data.size * data.size : widest;
  const x = (ply) => (ply / total) * WIDTH;
  const y = (value) => HEIGHT / 2 - (Math.max(-limit, Math.min(limit, value)) / limit) * (HEIGHT / 2);
  svg("rect", { class: "graph-white", x: 0, y: 0, width: WIDTH, height: HEIGHT }, graph);
  if (plies.length) {
    const points = plies.map((entry) => `${x(entry.ply)},${y(entry.eval)}`);
    const area = `0,${HEIGHT} ${points.join(" ")} ${x(plies.at(-1).ply)},${HEIGHT}`;
    svg("polygon", { class: "graph-black", points: area }, graph);
    svg("polyline", { class: "graph-line", points: points.join(" ") }, graph);
    for (const entry of plies) {
      if (entry.judgement) {
        const dot = { cx: x(entry.ply), cy: y(entry.eval), r: 2.5 };
        svg("circle", { ...dot, class: `graph-mark ${entry.judgement}` }, graph);
      }
    }
  }
  svg("line", { class: "graph-middle", x1: 0, x2: WIDTH, y1: HEIGHT / 2, y2: HEIGHT / 2 }, graph);
  svg("line", { class: "graph-now", x1: x(shown), x2: x(shown), y1: 0, y2: HEIGHT }, graph);
  graph.dataset.total = total;
}

function markMoves() {
  for (const link of document.querySelectorAll("#move-list a.move[data-ply]")) {
    const entry = review.plies[Number(link.dataset.ply)];
    link.querySelector(".review-mark")?.remove();
    if (!entry?.judgement) continue;
    const mark = document.createElement("span");
    mark.className = `review-mark ${entry.judgement}`;
    mark.textContent = MARK[entry.judgement];
    mark.title = `${entry.judgement}: lost ${entry.loss}`;
    mark.setAttribute("aria-label", `, ${entry.judgement}`);
    link.append(mark);
  }
}

function drawSummary() {
  const body = $("review-summary").querySelector("tbody");
  body.replaceChildren();
  for (const color of ["black", "white"]) {
    const own = review.plies.filter((entry, index) => index > 0 && review.plies[index - 1].to_move === color);
    const count = (judgement) => own.filter((entry) => entry.judgement === judgement).length;
    const average = own.length ? own.reduce((sum, entry) => sum + entry.loss, 0) / own.length : 0;
    const row = document.createElement("tr");
    row.dataset.color = color;
    const cells = [count("inaccuracy"), count("mistake"), count("blunder"), average.toFixed(1)];
    const head = document.createElement("th");
    head.scope = "row";
    head.textContent = NAME[color];
    row.append(head);
    for (const value of cells) {
      const cell = document.createElement("td");
      cell.textContent = String(value);
      row.append(cell);
    }
    body.append(row);
  }
}

function drawBest() {
  const board = $("board");
  board.querySelector(".review-best")?.remove();
  const entry = review.plies[shown];
  const here = $("review-here");
  const best = $("review-best");
  if (!entry) {
    here.textContent = review.status === "done" ? "" : "Not analysed yet.";
    best.replaceChildren();
    return;
  }
  here.textContent = `${verdictText(entry)}.`;
  best.replaceChildren();
  if (!entry.best) return;
  const line = entry.pv.map(stepName).join(" ");
  const words = document.createElement("button");
  words.type = "button";
  words.className = "link-button review-best-move";
  words.textContent = `Best: ${stepName(entry.best)}`;
  words.setAttribute("aria-describedby", "review-line");
  const shownLine = document.createElement("span");
  shownLine.id = "review-line";
  shownLine.className = "review-line muted";
  shownLine.textContent = ` line: ${line}`;
  // Shown on hover or focus, its room kept meanwhile: the page below never moves
  // under the pointer (a click that starts as the line hides would miss its button).
  const show = (on) => {
    shownLine.style.visibility = on ? "visible" : "hidden";
  };
  show(false);
  const reveal = (on) => () => show(on);
  for (const [type, on] of [["mouseenter", true], ["focus", true], ["mouseleave", false], ["blur", false]]) {
    words.addEventListener(type, reveal(on));
  }
  words.addEventListener("click", () => show(shownLine.style.visibility === "hidden"));
  best.append(words, shownLine);
  if (entry.best === "pass") return;
  const cell = board.querySelector(`.hit[data-point="${entry.best[0]},${entry.best[1]}"]`);
  if (!cell) return;
  const size = Number(cell.getAttribute("width"));
  const group = svg("g", { class: "review-best", "aria-hidden": "true" }, board);
  svg(
    "circle",
    {
      cx: Number(cell.getAttribute("x")) + size / 2,
      cy: Number(cell.getAttribute("y")) + size / 2,
      r: size * 0.3,
      class: "review-best-ring",
    },
    group,
  );
}

function draw() {
  if (!review) return;
  $("review-results").hidden = review.plies.length === 0;
  $("review-graph-box").hidden = review.plies.length === 0;
  drawGraph();
  markMoves();
  drawSummary();
  drawBest();
}

$("review-graph").addEventListener("click", (event) => {
  const graph = event.currentTarget;
  const box = graph.getBoundingClientRect();
  const total = Number(graph.dataset.total) || 1;
  const ply = Math.round(((event.clientX - box.left) / box.width) * total);
  page.dispatchEvent(new CustomEvent("review:goto", { detail: { ply } }));
});

page.addEventListener("replay:drawn", (event) => {
  shown = event.detail.ply;
  draw();
});

follow();
