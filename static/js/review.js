// The engines' review on the replay page (docs/guide.md#the-review): asks for it, follows
// its progress, and shows it: an evaluation graph under the board, scaled in discs or
// points with its zero line and the judged moves as dots (the value under the pointer
// or at the shown move; click: go to that move; focused, the keys step through it), the
// moves marked ?! ? ??, what the shown move cost its mover and the move it should have
// played (a dashed ring), the best move at the shown position (a ring; its line on hover
// or focus), each player's summary with their accuracy, and the perfect-play result on
// exactly solved positions. Everything comes from /games/<id>/analysis.json.

import { createBoard, pointName } from "./board.js";
import { buttonById, formById, svgById } from "./dom.js";

const $ = (/** @type {string} */ id) => document.getElementById(id);
const page = $("replay");
const data = JSON.parse($("replay-data").textContent);
const url = `/games/${encodeURIComponent(data.id)}/analysis.json`;
const SVG_NS = "http://www.w3.org/2000/svg";
const MARK = { inaccuracy: "?!", mistake: "?", blunder: "??" };
// A mark as a screen reader says it after its move: "e6?!, inaccuracy".
const MARK_LABEL = { inaccuracy: gettext(", inaccuracy"), mistake: gettext(", mistake"), blunder: gettext(", blunder") };
const NAME = { black: pgettext("colour", "Black"), white: pgettext("colour", "White") };
const POLL_MS = 1500;

let review = null;
let shown = Number(page.dataset.ply) || 0;

function svg(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  parent.append(node);
  return node;
}

const stepName = (step) => (step === "pass" ? pgettext("the move", "pass") : pointName(data.kind, data.size, step));

/** "4 discs", "1 point": an evaluation's size in the game's unit. */
function amount(value) {
  const words =
    data.kind === "othello"
      ? ngettext("%(value)s disc", "%(value)s discs", value)
      : ngettext("%(value)s point", "%(value)s points", value);
  return interpolate(words, { value }, true);
}

function verdictText(entry) {
  const value = Math.abs(entry.eval);
  const black = entry.eval > 0;
  if (entry.exact) {
    if (entry.eval === 0) return gettext("Perfect play from here: a draw");
    const words = black
      ? gettext("Perfect play from here: Black wins by %(value)s")
      : gettext("Perfect play from here: White wins by %(value)s");
    return interpolate(words, { value }, true);
  }
  if (entry.eval === 0) return gettext("The engine sees the game even");
  const words = black
    ? gettext("The engine sees Black ahead by %(amount)s")
    : gettext("The engine sees White ahead by %(amount)s");
  return interpolate(words, { amount: amount(value) }, true);
}

// --- the request and its progress ------------------------------------------

async function load() {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`analysis.json: ${response.status}`);
  return response.json();
}

function showProgress() {
  const progress = /** @type {HTMLProgressElement} */ ($("review-progress"));
  const running = review.status === "queued" || review.status === "running";
  progress.hidden = !running;
  progress.value = review.progress;
  progress.textContent = `${Math.round(review.progress * 100)}%`;
  const words = {
    queued: gettext("Queued: the engines start soon."),
    running: interpolate(gettext("Analysing: %(progress)s"), { progress: progress.textContent }, true),
    done: interpolate(gettext("Reviewed by %(engine)s."), { engine: data.engines[review.engine] ?? review.engine }, true),
    failed: gettext("The engines could not review this game."),
  };
  $("review-status").textContent = words[review.status];
  $("review-request").hidden = review.status !== "failed";
}

async function follow() {
  review = await load();
  if (!review) {
    // The game page's "Analyse this game" lands here: ask at once.
    if (new URLSearchParams(location.search).has("analyse") && !$("review-request").hidden) {
      formById("review-request").requestSubmit();
    }
    return;
  }
  showProgress();
  draw();
  if (review.status === "queued" || review.status === "running") setTimeout(follow, POLL_MS);
}

