// The replay page: step through a stored game by its diffs, both ways.
//
// The server embeds the start board and every move M with the points it
// changed (flipped or captured); a step applies or undoes one move's diff, so
// it costs the same at move 3 or move 300. No rule is evaluated here. A game
// still in play is followed live over /ws/games/<id>/. A Go game finished by
// counting shows the agreed dead stones, territory and totals at its last move.

import { createBoard } from "./board.js";
import { inputById, svgById } from "./dom.js";
import { connectToGame } from "./connection.js";
import { formatClock } from "./clock.js";
import { COLOR_NAME, ENDINGS, createMoveList, moveWords, resultText } from "./record.js";

const data = JSON.parse(document.getElementById("replay-data").textContent);
const $ = (id) => document.getElementById(id);
const page = $("replay");

const LETTER = { black: "B", white: "W" };
const OPPONENT = { black: "white", white: "black" };
const ENDED = new Set(["finished", "aborted"]);

const moves = data.moves;
const grid = data.start.map((row) => row.split(""));
const counts = { black: 0, white: 0 };
if (data.kind === "othello") {
  for (const row of data.start) {
    for (const cell of row) if (cell !== ".") counts[cell === "B" ? "black" : "white"] += 1;
  }
}
// markAt[p]: the placement board.js marks after p moves (Othello's survives its
// automatic pass; nothing after a resignation, a timeout or a forfeit).
const markAt = [null];
moves.forEach(remember);
let ply = 0;
let status = data.status;
let result = data.result;

// The server drew the board as a picture; board.js takes that <svg> over.
const board = createBoard(svgById("board"));

function remember(move) {
  const before = markAt[markAt.length - 1];
  markAt.push(move.action === "place" ? move : ENDINGS.has(move.action) ? null : before);
}

// --- stepping ----------------------------------------------------------------

function forward() {
  const move = moves[ply];
  const own = LETTER[move.color];
  const other = OPPONENT[move.color];
  if (move.point) {
    grid[move.point[0]][move.point[1]] = own;
    if (data.kind === "othello") counts[move.color] += 1;
  }
  for (const [row, col] of move.flipped ?? []) grid[row][col] = own;
  for (const [row, col] of move.captured ?? []) grid[row][col] = ".";
  if (data.kind === "othello") {
    counts[move.color] += move.flipped?.length ?? 0;
    counts[other] -= move.flipped?.length ?? 0;
  } else {
    counts[move.color] += move.captured?.length ?? 0;
  }
  ply += 1;
}

function backward() {
  ply -= 1;
  const move = moves[ply];
  const other = OPPONENT[move.color];
  if (move.point) {
    grid[move.point[0]][move.point[1]] = ".";
    if (data.kind === "othello") counts[move.color] -= 1;
  }
  for (const [row, col] of move.flipped ?? []) grid[row][col] = LETTER[other];
  for (const [row, col] of move.captured ?? []) grid[row][col] = LETTER[other];
  if (data.kind === "othello") {
    counts[move.color] -= move.flipped?.length ?? 0;
    counts[other] += move.flipped?.length ?? 0;
  } else {
    counts[move.color] -= move.captured?.length ?? 0;
  }
}

/** Show the board after `target` moves (clamped); animate a single step forward. */
/** Show the position after `target` moves (a number, or the text of one).
 * @param {number | string} target @param {{ updateUrl?: boolean, animate?: boolean }} [options] */
function goTo(target, { updateUrl = true, animate = true } = {}) {
  const wanted = Math.max(0, Math.min(moves.length, Number(target) || 0));
  const single = animate && wanted === ply + 1;
  while (ply < wanted) forward();
  while (ply > wanted) backward();
  draw(single ? moves[ply - 1] : null);
  if (updateUrl) {
    const url = new URL(location.href);
    url.searchParams.set("ply", String(ply));
    history.replaceState(null, "", url);
  }
}

// --- drawing -----------------------------------------------------------------

function statusText() {
  let text;
  if (ply === 0) {
    text = moves.length
      ? interpolate(
          ngettext("Start position (%(count)s move)", "Start position (%(count)s moves)", moves.length),
          { count: moves.length },
          true,
        )
      : gettext("Start position");
  } else {
    const move = moves[ply - 1];
    text = interpolate(
      gettext("Move %(ply)s of %(total)s: %(colour)s %(move)s"),
      { ply, total: moves.length, colour: COLOR_NAME[move.color], move: moveWords(move) },
      true,
    );
  }
  const outcome = resultText(result, data.kind);
  return outcome && ply === moves.length ? `${text}. ${outcome}` : text;
}

