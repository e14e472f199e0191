// The SVG board of both games. It draws what the server sends (board rows,
// legal points, the last move, Go's dead stones and territory) and reports
// clicks on legal points, and on stones while Go is being scored; it knows no
// rule of either game.

import { ENDINGS } from "./record.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const CELL = 40;
// Go's column letters skip I (it reads like J and 1).
const GO_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
/** @type {Record<string, "black" | "white" | undefined>} */
const STONE = { B: "black", W: "white" };
/** @type {Record<string, Cell>} */
const OPPOSITE = { B: "W", W: "B" };
const LABEL_PX = { min: 11, max: 17 };
const CURSOR = CELL * 0.92;

let boardCount = 0;

/** @typedef {import("./types.js").Point} Point */
/** @typedef {import("./types.js").Kind} Kind */
/** @typedef {import("./types.js").G} G */
/** @typedef {import("./types.js").Move} Move */
/**
 * What the board draws: G, or as much of it as a page has (the replay's position: kind,
 * size, board, and the count once finished).
 * @typedef {Pick<G, "kind" | "size" | "board">
 *   & Partial<Omit<G, "status" | "moves" | "last_move">>
 *   & { status?: string, moves?: DrawnMove[], last_move?: DrawnMove | null }} Drawn
 */
/** A move as the board reads it (M, or the review's line of tried moves).
 * @typedef {Pick<Move, "action" | "point" | "color"> & Partial<Move>} DrawnMove */
/** A board's cell as G's `board` rows write it. @typedef {"." | "B" | "W"} Cell */
/** A point as the SVG's data attributes write it: "row,col". @typedef {string} PointKey */

/**
 * Where things go on the SVG for a board of one kind and size.
 * @typedef {object} Geometry
 * @property {number} width the side of the view box
 * @property {number} margin
 * @property {(point: Point) => [number, number]} centre
 */

/**
 * The SVG's layers, bottom first.
 * @typedef {object} Layers
 * @property {SVGElement} marks
 * @property {SVGElement} stones
 * @property {SVGElement} count
 * @property {SVGElement} ghosts
 * @property {SVGElement} premove
 * @property {SVGElement} last
 * @property {SVGElement} preview
 * @property {SVGElement} cursor
 * @property {SVGElement} hits
 */

/**
 * What the board tells its page, and asks it.
 * @typedef {object} BoardOptions
 * @property {(point: Point) => void} [onPlay]
 * @property {(point: Point) => void} [onMark]
 * @property {(point: Point, occupied: boolean) => void} [onRefuse]
 * @property {(point: Point) => void} [onPending]
 * @property {(point: Point) => void} [onHeld]
 * @property {() => boolean} [onDismiss]
 * @property {(spacing: number) => boolean} [confirmTaps]
 * @property {() => boolean} [confirmMoves]
 */

/** "d3" (Othello: letters from the left, 1 at the top) or "D4" (Go: no I, 1 at the bottom).
 * @param {Kind} kind @param {number} size @param {Point} point */
export function pointName(kind, size, [row, col]) {
  if (kind === "go") return `${GO_LETTERS[col]}${size - row}`;
  return `${String.fromCharCode(97 + col)}${row + 1}`;
}

/**
 * An SVG element `name` with `attrs`, appended to `parent` when given.
 * @param {string} name @param {Record<string, string | number>} [attrs] @param {Element | null} [parent]
 * @returns {SVGElement}
 */
function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.append(node);
  return node;
}

/** @param {Point} point @returns {PointKey} */
const key = ([row, col]) => `${row},${col}`;
/** @param {PointKey} at @returns {Point} */
const pointOf = (at) => /** @type {Point} */ (at.split(",").map(Number));

/** Star points of a Go board: corners, sides on big boards, the centre of odd ones. */
/** @param {number} size @returns {Point[]} */
function starPoints(size) {
  if (size < 5) return [];
  const centre = (size - 1) / 2;
  if (size < 7) return size % 2 ? [[centre, centre]] : [];
  const edge = size >= 13 ? 3 : 2;
  const lines = [edge, size - 1 - edge];
  if (size % 2 && size >= 15) lines.splice(1, 0, centre);
  const points = lines.flatMap((row) => lines.map((col) => /** @type {Point} */ ([row, col])));
  if (size % 2 && size < 15) points.push([centre, centre]);
  return points;
}