formById("review-request").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.target);
  const response = await fetch(form.action, {
    method: "POST",
    body: new FormData(form),
    headers: { Accept: "application/json" },
  });
  if (response.status === 429) {
    $("review-status").textContent = gettext("Too many reviews asked for: try again later.");
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
const sideBoard = createBoard(svgById("explore-board"), { onPlay: (point) => tryMoves([...explored.moves, point]) });
const csrf = () =>
  /** @type {HTMLInputElement} */ (document.querySelector("#review-request [name=csrfmiddlewaretoken]")).value;

// Go's engine answers in a second or more: only when asked ("Ask the engine").
async function tryMoves(moves, engine = false) {
  const response = await fetch(`/games/${encodeURIComponent(data.id)}/explore.json`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
    body: JSON.stringify({ ply: explored.ply, moves, engine }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    $("explore-status").textContent = answer.message ?? answer.error ?? gettext("The server refused that move.");
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
        ? gettext("The engine could not answer.")
        : "";
  const best = answer.best ? interpolate(gettext("Best: %(move)s."), { move: stepName(answer.best) }, true) : "";
  const turn = answer.to_move ? interpolate(gettext("%(side)s to move."), { side: NAME[answer.to_move] }, true) : "";
  const words = [tried ? interpolate(gettext("Tried %(moves)s."), { moves: tried }, true) : "", verdict, best, turn];
  $("explore-status").textContent = words.filter(Boolean).join(" ");
  buttonById("explore-back").disabled = moves.length === 0;
}

$("explore-start").addEventListener("click", () => {
  explored.ply = shown;
  $("explore-box").hidden = false;
  $("explore-start").hidden = true;
  tryMoves([]);
});

$("explore-pass").addEventListener("click", () => tryMoves([...explored.moves, "pass"]));

$("explore-engine").addEventListener("click", () => {
  $("explore-status").textContent = gettext("Asking the engine…");
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

// The graph: evals (Black's side) against moves, its scale in discs or points. Drawn
// in the box's own pixels (redrawn when the box resizes), so its text and dots keep
// their shape at any width.
const GRAPH = { height: 150, left: 42, right: 10, top: 10, bottom: 22 };
// The scale's top: the first of these at least the game's widest eval (Othello: at most
// every disc), labelled at it and at its half.
const LIMITS = [1, 2, 4, 6, 8, 10, 12, 16, 20, 24, 30, 40, 50, 60, 80, 100, 120, 160, 200, 300, 400];
let hovered = null;

/** Move `ply` as the move list shows it, with its mark: "White g1??"; "Start" at 0. */
function moveLabel(ply) {
  if (ply === 0) return pgettext("the game's start", "Start");
  const move = data.moves[ply - 1];
  const mark = MARK[review.plies[ply]?.judgement] ?? "";
  if (!move) return interpolate(gettext("Move %(ply)s"), { ply }, true);
  const words = { ply, side: NAME[move.color], move: `${move.notation}${mark}` };
  return interpolate(gettext("Move %(ply)s, %(side)s %(move)s"), words, true);
}

/** The value at `ply` in words, for the graph's readout: "Move 5, Black d3: Black ahead
 * by 4 discs". */
function pointText(ply) {
  const entry = review.plies[ply];
  if (!entry) return interpolate(gettext("%(move)s: not analysed yet"), { move: moveLabel(ply) }, true);
  const black = entry.eval > 0;
  let words;
  if (entry.eval === 0) words = entry.exact ? gettext("a draw with perfect play") : gettext("even");
  else if (entry.exact) {
    words = black
      ? gettext("Black wins by %(amount)s with perfect play")
      : gettext("White wins by %(amount)s with perfect play");
  } else words = black ? gettext("Black ahead by %(amount)s") : gettext("White ahead by %(amount)s");
  const verdict = interpolate(words, { amount: amount(Math.abs(entry.eval)) }, true);
  return interpolate(gettext("%(move)s: %(verdict)s"), { move: moveLabel(ply), verdict }, true);
}

const signed = (value) => (value === 0 ? "0" : `${value > 0 ? "B" : "W"}+${Math.abs(value)}`);

function niceStep(value) {
  const power = 10 ** Math.floor(Math.log10(value));
  const fraction = value / power;
  return power * (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10);
}

function graphScale() {
  const graph = $("review-graph");
  const width = Math.max(graph.getBoundingClientRect().width, 200);
  const plies = review.plies;
  const total = Math.max(data.moves.length, plies.length - 1, 1);
  const widest = Math.max(1, ...plies.map((entry) => Math.abs(entry.eval)));
  const cap = data.kind === "othello" ? data.size * data.size : Infinity;
  const limit = Math.min(LIMITS.find((step) => step >= widest) ?? widest, cap);
  const right = width - GRAPH.right;
  const bottom = GRAPH.height - GRAPH.bottom;
  const x = (ply) => GRAPH.left + (ply / total) * (right - GRAPH.left);
  const y = (value) => GRAPH.top + ((limit - value) / (2 * limit)) * (bottom - GRAPH.top);
  const plyAt = (clientX) => {
    const box = graph.getBoundingClientRect();
    const at = ((clientX - box.left) * (width / box.width) - GRAPH.left) / (right - GRAPH.left);
    return Math.max(0, Math.min(total, Math.round(at * total)));
  };
  return { width, total, limit, right, bottom, x, y, plyAt };
}

function drawGraph() {
  const graph = $("review-graph");
  const scale = graphScale();
  const { width, total, limit, right, bottom, x, y } = scale;
  graph.setAttribute("viewBox", `0 0 ${width} ${GRAPH.height}`);
  graph.replaceChildren();
  const plies = review.plies;
  svg("rect", { class: "graph-white", x: GRAPH.left, y: GRAPH.top, width: right - GRAPH.left, height: bottom - GRAPH.top }, graph);
  if (plies.length) {
    const points = plies.map((entry) => `${x(entry.ply)},${y(entry.eval)}`);
    const area = `${x(0)},${bottom} ${points.join(" ")} ${x(plies.at(-1).ply)},${bottom}`;
    svg("polygon", { class: "graph-black", points: area }, graph);
  }
  // The scale: the limit and its half on each side, and the zero line.
  for (const value of [limit, limit / 2, 0, -limit / 2, -limit]) {
    const at = y(value);
    svg("line", { class: value === 0 ? "graph-zero" : "graph-grid", x1: GRAPH.left, x2: right, y1: at, y2: at }, graph);
    const label = svg("text", { class: "graph-tick", x: GRAPH.left - 4, y: at, "text-anchor": "end", "dominant-baseline": "middle" }, graph);
    label.textContent = signed(value);
  }
  const step = Math.max(1, niceStep(total / 6));
  for (let ply = step; ply <= total; ply += step) {
    const label = svg("text", { class: "graph-tick graph-move", x: x(ply), y: GRAPH.height - 6, "text-anchor": "middle" }, graph);
    label.textContent = String(ply);
  }
  if (plies.length) {
    svg("polyline", { class: "graph-line", points: plies.map((entry) => `${x(entry.ply)},${y(entry.eval)}`).join(" ") }, graph);
  }
  svg("line", { class: "graph-now", x1: x(shown), x2: x(shown), y1: GRAPH.top, y2: bottom }, graph);
  if (hovered !== null && hovered !== shown) {
    svg("line", { class: "graph-hover", x1: x(hovered), x2: x(hovered), y1: GRAPH.top, y2: bottom }, graph);
  }
  for (const entry of plies) {
    if (!entry.judgement) continue;
    const dot = svg("circle", { cx: x(entry.ply), cy: y(entry.eval), r: 4.5, class: `graph-mark ${entry.judgement}` }, graph);
    svg("title", {}, dot).textContent = entry.advice;
  }
  for (const ply of new Set([shown, hovered])) {
    const entry = plies[ply];
    if (ply === null || !entry) continue;
    svg("circle", { cx: x(ply), cy: y(entry.eval), r: 7, class: ply === shown ? "graph-now-dot" : "graph-hover-dot" }, graph);
  }
  graph.setAttribute("aria-valuemax", String(total));
  graph.setAttribute("aria-valuenow", String(shown));
  graph.setAttribute("aria-valuetext", pointText(shown));
  $("graph-readout").textContent = pointText(hovered ?? shown);
  $("graph-unit").textContent =
    data.kind === "othello"
      ? gettext("Discs, from Black's side (B+: Black ahead, W+: White ahead).")
      : gettext("Points, from Black's side (B+: Black ahead, W+: White ahead).");
}

function markMoves() {
  for (const link of /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll("#move-list a.move[data-ply]"))) {
    const entry = review.plies[Number(link.dataset.ply)];
    link.querySelector(".review-mark")?.remove();
    if (!entry?.judgement) continue;
    const mark = document.createElement("span");
    mark.className = `review-mark ${entry.judgement}`;
    mark.textContent = MARK[entry.judgement];
    mark.title = entry.advice;
    mark.setAttribute("aria-label", MARK_LABEL[entry.judgement]);
    link.append(mark);
  }
}

function drawSummary() {
  const body = $("review-summary").querySelector("tbody");
  body.replaceChildren();
  for (const color of ["black", "white"]) {
    const summary = review.summary[color];
    const row = document.createElement("tr");
    row.dataset.color = color;
    const accuracy = summary.accuracy === null ? "–" : `${summary.accuracy}%`;
    const cells = [summary.inaccuracies, summary.mistakes, summary.blunders, summary.average_loss.toFixed(1), accuracy];
    const head = document.createElement("th");
    head.scope = "row";
    head.textContent = NAME[color];
    row.append(head);
    for (const value of cells) {
      const cell = document.createElement("td");
      cell.textContent = String(value);
      row.append(cell);
    }
    row.lastElementChild.className = "review-accuracy";
    body.append(row);
  }
}

/** A small ring like the board's, before the words that name its point. */
function ringIcon(kind) {
  const icon = document.createElementNS(SVG_NS, "svg");
  icon.setAttribute("class", `ring-icon ring-${kind}`);
  icon.setAttribute("viewBox", "0 0 16 16");
  icon.setAttribute("aria-hidden", "true");
  svg("circle", { cx: 8, cy: 8, r: 5.5 }, icon);
  return icon;
}

function ring(board, point, kind, share) {
  const cell = board.querySelector(`.hit[data-point="${point[0]},${point[1]}"]`);
  if (!cell) return;
  const size = Number(cell.getAttribute("width"));
  const group = svg("g", { class: "review-best", "aria-hidden": "true" }, board);
  svg(
    "circle",
    {
      cx: Number(cell.getAttribute("x")) + size / 2,
      cy: Number(cell.getAttribute("y")) + size / 2,
      r: size * share,
      class: kind,
    },
    group,
  );
}

function drawBest() {
  const board = $("board");
  for (const old of board.querySelectorAll(".review-best")) old.remove();
  const entry = review.plies[shown];
  const here = $("review-here");
  const move = $("review-move");
  const best = $("review-best");
  move.replaceChildren();
  move.className = "";
  if (!entry) {
    here.textContent = review.status === "done" ? "" : gettext("Not analysed yet.");
    best.replaceChildren();
    return;
  }
  // The move that led here, for its mover: what it cost, and what was better.
  if (entry.advice) {
    move.className = `review-move ${entry.judgement ?? ""}`.trim();
    if (entry.loss > 0 && entry.best_for_mover) move.append(ringIcon("better"));
    move.append(entry.advice);
    if (entry.loss > 0 && Array.isArray(entry.best_for_mover)) {
      ring(board, entry.best_for_mover, "review-better-ring", 0.4);
    }
  }
  here.textContent = `${verdictText(entry)}.`;
  best.replaceChildren();
  if (!entry.best) return;
  const line = entry.pv.map(stepName).join(" ");
  const words = document.createElement("button");
  words.type = "button";
  words.className = "link-button review-best-move";
  words.textContent = interpolate(
    gettext("Best for %(side)s: %(move)s"),
    { side: NAME[entry.to_move], move: stepName(entry.best) },
    true,
  );
  words.setAttribute("aria-describedby", "review-line");
  const shownLine = document.createElement("span");
  shownLine.id = "review-line";
  shownLine.className = "review-line muted";
  shownLine.textContent = ` ${interpolate(gettext("line: %(moves)s"), { moves: line }, true)}`;
  // Shown on hover or focus, its room kept meanwhile: the page below never moves
  // under the pointer (a click that starts as the line hides would miss its button).
  const show = (on) => {
    shownLine.style.visibility = on ? "visible" : "hidden";
  };
  show(false);
  const reveal = (/** @type {boolean} */ on) => () => show(on);
  /** @type {[string, boolean][]} */
  const shows = [["mouseenter", true], ["focus", true], ["mouseleave", false], ["blur", false]];
  for (const [type, on] of shows) {
    words.addEventListener(type, reveal(on));
  }
  words.addEventListener("click", () => show(shownLine.style.visibility === "hidden"));
  best.append(ringIcon("best"), words, shownLine);
  if (entry.best !== "pass") ring(board, entry.best, "review-best-ring", 0.3);
}

function draw() {
  if (!review) return;
  $("review-results").hidden = review.plies.length === 0;
  $("review-graph-box").hidden = review.plies.length === 0;
  if (review.plies.length) drawGraph();
  markMoves();
  drawSummary();
  drawBest();
}

const graph = $("review-graph");
graph.addEventListener("click", (event) => {
  const ply = graphScale().plyAt(event.clientX);
  page.dispatchEvent(new CustomEvent("review:goto", { detail: { ply } }));
});
// The value under the pointer; the shown move's again once it leaves.
graph.addEventListener("pointermove", (event) => {
  const ply = Math.min(graphScale().plyAt(event.clientX), review.plies.length - 1);
  if (ply === hovered) return;
  hovered = ply;
  drawGraph();
});
graph.addEventListener("pointerleave", () => {
  hovered = null;
  drawGraph();
});
// The keyboard: ← → Home End step the replay (replay.js) wherever the focus is; a
// slider's ↑ ↓ too.
graph.addEventListener("keydown", (event) => {
  const step = { ArrowUp: 1, ArrowDown: -1 }[event.key];
  if (!step) return;
  event.preventDefault();
  page.dispatchEvent(new CustomEvent("review:goto", { detail: { ply: shown + step } }));
});
new ResizeObserver(() => {
  if (review?.plies.length) drawGraph();
}).observe($("review-graph-box"));

page.addEventListener("replay:drawn", (event) => {
  shown = event.detail.ply;
  draw();
});

follow();