/** The agreed count, shown after the last move; null before it or for another game. */
const countShown = () => (ply === moves.length ? data.count : null);

function drawScores() {
  const count = countShown();
  for (const color of ["black", "white"]) {
    const komi = color === "white" && data.kind === "go" && data.komi ? ` + ${data.komi}` : "";
    const score = $(`score-${color}`);
    score.textContent = count ? `${count.score[color]}` : `${counts[color]}${komi}`;
  }
}

/** @param {string} id @param {number} target @param {boolean} enabled */
function setLink(id, target, enabled) {
  const link = /** @type {HTMLAnchorElement} */ ($(id));
  link.href = `?ply=${target}`;
  if (enabled) link.removeAttribute("aria-disabled");
  else link.setAttribute("aria-disabled", "true");
}

// The server listed the moves so far; moves of a game followed live are added.
const moveList = createMoveList($("move-list"), $("no-moves"), (move) => {
  const link = document.createElement("a");
  link.href = `?ply=${move.ply}`;
  return link;
});

function drawMoveList() {
  moveList.select(ply)?.scrollIntoView({ block: "nearest" });
}

function draw(move) {
  const mark = markAt[ply];
  const count = countShown();
  board.render(
    {
      kind: data.kind,
      size: data.size,
      status: "replay",
      you: null,
      legal: [],
      ply,
      board: grid.map((row) => row.join("")),
      moves: mark ? [mark] : [],
      last_move: ply ? moves[ply - 1] : null,
      dead: count?.dead ?? [],
      territory: count?.territory ?? null,
    },
    move,
  );
  page.dataset.ply = String(ply);
  page.dataset.last = String(moves.length);
  const slider = inputById("slider");
  slider.max = String(moves.length);
  slider.value = String(ply);
  slider.setAttribute("aria-valuetext", statusText());
  setLink("first", 0, ply > 0);
  setLink("previous", Math.max(ply - 1, 0), ply > 0);
  setLink("next", Math.min(ply + 1, moves.length), ply < moves.length);
  setLink("last", moves.length, ply < moves.length);
  /** @type {HTMLAnchorElement} */ ($("picture-link")).href = `/games/${encodeURIComponent(data.id)}/board.svg?ply=${ply}`;
  $("replay-status").textContent = statusText();
  drawScores();
  drawClocks();
  drawMoveList();
  drawSaid();
  page.dispatchEvent(new CustomEvent("replay:drawn", { detail: { ply } }));
}

// The engines' review (review.js) asks for a ply: its graph was clicked.
page.addEventListener("review:goto", (event) => goTo(event.detail.ply));

/** What the players said in the chat after the move shown (before any move at 0), and an
 * imported record's comments there. */
function drawSaid() {
  const said = (data.chat ?? []).filter((message) => message.ply === ply);
  const items = said.map((message) => {
    const item = document.createElement("li");
    item.className = "chat-message";
    if (message.color) item.dataset.color = message.color;
    // A comment of an imported record has no name: the record's, nobody's.
    if (message.name === null) item.classList.add("record-comment");
    const name = Object.assign(document.createElement("span"), {
      className: "chat-name",
      textContent: message.name ?? gettext("From the record"),
    });
    const text = Object.assign(document.createElement("span"), {
      className: "chat-text",
      textContent: message.text,
    });
    item.append(name, text);
    return item;
  });
  $("said-list").replaceChildren(...items);
  $("said-nothing").hidden = items.length > 0;
}

/** Each side's clock after the moves shown: the time left after its last move (M's
 * clock_ms), or its starting time; nothing for a game without a clock. */
function drawClocks() {
  for (const color of ["black", "white"]) {
    const box = $(`clock-${color}`);
    if (!box) continue;
    let left = data.start_clock_ms;
    for (const move of moves.slice(0, ply)) {
      if (move.color === color && move.clock_ms !== null) left = move.clock_ms;
    }
    box.hidden = left === null;
    box.querySelector(".clock-time").textContent = left === null ? "" : formatClock(left);
  }
}