/** Othello's four dots: the corners of the central zone, on boards of 8 and more. */
/** @param {number} size @returns {Point[]} */
function othelloDots(size) {
  if (size < 8) return [];
  const lines = [size / 4, (3 * size) / 4];
  return lines.flatMap((y) => lines.map((x) => /** @type {Point} */ ([y, x])));
}

/** Where things go on the SVG for a board of this kind and size. */
/** @param {Kind} kind @param {number} size @returns {Geometry} */
function geometry(kind, size) {
  if (kind === "go") {
    const margin = CELL * 1.15;
    return {
      width: 2 * margin + (size - 1) * CELL,
      centre: ([row, col]) => [margin + col * CELL, margin + row * CELL],
      margin,
    };
  }
  const margin = CELL * 0.6;
  const far = CELL * 0.2;
  return {
    width: margin + size * CELL + far,
    centre: ([row, col]) => [margin + (col + 0.5) * CELL, margin + (row + 0.5) * CELL],
    margin,
  };
}

/** What stands on a point, for the board's label: "empty", "black stone", "dead white stone". */
/** @param {Kind} kind @param {string} cell @param {boolean} isDead */
function pieceWords(kind, cell, isDead) {
  if (cell === ".") return gettext("empty");
  if (kind !== "go") return cell === "B" ? gettext("black disc") : gettext("white disc");
  if (isDead) return cell === "B" ? gettext("dead black stone") : gettext("dead white stone");
  return cell === "B" ? gettext("black stone") : gettext("white stone");
}

/** @param {Element} parent @param {string} text @param {number} x @param {number} y */
function label(parent, text, x, y) {
  const attrs = { x, y, "text-anchor": "middle", "dominant-baseline": "central" };
  el("text", attrs, parent).textContent = text;
}

/** Wood, lines on the points, star points; letters (no I) and numbers from the bottom. */
/** @param {SVGElement} base @param {SVGElement} labels @param {Geometry} geo @param {number} size */
function drawGoBoard(base, labels, { width, margin, centre }, size) {
  el("rect", { class: "wood", x: 0, y: 0, width, height: width, rx: 6 }, base);
  const end = margin + (size - 1) * CELL;
  const lines = el("g", { class: "grid" }, base);
  for (let i = 0; i < size; i++) {
    const at = margin + i * CELL;
    el("line", { x1: margin, y1: at, x2: end, y2: at }, lines);
    el("line", { x1: at, y1: margin, x2: at, y2: end }, lines);
  }
  const side = end - margin;
  el("rect", { class: "edge", x: margin, y: margin, width: side, height: side }, lines);
  for (const point of starPoints(size)) {
    const [x, y] = centre(point);
    el("circle", { class: "star", cx: x, cy: y, r: CELL * 0.09 }, base);
  }
  const near = margin - CELL * 0.72;
  const far = end + CELL * 0.72;
  for (let i = 0; i < size; i++) {
    const at = margin + i * CELL;
    for (const y of [near, far]) label(labels, GO_LETTERS[i], at, y);
    for (const x of [near, far]) label(labels, String(size - i), x, at);
  }
}

/** Green felt divided into squares, the four dots; letters and numbers from the top left. */
/** @param {SVGElement} base @param {SVGElement} labels @param {Geometry} geo @param {number} size */
function drawOthelloBoard(base, labels, { width, margin }, size) {
  el("rect", { class: "frame", x: 0, y: 0, width, height: width, rx: 6 }, base);
  const side = size * CELL;
  el("rect", { class: "felt", x: margin, y: margin, width: side, height: side }, base);
  const lines = el("g", { class: "grid" }, base);
  for (let i = 0; i <= size; i++) {
    const at = margin + i * CELL;
    el("line", { x1: margin, y1: at, x2: margin + side, y2: at }, lines);
    el("line", { x1: at, y1: margin, x2: at, y2: margin + side }, lines);
  }
  for (const [row, col] of othelloDots(size)) {
    const [cx, cy] = [margin + col * CELL, margin + row * CELL];
    el("circle", { class: "star", cx, cy, r: CELL * 0.08 }, base);
  }
  for (let i = 0; i < size; i++) {
    const at = margin + (i + 0.5) * CELL;
    label(labels, String.fromCharCode(97 + i), at, margin / 2);
    label(labels, String(i + 1), margin / 2, at);
  }
}