// --- controls ----------------------------------------------------------------

const steps = {
  first: () => 0,
  previous: () => ply - 1,
  next: () => ply + 1,
  last: () => moves.length,
};
for (const [id, target] of Object.entries(steps)) {
  $(id).addEventListener("click", (event) => {
    event.preventDefault();
    stopAutoplay();
    goTo(target());
  });
}

inputById("slider").addEventListener("input", () => {
  stopAutoplay();
  goTo(inputById("slider").value);
});
inputById("slider").form.addEventListener("submit", (event) => event.preventDefault());

$("move-list").addEventListener("click", (event) => {
  const cell = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest(".move[data-ply]"));
  if (!cell) return;
  event.preventDefault();
  stopAutoplay();
  goTo(cell.dataset.ply);
});

const KEYS = {
  ArrowLeft: () => ply - 1,
  ArrowRight: () => ply + 1,
  Home: () => 0,
  End: () => moves.length,
};
// Capture phase: the keys step the replay even while the board has the focus
// (board.js would move its cursor). Form fields keep their own keys.
document.addEventListener(
  "keydown",
  (event) => {
    if (!(event.key in KEYS) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (/** @type {Element} */ (event.target).closest?.("input, select, textarea")) return;
    event.preventDefault();
    event.stopPropagation();
    stopAutoplay();
    goTo(KEYS[event.key]());
  },
  true,
);

// --- autoplay ----------------------------------------------------------------

let timer = null;
const autoplay = $("autoplay");
const speed = /** @type {HTMLSelectElement} */ ($("speed"));

function setPlaying(playing) {
  autoplay.setAttribute("aria-pressed", String(playing));
  autoplay.textContent = playing ? gettext("Pause") : pgettext("autoplay", "Play");
}

function stopAutoplay() {
  if (timer === null) return;
  clearInterval(timer);
  timer = null;
  setPlaying(false);
}

function startAutoplay() {
  if (ply >= moves.length) goTo(0);
  clearInterval(timer);
  timer = setInterval(() => {
    if (ply >= moves.length) {
      // A live game may bring more moves: keep waiting while it is in play.
      if (ENDED.has(status)) stopAutoplay();
      return;
    }
    goTo(ply + 1);
  }, Number(speed.value));
  setPlaying(true);
}

autoplay.addEventListener("click", () => {
  if (timer === null) startAutoplay();
  else stopAutoplay();
});
speed.addEventListener("change", () => {
  if (timer !== null) startAutoplay();
});
autoplay.hidden = false;
$("speed-label").hidden = false;

// --- following a game in play --------------------------------------------------

function append(move) {
  if (move.ply !== moves.length + 1) return false;
  const following = ply === moves.length;
  moves.push(move);
  remember(move);
  moveList.extend(moves);
  if (following && timer === null) goTo(moves.length);
  else draw(null);
  return true;
}

function adopt(game) {
  status = game.status;
  result = game.result;
  const counted = game.status === "finished" && game.territory;
  data.count = counted ? { dead: game.dead, territory: game.territory, score: game.score } : null;
  // A seat taken meanwhile shows its name; the computer's, drawn in the page's language, stays.
  for (const color of ["black", "white"]) {
    const name = document.querySelector(`.player[data-color="${color}"] .player-name`);
    if (color !== game.computer) name.textContent = game.players[color] ?? "?";
  }
}

function follow() {
  const connection = connectToGame(data.id, {
    indicator: $("connection"),
    connectedLabel: gettext("Live"),
    onMessage: (message) => {
      if (message.type === "state") {
        adopt(message.game);
        for (const move of message.game.moves.slice(moves.length)) append(move);
        draw(null);
      } else if (message.type === "moved") {
        adopt(message.game);
        // A gap means a missed event: ask for the whole state.
        if (message.move.ply > moves.length && !append(message.move)) {
          connection.send({ type: "sync" });
        } else {
          draw(null);
        }
      }
      if (ENDED.has(status)) connection.stop(gettext("Game over"));
    },
  });
}

const initial = Number(page.dataset.ply);
goTo(initial, { updateUrl: new URL(location.href).searchParams.has("ply"), animate: false });
if (data.live) follow();