/**
 * Draw a board into `svg` and call `onPlay([row, col])` when the player to
 * move picks one of the server's legal points (click, tap, or cursor keys and
 * Enter/Space), and `onMark([row, col])` when a player picks a stone while Go
 * is being scored; `onRefuse([row, col], occupied)` for any other pick (the page says
 * why nothing happens).
 *
 * A tap on a touch screen plays only once confirmed when `confirmTaps(spacing)` says so
 * (`spacing`: pixels between two points on screen): the first tap shows a ghost stone
 * and calls `onPending([row, col])`, a second tap on it plays.
 *
 * While `confirmMoves()` says so, every pick of a legal point (click, tap or keyboard)
 * waits instead: the board shows the stone and calls `onHeld([row, col])`; `confirm()`
 * plays it, `cancel()` takes it back, and a pick elsewhere moves it. A right-click calls
 * `onDismiss()`, which returns whether it put something away (then no menu opens).
 *
 * Returns `{render(game, move), spacing(), held(), confirm(), cancel(), premove(point)}`:
 * `game` is the server's G (at least kind, size, board; status, you, to_move, legal,
 * moves, last_move when playing; dead and territory once counted), `move` the M just
 * played, whose flips or captures are animated; `premove(point)` marks the page's premove
 * (null: none).
 * @param {SVGSVGElement} svg
 * @param {BoardOptions} [options]
 */
export function createBoard(
  svg,
  {
    onPlay = () => {},
    onMark = () => {},
    onRefuse = () => {},
    onPending = () => {},
    onHeld = () => {},
    onDismiss = () => false,
    confirmTaps = () => false,
    confirmMoves = () => false,
  } = {},
) {
  const id = `board${++boardCount}`;
  /** @type {string | null} "kind:size" currently drawn */
  let shape = null;
  /** @type {Geometry} set by the first render, before anything is drawn */
  let geo;
  /** @type {Drawn} set by the first render; the handlers wait for it (`if (game)`) */
  let game;
  /** @type {Layers} set by the first render */
  let layers;
  /** @type {Set<PointKey>} */
  let legal = new Set();
  let marking = false; // a player may pick stones: Go's scoring phase
  /** @type {Set<PointKey>} */
  let dead = new Set();
  /** @type {Map<PointKey, SVGElement>} */
  let stones = new Map();
  /** @type {PointKey | null} */
  let hovered = null;
  /** @type {{ at: PointKey, ply: number | undefined } | null} a point waiting for a second tap or for Confirm */
  let pending = null;
  /** @type {PointKey | null} the page's premove, marked */
  let premoved = null;
  let pointerType = "mouse"; // of the last press: a click after a touch is a tap
  /** @type {Point} set by the first render */
  let cursor;
  /** @type {{ group: SVGElement, width: number, room: number } | null} the coordinate labels and the room they have, in SVG units */
  let coords = null;

  svg.classList.add("board");
  if (!svg.hasAttribute("tabindex")) svg.setAttribute("tabindex", "0");
  svg.setAttribute("role", "application");
  svg.setAttribute("aria-roledescription", "board");

  /** @param {SVGElement} defs */
  function gradients(defs) {
    /** @type {Record<string, [string, string][]>} */
    const shades = {
      black: [["0%", "#6b6b6b"], ["45%", "#1d1d1d"], ["100%", "#000"]],
      white: [["0%", "#ffffff"], ["70%", "#e9e9e4"], ["100%", "#bdbdb6"]],
    };
    for (const [color, stops] of Object.entries(shades)) {
      const gradient = el(
        "radialGradient",
        { id: `${id}-${color}`, cx: "35%", cy: "30%", r: "75%" },
        defs,
      );
      for (const [offset, stopColor] of stops) {
        el("stop", { offset, "stop-color": stopColor }, gradient);
      }
    }
  }

  /** @param {Kind} kind @param {number} size */
  function drawStatic(kind, size) {
    svg.replaceChildren();
    geo = geometry(kind, size);
    svg.setAttribute("viewBox", `0 0 ${geo.width} ${geo.width}`);
    svg.dataset.kind = kind;
    svg.dataset.size = String(size);
    gradients(el("defs", {}, svg));
    const base = el("g", { class: "board-base" }, svg);
    const labels = el("g", { class: "coords", "aria-hidden": "true" }, svg);
    coords = { group: labels, width: geo.width, room: kind === "go" ? CELL * 0.5 : CELL * 0.42 };
    (kind === "go" ? drawGoBoard : drawOthelloBoard)(base, labels, geo, size);
    layers = {
      marks: el("g", { class: "marks" }, svg),
      stones: el("g", { class: "stones" }, svg),
      count: el("g", { class: "count", "aria-hidden": "true" }, svg),
      ghosts: el("g", { class: "ghosts", "aria-hidden": "true" }, svg),
      premove: el("g", { class: "premove", "aria-hidden": "true" }, svg),
      last: el("g", { class: "last-move" }, svg),
      preview: el("g", { class: "preview", "aria-hidden": "true" }, svg),
      cursor: el("rect", { class: "cursor", width: CURSOR, height: CURSOR, rx: CELL * 0.12 }, svg),
      hits: el("g", { class: "hits" }, svg),
    };
    for (let row = 0; row < size; row++) {
      for (let col = 0; col < size; col++) {
        const [x, y] = geo.centre([row, col]);
        const area = { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL };
        el("rect", { class: "hit", ...area, "data-point": key([row, col]) }, layers.hits);
      }
    }
    stones = new Map();
    hovered = null;
    cursor = [Math.floor((size - 1) / 2), Math.floor((size - 1) / 2)];
  }

  /** Coordinates readable at any size on screen (11 to 17 px), within their margin. */
  function fitLabels() {
    const shown = svg.getBoundingClientRect().width;
    if (!coords || !shown) return;
    const perUnit = shown / coords.width;
    const pixels = Math.min(LABEL_PX.max, Math.max(LABEL_PX.min, CELL * perUnit * 0.28));
    const units = Math.min(coords.room, pixels / perUnit);
    coords.group.setAttribute("font-size", units.toFixed(2));
  }
  new ResizeObserver(fitLabels).observe(svg);

  /** One stone or disc: its shadow and body in a group, placed at the point. */
  /** @param {Cell} cell @param {Point} point @param {SVGElement} parent @param {string} [extraClass] */
  function stone(cell, point, parent, extraClass = "") {
    const [x, y] = geo.centre(point);
    const color = STONE[cell];
    const radius = CELL * (game.kind === "go" ? 0.47 : 0.41);
    const group = el("g", {
      class: `stone ${color} ${extraClass}`.trim(),
      "data-color": cell,
      "data-point": key(point),
    }, parent);
    el("circle", { class: "shadow", cx: x + CELL * 0.03, cy: y + CELL * 0.05, r: radius }, group);
    el("circle", { class: "body", cx: x, cy: y, r: radius, fill: `url(#${id}-${color})` }, group);
    return group;
  }

  /** @param {DrawnMove | null} move */
  function drawStones(move) {
    const flipped = new Set((move?.flipped ?? []).map(key));
    const placed = move?.action === "place" && move.point ? key(move.point) : null;
    for (let row = 0; row < game.size; row++) {
      for (let col = 0; col < game.size; col++) {
        /** @type {Point} */
        const point = [row, col];
        const at = key(point);
        const cell = /** @type {Cell} */ (game.board[row][col]);
        const current = stones.get(at);
        if (current?.dataset.color === cell) continue;
        current?.remove();
        stones.delete(at);
        if (cell === ".") continue;
        if (flipped.has(at)) {
          const group = stone(cell, point, layers.stones, "flipping");
          // The old colour shows for the first half of the turn.
          const old = stone(OPPOSITE[cell], point, group, "flip-old");
          old.querySelector(".shadow")?.remove();
          stones.set(at, group);
        } else {
          stones.set(at, stone(cell, point, layers.stones, at === placed ? "placed" : ""));
        }
      }
    }
    for (const point of move?.captured ?? []) {
      const ghost = stone(move?.color === "black" ? "W" : "B", point, layers.ghosts, "captured");
      ghost.addEventListener("animationend", () => ghost.remove());
    }
    for (const [at, group] of stones) group.classList.toggle("dead", dead.has(at));
  }

  /** Go's count: a small square of the owner's colour on every point of territory. */
  function drawCount() {
    layers.count.replaceChildren();
    const side = CELL * 0.3;
    for (const [color, points] of Object.entries(game.territory ?? {})) {
      for (const point of points) {
        const [x, y] = geo.centre(point);
        const attrs = { x: x - side / 2, y: y - side / 2, width: side, height: side };
        el("rect", { class: `territory ${color}`, "data-point": key(point), ...attrs }, layers.count);
      }
    }
  }

  /** @param {PointKey} at */
  const hasStone = (at) => {
    const [row, col] = pointOf(at);
    return game.board[row][col] !== ".";
  };

  /** The last placement to mark: Othello's survives the automatic pass after it. */
  function lastPlacement() {
    if (game.kind === "othello" && Array.isArray(game.moves)) {
      for (let i = game.moves.length - 1; i >= 0; i--) {
        if (game.moves[i].action === "place") return game.moves[i];
        if (ENDINGS.has(game.moves[i].action)) return null;
      }
      return null;
    }
    const last = game.last_move;
    return last?.action === "place" ? last : null;
  }

  function drawMarks() {
    layers.marks.replaceChildren();
    layers.last.replaceChildren();
    if (game.kind === "othello") {
      for (const at of legal) {
        const [x, y] = geo.centre(pointOf(at));
        el("circle", { class: "legal-dot", cx: x, cy: y, r: CELL * 0.1 }, layers.marks);
      }
    }
    const last = lastPlacement();
    if (last?.point) {
      const [x, y] = geo.centre(last.point);
      const on = game.board[last.point[0]][last.point[1]];
      /** @type {Record<string, string | number>} */
      const attrs = { cx: x, cy: y, class: `marker on-${STONE[on] ?? "empty"}` };
      attrs.r = game.kind === "go" ? CELL * 0.22 : CELL * 0.09;
      el("circle", attrs, layers.last);
    }
    for (const hit of /** @type {HTMLCollectionOf<SVGElement>} */ (layers.hits.children)) {
      const at = /** @type {PointKey} */ (hit.dataset.point); // every hit area has one
      hit.classList.toggle("legal", legal.has(at));
      hit.classList.toggle("markable", marking && hasStone(at));
    }
  }

  /** @returns {Cell} */
  const yourStone = () => (game.you === "black" ? "B" : "W");

  function drawPreview() {
    layers.preview.replaceChildren();
    if (pending && legal.has(pending.at)) {
      stone(yourStone(), pointOf(pending.at), layers.preview, "pending");
      svg.dataset.pending = pending.at;
      return;
    }
    delete svg.dataset.pending;
    const focused = document.activeElement === svg && svg.classList.contains("keyboard");
    const at = hovered ?? (focused ? key(cursor) : null);
    if (at && legal.has(at)) stone(yourStone(), pointOf(at), layers.preview);
  }

  /** Pixels between two neighbouring points as the board is shown now. */
  function spacing() {
    const shown = svg.getBoundingClientRect().width;
    return geo && shown ? (shown / geo.width) * CELL : Infinity;
  }

  /** A tap on a legal point that should wait for a second tap: shows the ghost stone. */
  /** @param {PointKey} at */
  function holdForConfirmation(at) {
    const tapped = pointerType === "touch" || pointerType === "pen";
    if (!tapped || !legal.has(at) || pending?.at === at || !confirmTaps(spacing())) return false;
    pending = { at, ply: game.ply };
    drawPreview();
    onPending(pointOf(at));
    return true;
  }

  /** A pick of a legal point while moves wait for Confirm: the stone shows, held there. */
  /** @param {PointKey} at */
  function holdForConfirm(at) {
    if (!legal.has(at) || !confirmMoves()) return false;
    pending = { at, ply: game.ply };
    drawPreview();
    onHeld(pointOf(at));
    return true;
  }

  /** The premove's mark: a faint stone of the player's colour in a dashed ring. */
  function drawPremove() {
    layers.premove.replaceChildren();
    if (!premoved) {
      delete svg.dataset.premove;
      return;
    }
    stone(yourStone(), pointOf(premoved), layers.premove, "premove");
    const [x, y] = geo.centre(pointOf(premoved));
    el("circle", { class: "premove-ring", cx: x, cy: y, r: CELL * 0.46 }, layers.premove);
    svg.dataset.premove = premoved;
  }

  function drawCursor() {
    const [x, y] = geo.centre(cursor);
    layers.cursor.setAttribute("x", String(x - CURSOR / 2));
    layers.cursor.setAttribute("y", String(y - CURSOR / 2));
    const name = pointName(game.kind, game.size, cursor);
    const cell = game.board[cursor[0]][cursor[1]];
    const isDead = dead.has(key(cursor));
    const content = { point: name, piece: pieceWords(game.kind, cell, isDead) };
    let cursorText = interpolate(gettext("Cursor %(point)s: %(piece)s"), content, true);
    if (marking && cell !== ".") {
      cursorText = interpolate(
        isDead
          ? gettext("Cursor %(point)s: %(piece)s, Enter marks it alive")
          : gettext("Cursor %(point)s: %(piece)s, Enter marks it dead"),
        content,
        true,
      );
    } else if (legal.has(key(cursor))) {
      cursorText = interpolate(gettext("Cursor %(point)s: %(piece)s, you can play here"), content, true);
    }
    const title = interpolate(
      game.kind === "go" ? gettext("Go board %(size)s by %(size)s") : gettext("Othello board %(size)s by %(size)s"),
      { size: game.size },
      true,
    );
    const help = marking ? gettext("Arrow keys move, Enter marks a group.") : gettext("Arrow keys move, Enter plays.");
    svg.setAttribute("aria-label", `${title}. ${cursorText}. ${help}`);
  }

  /** @param {PointKey} at */
  function play(at) {
    pending = null;
    drawPreview();
    if (legal.has(at)) onPlay(pointOf(at));
    else if (marking && hasStone(at)) onMark(pointOf(at));
    else onRefuse(pointOf(at), hasStone(at));
  }

  /** The point of the hit area an event came from ("row,col"), if any. @param {Event} event */
  const hitPoint = (event) =>
    /** @type {SVGElement | null | undefined} */ (/** @type {Element} */ (event.target).closest?.(".hit"))?.dataset
      .point;

  svg.addEventListener("click", (event) => {
    const at = hitPoint(event);
    if (!at || !game) return;
    cursor = pointOf(at);
    drawCursor();
    if (!holdForConfirm(at) && !holdForConfirmation(at)) play(at);
  });
  svg.addEventListener("contextmenu", (event) => {
    if (game && onDismiss()) event.preventDefault();
  });
  svg.addEventListener("pointerover", (event) => {
    const at = hitPoint(event) ?? null;
    if (at === hovered || !game) return;
    hovered = at;
    drawPreview();
  });
  svg.addEventListener("pointerleave", () => {
    hovered = null;
    if (game) drawPreview();
  });
  svg.addEventListener("pointerdown", (event) => {
    svg.classList.remove("keyboard");
    pointerType = event.pointerType;
    // A touch has no hover: forget the last one so no stale preview lingers.
    if (event.pointerType !== "mouse") hovered = null;
  });
  svg.addEventListener("focus", () => {
    // Tabbing in shows the cursor at once; a click does not.
    if (svg.matches(":focus-visible")) svg.classList.add("keyboard");
    if (game) drawPreview();
  });
  svg.addEventListener("blur", () => game && drawPreview());
  svg.addEventListener("keydown", (event) => {
    if (!game) return;
    /** @type {Record<string, [number, number]>} */
    const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (event.key in steps) {
      const [dr, dc] = steps[event.key];
      const clamp = (/** @type {number} */ value) => Math.max(0, Math.min(game.size - 1, value));
      cursor = [clamp(cursor[0] + dr), clamp(cursor[1] + dc)];
    } else if (event.key === "Enter" || event.key === " ") {
      if (!holdForConfirm(key(cursor))) play(key(cursor));
    } else {
      return;
    }
    event.preventDefault();
    hovered = null;
    svg.classList.add("keyboard");
    drawCursor();
    drawPreview();
  });

  return {
    /** Draw `game` (the server's G); animate `move` (an M) when it was just played.
     * @param {Drawn} next @param {DrawnMove | null} [move] */
    render(next, move = null) {
      game = next;
      const wanted = `${game.kind}:${game.size}`;
      if (wanted !== shape) {
        drawStatic(game.kind, game.size);
        shape = wanted;
        fitLabels();
      }
      const interactive = game.status === "active" && game.you && game.you === game.to_move;
      legal = new Set(interactive ? (game.legal ?? []).map(key) : []);
      svg.classList.toggle("interactive", Boolean(interactive));
      marking = game.kind === "go" && game.status === "scoring" && Boolean(game.you);
      svg.classList.toggle("marking", marking);
      dead = new Set(game.territory ? (game.dead ?? []).map(key) : []);
      // A ghost stone waits for its second tap only in the position it was tapped in.
      if (pending && (pending.ply !== game.ply || !legal.has(pending.at))) pending = null;
      svg.dataset.ply = String(game.ply ?? 0);
      drawStones(move);
      drawCount();
      drawMarks();
      drawPremove();
      drawPreview();
      drawCursor();
    },
    spacing,
    /** The point waiting for Confirm (or a second tap), null for none. */
    held: () => (pending ? pointOf(pending.at) : null),
    /** Play the held stone (nothing when none is held). */
    confirm() {
      if (pending) play(pending.at);
    },
    /** Take the held stone back. */
    cancel() {
      pending = null;
      if (game) drawPreview();
    },
    /** Mark `point` as the page's premove (null: none). @param {Point | null} point */
    premove(point) {
      premoved = point ? key(point) : null;
      if (game) drawPremove();
    },
  };
}
