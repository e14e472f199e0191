// The game page: a websocket to /ws/games/<id>/, the board and the side panel.
// Every change on screen comes from a server message; a click only sends.

import { createBoard, pointName } from "./board.js";
import { createClocks } from "./clock.js";
import { connectToGame } from "./connection.js";
import { COLOR_NAME, createMoveList, resultText } from "./record.js";
import { chatLineMenu } from "./report.js";

const COLORS = ["black", "white"];
const KIND_NAME = { othello: gettext("Othello"), go: pgettext("the game", "Go") };
const ERROR_SHOWN_MS = 4000;

const page = document.getElementById("game");
const $ = (id) => document.getElementById(id);
let game = JSON.parse($("game-state").textContent);
// The computer's seat in the page's language: its stored name (G's `players`) is data.
const computerName = page.dataset.computerName || null;
// The logged-in viewer's username ("" for a guest): a challenge to them asks for an answer.
const viewer = $("game").dataset.viewer ?? "";
// When the current G arrived: its clocks and away times are as of then.
let receivedAt = performance.now();
const clocks = createClocks(page);

const board = createBoard($("board"), {
  onPlay: (point) => {
    drawConfirm();
    send({ type: "play", ply: game.ply, point });
  },
  // The marking's number: a click on a marking that changed meanwhile is stale.
  onMark: (point) => send({ type: "mark", point, marking: game.marking }),
  onRefuse: (point, occupied) => {
    drawConfirm();
    if (premoving()) choosePremove(point, occupied);
    else showHint(refusal(occupied));
  },
  onPending: (point) =>
    showHint(interpolate(gettext("Tap %(point)s again to play."), { point: named(point) }, true)),
  onHeld: drawConfirm,
  onDismiss: dismiss,
  confirmTaps,
  confirmMoves: confirmingMoves,
});

const named = (point) => pointName(game.kind, game.size, point);

// --- tap to confirm ------------------------------------------------------------
// On a touch screen a first tap shows the stone and a second plays it: on by default
// where the points are closer than a fingertip can tell apart, as the player set it
// once they have (remembered in this browser).

const CONFIRM_KEY = "othello-go:confirm-taps";
const CONFIRM_BELOW_PX = 28;
const touchScreen = navigator.maxTouchPoints > 0 || matchMedia("(any-pointer: coarse)").matches;

function confirmTaps(spacing = board.spacing()) {
  const chosen = localStorage.getItem(CONFIRM_KEY);
  if (chosen) return chosen === "on";
  return spacing < CONFIRM_BELOW_PX;
}

function drawConfirmSetting() {
  // Confirm's buttons, where they are on, already keep a slip of the finger from playing.
  $("confirm-setting").hidden = !touchScreen || confirmingMoves();
  $("confirm-taps").checked = confirmTaps();
}
$("confirm-taps").addEventListener("change", (event) => {
  localStorage.setItem(CONFIRM_KEY, event.target.checked ? "on" : "off");
});
new ResizeObserver(drawConfirmSetting).observe($("board"));

// --- move confirmation ------------------------------------------------------------
// When the player's setting says so (an account's `confirm_moves`, a guest's choice kept
// in this browser; not chosen: correspondence games on a touch screen, never elsewhere),
// a pick places a stone that waits: Confirm plays it, Cancel (or Escape, or a right-click)
// takes it back.

const CONFIRM_MOVES_KEY = "othello-go:confirm-moves";
const CONFIRM_CHOICES = ["never", "correspondence", "always"];
const coarsePointer = matchMedia("(pointer: coarse)").matches;

/** The setting in force here: the account's (or this browser's) choice, else the device's. */
function confirmMovesSetting() {
  const chosen = viewer ? page.dataset.confirmMoves : localStorage.getItem(CONFIRM_MOVES_KEY);
  if (CONFIRM_CHOICES.includes(chosen)) return chosen;
  return coarsePointer ? "correspondence" : "never";
}

const byCorrespondence = () => game.clock?.system === "correspondence";

function confirmingMoves() {
  const setting = confirmMovesSetting();
  return setting === "always" || (setting === "correspondence" && byCorrespondence());
}

/** Confirm and Cancel under the board while a stone waits for them. */
function drawConfirm() {
  const held = board.held();
  const box = $("move-confirm");
  const waiting = Boolean(held) && confirmingMoves();
  if (waiting) {
    $("move-confirm-text").textContent = interpolate(gettext("Play %(point)s?"), { point: named(held) }, true);
  }
  if (box.hidden === !waiting) return;
  box.hidden = !waiting;
  if (!waiting && box.contains(document.activeElement)) $("board").focus();
}

$("move-confirm-yes").addEventListener("click", () => board.confirm());
$("move-confirm-no").addEventListener("click", () => {
  board.cancel();
  drawConfirm();
  $("board").focus();
});

/** The setting's menu for a player, set to what is in force; a change is kept for the
 * account (POST /accounts/settings/) or in this browser. */
function drawConfirmMovesMenu() {
  $("confirm-moves-setting").hidden = !game.you;
  $("confirm-moves").value = confirmMovesSetting();
}

$("confirm-moves").addEventListener("change", async (event) => {
  const value = event.target.value;
  if (!viewer) localStorage.setItem(CONFIRM_MOVES_KEY, value);
  else if (!(await keepForAccount(value))) {
    drawConfirmMovesMenu();
    return;
  }
  page.dataset.confirmMoves = value;
  if (!confirmingMoves()) board.cancel();
  drawConfirm();
  drawConfirmSetting();
});

async function keepForAccount(value) {
  const csrf = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/)?.[1] ?? "";
  try {
    const answer = await fetch("/accounts/settings/", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": decodeURIComponent(csrf),
      },
      body: JSON.stringify({ confirm_moves: value }),
    });
    if (answer.ok) return true;
    showError((await answer.json().catch(() => ({}))).message ?? gettext("The setting could not be saved."));
  } catch {
    showError(gettext("The setting could not be saved."));
  }
  return false;
}

// --- premoves ----------------------------------------------------------------------
// In a game without a correspondence clock, a point picked during the opponent's turn is
// kept here and sent as soon as the turn comes, if it is then legal (G's `legal`: the
// server judges); otherwise it is dropped. Picked again, Escape or a right-click: cancelled.

let premove = null;

const premoving = () =>
  game.status === "active" && Boolean(game.you) && game.to_move !== game.you && !byCorrespondence();

const samePoint = (a, b) => Boolean(a && b) && a[0] === b[0] && a[1] === b[1];

function setPremove(point) {
  premove = point;
  board.premove(point);
}

function choosePremove(point, occupied) {
  if (samePoint(point, premove)) {
    setPremove(null);
    showHint(gettext("Premove cancelled."));
  } else if (occupied) {
    showHint(takenText());
  } else {
    setPremove(point);
    showHint(
      interpolate(
        gettext("Premove %(point)s: played when your turn comes, if it is legal then. Pick it again or press Escape to cancel."),
        { point: named(point) },
        true,
      ),
    );
  }
}

/** Once the turn comes: the premove played if legal, dropped otherwise; dropped too once
 * premoves no longer apply (the game over, or a page that no longer plays). */
function playPremove() {
  if (!premove) return;
  if (!premoving() && !yourTurn()) {
    setPremove(null);
    return;
  }
  if (!yourTurn()) return;
  const point = premove;
  setPremove(null);
  if ((game.legal ?? []).some((legal) => samePoint(legal, point))) {
    send({ type: "play", ply: game.ply, point });
  } else {
    showHint(interpolate(gettext("Premove %(point)s dropped: not a legal move now."), { point: named(point) }, true));
  }
}

/** Escape or a right-click: the premove, or the stone waiting for Confirm, put away. */
function dismiss() {
  if (premove) {
    setPremove(null);
    showHint(gettext("Premove cancelled."));
    return true;
  }
  if (!board.held()) return false;
  board.cancel();
  drawConfirm();
  return true;
}

page.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && dismiss()) event.preventDefault();
});

const takenText = () => (game.kind === "go" ? gettext("That point is taken.") : gettext("That square is taken."));

/** Why a pick on the board does nothing, in a few words. */
function refusal(occupied) {
  if (!game.you) return gettext("You are watching: only the players can play.");
  if (game.status === "waiting") return gettext("Waiting for an opponent to join.");
  if (game.status === "scoring") return gettext("Play has ended: click a stone to mark it dead or alive.");
  if (game.status !== "active") return gettext("This game is over.");
  if (game.to_move !== game.you) {
    return interpolate(gettext("It is %(name)s's move."), { name: seatName(game.to_move) }, true);
  }
  if (occupied) return takenText();
  if (game.kind === "othello") return gettext("No discs to flip from there: pick a marked square.");
  return gettext("Not a legal move there: it would capture itself or repeat the board (ko).");
}

// A hint answers one pick: it goes when the player acts (a move, a pass, any request
// but chat) or the position changes, or after a while, whichever comes first.
let hintTimer = null;
function hideHint() {
  clearTimeout(hintTimer);
  $("board-hint").hidden = true;
}

function showHint(text) {
  const hint = $("board-hint");
  hint.textContent = text;
  hint.hidden = false;
  clearTimeout(hintTimer);
  hintTimer = setTimeout(hideHint, ERROR_SHOWN_MS);
}

// --- connection --------------------------------------------------------------

let connection = null;

function send(message) {
  if (!["sync", "chat"].includes(message.type)) hideHint();
  if (connection?.send(message)) return true;
  showError(gettext("Not connected: reconnecting…"));
  return false;
}

function receive(message) {
  if (message.type === "state") {
    const declined = game.undo && !message.game.undo && message.game.ply === game.ply;
    if (declined) {
      const decliner = otherColor(game.undo);
      tableNote =
        decliner === game.you
          ? gettext("You declined to take the move back.")
          : interpolate(gettext("%(name)s declined to take the move back."), { name: seatName(decliner) }, true);
      declinedAt = game.ply; // asked again only after the next move
    }
    update(message.game, null);
  } else if (message.type === "undone") {
    const asker = game.undo ?? (game.computer ? otherColor(game.computer) : null);
    const withReply = game.computer && game.ply - message.game.ply > 1;
    if (withReply && asker === game.you) {
      tableNote = gettext("Your last move and the computer's reply were taken back.");
    } else if (!asker) tableNote = gettext("The last move was taken back.");
    else if (asker === game.you) tableNote = gettext("Your last move was taken back.");
    else tableNote = interpolate(gettext("%(name)s's last move was taken back."), { name: seatName(asker) }, true);
    update(message.game, null);
  } else if (message.type === "moved") {
    if (message.move.color !== game.you && message.move.ply > game.ply) {
      if (game.you) beep();
      noteUnseen();
    }
    if (message.move.ply > game.ply) tableNote = "";
    update(message.game, message.move);
  } else if (message.type === "chat") {
    addChat(message.message);
    noteUnseen();
  } else if (message.type === "chat_history") {
    $("chat-list").replaceChildren();
    for (const said of message.messages) addChat(said);
  } else if (message.type === "rematch") {
    location.assign(`/games/${encodeURIComponent(message.game_id)}/`);
  } else if (message.type === "error") {
    // A stale ply means this page is behind (or a click came twice): catch up quietly.
    if (message.code === "stale") send({ type: "sync" });
    else showError(message.message || message.code);
  }
}

// --- drawing -----------------------------------------------------------------

// Set when a change of the marking withdrew an acceptance; cleared by the next accept.
let withdrawn = false;
// What just happened around the board (a move taken back, a request declined); cleared
// by the next move.
let tableNote = "";
let declinedAt = null;

function update(next, move) {
  if (move && next.ply < game.ply) return;
  // `moved` carries its move, not the whole list (`state` does): the page keeps the list.
  let moves = next.moves;
  if (!moves) {
    moves = game.moves ?? [];
    if (move && move.ply === moves.length + 1) moves = [...moves, move];
    else if (move && move.ply > moves.length + 1) send({ type: "sync" }); // one was missed
  }
  const fresh = move && move.ply > game.ply ? move : null;
  const hadAccepted = COLORS.some((color) => game.accepted?.[color]);
  if (next.status !== "scoring" || COLORS.some((color) => next.accepted?.[color])) {
    withdrawn = false;
  } else if (game.status === "scoring" && next.marking !== game.marking && hadAccepted) {
    withdrawn = true;
  }
  if (next.ply !== game.ply || next.status !== game.status) hideHint();
  game = { ...next, moves };
  receivedAt = performance.now();
  board.render(game, fresh);
  drawPanel();
  drawConfirm();
  playPremove();
}

let errorTimer = null;
function showError(text) {
  const toast = $("toast");
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => {
    toast.hidden = true;
  }, ERROR_SHOWN_MS);
}

const yourTurn = () => game.status === "active" && Boolean(game.you) && game.you === game.to_move;

function statusText() {
  const other = game.you === "black" ? "white" : "black";
  switch (game.status) {
    case "waiting":
      if (game.challenge?.bot) {
        return interpolate(gettext("Waiting for %(bot)s (BOT) to accept the challenge…"), { bot: game.challenge.bot }, true);
      }
      if (game.challenge && game.challenge.to === viewer) {
        const from = game.players.black ?? game.players.white;
        return interpolate(gettext("%(name)s challenges you: accept or decline below."), { name: from }, true);
      }
      if (game.challenge) {
        return interpolate(gettext("Waiting for %(name)s to accept the challenge…"), { name: game.challenge.to }, true);
      }
      return game.you ? gettext("Waiting for an opponent to join.") : gettext("Waiting for a second player.");
    case "active":
      if (yourTurn()) return gettext("Your move.");
      if (game.computer === game.to_move) {
        return interpolate(gettext("%(name)s is thinking…"), { name: playerName(game.to_move) }, true);
      }
      if (game.you) {
        return interpolate(gettext("Waiting for %(name)s…"), { name: playerName(other) ?? COLOR_NAME[other] }, true);
      }
      return interpolate(gettext("%(side)s to move."), { side: sideName(game.to_move) }, true);
    case "scoring":
      if (game.you) return gettext("Play has ended: mark the dead stones, then accept.");
      return gettext("Play has ended: the players are marking the dead stones.");
    case "finished":
      return resultText(game.result, game.kind);
    case "aborted":
      return game.challenge?.message ?? abortedText();
    default:
      return "";
  }
}

/** "Bob (Black)", or "Black" while the seat has no name. */
const sideName = (color) =>
  playerName(color)
    ? interpolate(gettext("%(name)s (%(colour)s)"), { name: playerName(color), colour: COLOR_NAME[color] }, true)
    : COLOR_NAME[color];

/** Why the game was aborted (G's `aborted`): "Aborted: Bob (Black) did not make a first move." */
function abortedText() {
  const why = game.aborted;
  switch (why?.reason) {
    case "first_move":
      return interpolate(gettext("Aborted: %(side)s did not make a first move."), { side: sideName(why.color) }, true);
    case "left":
      return interpolate(gettext("Aborted: %(side)s left without making a move."), { side: sideName(why.color) }, true);
    case "called_off":
      return interpolate(
        gettext("Aborted: %(side)s called the game off before anyone joined."),
        { side: sideName(why.color) },
        true,
      );
    default:
      return gettext("This game was aborted.");
  }
}

const won = (color) => game.result?.startsWith(color === "black" ? "B+" : "W+") ?? false;

/** "You won." / "You lost." for the two players of a finished game. */
function outcomeText() {
  if (game.status !== "finished" || !game.you || !game.result || game.result === "Draw") return "";
  return won(game.you) ? gettext("You won.") : gettext("You lost.");
}

function noticeText() {
  if (withdrawn) return gettext("The marking changed: both acceptances were withdrawn.");
  if (tableNote && game.status === "active") return tableNote;
  const last = game.last_move;
  if (game.status !== "active" || last?.action !== "pass") return "";
  if (last.color === game.you) {
    return game.kind === "othello" ? gettext("You have no move and pass.") : gettext("You pass.");
  }
  const who = { name: seatName(last.color) };
  return game.kind === "othello"
    ? interpolate(gettext("%(name)s has no move and passes."), who, true)
    : interpolate(gettext("%(name)s passes."), who, true);
}

const counted = () => game.kind === "go" && Boolean(game.score_detail);

function scoreText(color) {
  if (game.kind === "othello") return `${game.score?.[color] ?? 0}`;
  if ((game.status === "finished" || counted()) && game.score) return `${game.score[color]}`;
  const captured = game.prisoners?.[color] ?? 0;
  const komi = color === "white" && game.komi ? ` + ${game.komi}` : "";
  return `${captured}${komi}`;
}

function scoreCaption(color) {
  if (game.kind === "othello") return ngettext("disc", "discs", Number(game.score?.[color] ?? 0));
  if (game.status === "finished" || counted()) return ngettext("point", "points", Number(game.score?.[color]));
  if (color === "white" && game.komi) return gettext("captures + komi");
  return ngettext("capture", "captures", Number(game.prisoners?.[color] ?? 0));
}

function drawPlayers() {
  for (const row of page.querySelectorAll(".player")) {
    const color = row.dataset.color;
    const bot = game.bots?.[color] ? " · BOT" : "";
    row.querySelector(".player-name").textContent = (playerName(color) ?? gettext("waiting…")) + bot;
    row.classList.toggle("empty-seat", !playerName(color));
    row.classList.toggle("to-move", game.status === "active" && game.to_move === color);
    row.classList.toggle("winner", won(color));
    const tags = row.querySelector(".player-tags");
    tags.textContent = game.imported
      ? gettext("imported")
      : game.you === color
        ? gettext("you")
        : game.computer === color
          ? gettext("computer")
          : "";
    const score = row.querySelector(".player-score");
    score.textContent = scoreText(color);
    score.dataset.caption = scoreCaption(color);
    drawPresence(row, color);
    drawRating(row, color);
  }
}

/** A seat taken by an account after the page was drawn: its name becomes the link to
 * the profile, as the server draws it. */
function linkToProfile(row, username) {
  const name = row.querySelector(".player-name");
  if (name.tagName === "A") return;
  const link = Object.assign(document.createElement("a"), {
    className: "player-name",
    href: `/players/${encodeURIComponent(username)}/`,
    textContent: name.textContent,
  });
  name.replaceWith(link);
}

/** A rated game's seat: the rating before the game, then once it ends the new rating and
 * the change ("1512 +12"); "?" marks a provisional rating, a link to the ratings' help
 * with its title (the page's #provisional-mark holds it). */
function drawRating(row, color) {
  const rating = row.querySelector(".player-rating");
  const seat = game.ratings?.[color];
  rating.hidden = !seat;
  if (!seat) return;
  linkToProfile(row, seat.username);
  const ended = seat.change !== null;
  rating.replaceChildren(String(Math.round(ended ? seat.rating + seat.change : seat.rating)));
  if (seat.provisional) rating.append($("provisional-mark").content.cloneNode(true));
  if (!ended) return;
  const change = Math.round(seat.change);
  rating.append(` ${change < 0 ? "-" : "+"}${Math.abs(change)}`);
  rating.dataset.change = change < 0 ? "down" : "up";
}

/** A seat's dot: green while one of its sockets is open, grey while away. */
function drawPresence(row, color) {
  const presence = row.querySelector(".presence");
  const seated = Boolean(playerName(color));
  // This page's own seat is online while the page is connected (a presence state from
  // another process may arrive after this page's own, telling of the moment before).
  const connected = $("connection").dataset.state === "connected";
  const online = Boolean(game.online?.[color]) || (color === game.you && connected);
  presence.hidden = !seated;
  row.classList.toggle("online", seated && online);
  row.classList.toggle("away", seated && !online);
  const name = { name: playerName(color) ?? COLOR_NAME[color] };
  presence.title = interpolate(online ? gettext("%(name)s is online") : gettext("%(name)s is away"), name, true);
  presence.querySelector(".presence-text").textContent = online ? gettext("(online)") : gettext("(away)");
}

// --- the first moves ------------------------------------------------------------

let firstMoveTimer = null;

/** "0:23": whole seconds left, rounded up. */
function countdown(ms) {
  const seconds = Math.ceil(Math.max(0, ms) / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** "You must move within 0:23 or the game is aborted." while the side to move owes its
 * first move: G's `clock.first_move_ms` (as of when G arrived), counted down here; no
 * clock ticks meanwhile (G's `running` is null). */
function drawFirstMove() {
  clearInterval(firstMoveTimer);
  const box = $("first-move");
  const left = game.status === "active" ? game.clock?.first_move_ms : null;
  box.hidden = left === null || left === undefined;
  if (box.hidden) return;
  const draw = () => {
    const ms = left - (performance.now() - receivedAt);
    box.textContent = yourTurn()
      ? interpolate(gettext("You must move within %(time)s or the game is aborted."), { time: countdown(ms) }, true)
      : interpolate(
          gettext("%(side)s must move within %(time)s or the game is aborted."),
          { side: sideName(game.to_move), time: countdown(ms) },
          true,
        );
    box.classList.toggle("low", ms < 10_000);
  };
  draw();
  firstMoveTimer = setInterval(draw, 250);
}

// --- claiming a game the opponent left -------------------------------------------

let claimTimer = null;

/** How long until the opponent has been away long enough to claim; null while they are
 * here (or there is nothing to claim). */
function claimWaitMs() {
  if (!game.you || !["active", "scoring"].includes(game.status)) return null;
  const opponent = game.you === "black" ? "white" : "black";
  const away = game.away_ms?.[opponent];
  if (game.online?.[opponent] || away === null || away === undefined) return null;
  return game.abandon_seconds * 1000 - away - (performance.now() - receivedAt);
}

function drawClaim() {
  clearInterval(claimTimer);
  const wait = claimWaitMs();
  $("claim").hidden = wait === null;
  if (wait === null) return;
  const opponent = opponentName();
  const button = $("claim-button");
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    $("claim-text").textContent = interpolate(
      ngettext(
        "%(name)s has left. You may claim the win in %(seconds)s second.",
        "%(name)s has left. You may claim the win in %(seconds)s seconds.",
        seconds,
      ),
      { name: opponent, seconds },
      true,
    );
    button.disabled = true;
    claimTimer = setInterval(drawClaim, 1000);
  } else {
    $("claim-text").textContent = interpolate(gettext("%(name)s has left the game."), { name: opponent }, true);
    button.disabled = false;
  }
}

const moveList = createMoveList($("move-list"), $("no-moves"), () =>
  document.createElement("span"),
);

function drawMoves() {
  moveList.extend(game.moves ?? []);
  moveList.select(game.ply);
  const list = $("move-list");
  list.scrollTop = list.scrollHeight;
}

const nameOf = (color) => (game.you === color ? gettext("You") : playerName(color) ?? COLOR_NAME[color]);

/** "You have accepted; waiting for Bob.", "Ann has accepted: accept to end the game." */
function acceptedText() {
  const [who] = COLORS.filter((color) => game.accepted?.[color]);
  if (!who) return gettext("Neither player has accepted yet.");
  const other = who === "black" ? "white" : "black";
  const names = { name: nameOf(who), other: nameOf(other) };
  if (game.you === other) return interpolate(gettext("%(name)s has accepted: accept to end the game."), names, true);
  if (game.you === who) return interpolate(gettext("You have accepted; waiting for %(other)s."), names, true);
  return interpolate(gettext("%(name)s has accepted; waiting for %(other)s."), names, true);
}

const COUNT_ROWS = {
  territory: [
    ["territory", gettext("Territory")],
    ["prisoners", gettext("Captures")],
    // The opponent's stones marked dead, which count for this column's side.
    ["dead", gettext("Opponent's dead stones")],
    ["komi", gettext("Komi")],
  ],
  area: [
    ["stones", gettext("Stones")],
    ["territory", gettext("Territory")],
    ["komi", gettext("Komi")],
  ],
};

/** Go's count: the table of points, who accepted, Accept and Resume play. */
function drawCount() {
  const section = $("count");
  if (!section) return;
  section.hidden = !counted();
  if (!counted()) return;
  const detail = game.score_detail;
  const rows = [...COUNT_ROWS[game.scoring_method ?? "territory"], ["total", gettext("Total")]];
  $("count-table").tBodies[0].replaceChildren(
    ...rows.map(([field, label]) => {
      const row = document.createElement("tr");
      row.dataset.field = field;
      const head = document.createElement("th");
      head.scope = "row";
      head.textContent = label;
      row.append(head);
      for (const color of COLORS) {
        const cell = document.createElement("td");
        cell.dataset.color = color;
        cell.textContent = String(detail[color][field]);
        row.append(cell);
      }
      return row;
    }),
  );
  const scoring = game.status === "scoring";
  const seated = scoring && Boolean(game.you);
  $("count-help").hidden = !seated;
  $("accepted").hidden = !scoring;
  $("accepted").textContent = scoring ? acceptedText() : "";
  const accept = $("accept-button");
  const youAccepted = Boolean(game.accepted?.[game.you]);
  accept.hidden = !seated;
  accept.disabled = youAccepted;
  accept.textContent = youAccepted ? gettext("Accepted") : gettext("Accept");
  $("resume-button").hidden = !seated;
}

/** The last move a player chose (an Othello pass is always the server's); given a
 * colour, the last that side chose. */
function lastChosenMove(color = null) {
  const moves = game.moves ?? [];
  for (let i = moves.length - 1; i >= 0; i--) {
    const move = moves[i];
    if (game.kind === "othello" && move.action === "pass") continue;
    if (color && move.color !== color) continue;
    return move;
  }
  return null;
}

const otherColor = (color) => (color === "black" ? "white" : "black");
/** The name of seat `color` as the page shows it (the computer's translated), null while free. */
const playerName = (color) => (color && color === game.computer && computerName) || game.players[color] || null;
const seatName = (color) => playerName(color) ?? COLOR_NAME[color];
const opponentName = () => playerName(otherColor(game.you)) ?? gettext("Your opponent");

// Against the computer (as on lichess) your last move can be taken back whenever you have
// one: the computer's reply goes with it, and it agrees at once.
function drawUndo() {
  const active = game.status === "active" && Boolean(game.you);
  const last = lastChosenMove(game.computer ? game.you : null);
  const mine = active && last && last.color === game.you && ["place", "pass"].includes(last.action);
  $("undo-button").hidden = !(mine && !game.undo && declinedAt !== game.ply);
  const asked = active && game.undo;
  $("undo").hidden = !asked;
  if (!asked) return;
  const theyAsked = game.undo !== game.you;
  $("undo-text").textContent = theyAsked
    ? interpolate(gettext("%(name)s asks to take back their last move."), { name: opponentName() }, true)
    : interpolate(gettext("Waiting for %(name)s to let you take it back…"), { name: opponentName() }, true);
  $("undo-accept").hidden = !theyAsked;
  $("undo-decline").hidden = !theyAsked;
}

function drawRematch() {
  // Ways onward (replay, SGF, a new game like this one) for everyone once it is over;
  // the rematch for its players.
  $("after-game").hidden = !["finished", "aborted"].includes(game.status);
  // The engines review finished games only: an aborted one is not offered it. A game
  // never played (a challenge declined or withdrawn, a game called off) has no record.
  $("analyse-link").hidden = game.status !== "finished";
  const unplayed = game.status === "aborted" && game.ply === 0;
  $("replay-link").hidden = unplayed;
  $("sgf-link").hidden = unplayed;
  // A game the pools made that was called off (nobody moved): seek again at once.
  const seekAgain = document.getElementById("seek-again");
  if (seekAgain) seekAgain.hidden = game.status !== "aborted";
  const over = game.status === "finished" && Boolean(game.you);
  $("rematch-actions").hidden = !over;
  if (!over) {
    $("rematch-text").hidden = true;
    return;
  }
  const button = $("rematch-button");
  const text = $("rematch-text");
  const offer = game.rematch;
  const link = $("rematch-link");
  const started = Boolean(offer) && !COLORS.includes(offer); // the new game's id
  link.hidden = !started;
  if (started) link.href = `/games/${encodeURIComponent(offer)}/`;
  button.hidden = started || offer === game.you;
  button.textContent = offer && offer !== game.you ? gettext("Accept the rematch") : gettext("Rematch");
  text.hidden = !offer || started;
  text.textContent =
    offer === game.you
      ? interpolate(gettext("Rematch offered: waiting for %(name)s…"), { name: opponentName() }, true)
      : interpolate(gettext("%(name)s offers a rematch, colours swapped."), { name: opponentName() }, true);
}

// --- the chat --------------------------------------------------------------------

function addChat(said) {
  const item = document.createElement("li");
  item.className = "chat-message";
  if (said.color) item.dataset.color = said.color;
  // A comment of an imported record has no name: the record's, nobody's.
  if (said.name === null) item.classList.add("record-comment");
  const name = document.createElement("span");
  name.className = "chat-name";
  name.textContent = said.name ?? gettext("From the record");
  const text = document.createElement("span");
  text.className = "chat-text";
  text.textContent = said.text; // text, never HTML: links and tags show as typed
  item.append(name, text);
  const menu = chatLineMenu(said, { game: game.id, viewer });
  if (menu) item.append(menu);
  const list = $("chat-list");
  list.append(item);
  list.scrollTop = list.scrollHeight;
}

// --- sound ---------------------------------------------------------------------

const SOUND_KEY = "othello-go:sound";
$("sound").checked = localStorage.getItem(SOUND_KEY) === "on";
$("sound").addEventListener("change", (event) => {
  localStorage.setItem(SOUND_KEY, event.target.checked ? "on" : "off");
});

let audio = null;
/** A short tone, when the player asked for sound (off by default). */
function beep() {
  if (!$("sound").checked) return;
  audio ??= new AudioContext();
  const tone = audio.createOscillator();
  const volume = audio.createGain();
  tone.frequency.value = 660;
  volume.gain.setValueAtTime(0.15, audio.currentTime);
  volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.15);
  tone.connect(volume).connect(audio.destination);
  tone.start();
  tone.stop(audio.currentTime + 0.15);
}

// --- an arena's berserk -------------------------------------------------------

// Whether G's tournament (the tournaments app's part of G) is an arena: its T, read once.
let arena = null;
let berserked = false;

async function learnTournament() {
  if (arena !== null || !game.tournament) return;
  arena = false;
  try {
    const answer = await fetch(`/tournaments/${encodeURIComponent(game.tournament.id)}.json`);
    if (answer.ok) arena = (await answer.json()).system === "arena";
  } catch {
    arena = false;
  }
  drawBerserk();
}

/** Berserk: in an arena's game, before one's first move (halves one's own clock). */
function drawBerserk() {
  const button = $("berserk-button");
  if (!button) return;
  if (game.tournament && arena === null) learnTournament();
  const moved = (game.moves ?? []).some(
    (move) => move.color === game.you && ["place", "pass"].includes(move.action),
  );
  button.hidden = !(arena && game.you && game.status === "active" && !moved && !berserked);
}

function drawControls() {
  drawBerserk();
  const seated = Boolean(game.you);
  const pass = $("pass-button");
  if (pass) {
    pass.hidden = !(seated && game.status === "active");
    pass.disabled = !yourTurn();
  }
  // Resigning stays possible while the game is counted.
  const playing = seated && (game.status === "active" || game.status === "scoring");
  const confirming = playing && !$("resign-confirm").hidden;
  $("resign-button").hidden = !playing || confirming;
  $("resign-confirm").hidden = !confirming;

  const waiting = game.status === "waiting";
  $("invite").hidden = !(waiting && seated);
  const join = $("join-form");
  // A challenge's seat is for the challenged account only: others watch.
  const elsewhere = Boolean(game.challenge) && game.challenge.to !== viewer;
  if (join) join.hidden = !(waiting && !seated) || elsewhere;
  // A challenge that ended (declined, withdrawn, not answered) is no game to watch: the
  // status says what became of it.
  const challengeEnded = Boolean(game.challenge) && game.status === "aborted";
  $("watching").hidden = seated || (waiting && Boolean(join)) || challengeEnded;
}

function drawPanel() {
  const focused = document.activeElement;
  page.dataset.status = game.status;
  page.dataset.you = game.you ?? "";
  page.dataset.toMove = game.to_move ?? "";
  page.dataset.ply = game.ply;
  page.classList.toggle("your-turn", yourTurn());
  drawPlayers();
  const status = $("status");
  status.textContent = statusText();
  status.classList.toggle("result", game.status === "finished");
  const outcome = outcomeText();
  $("outcome").textContent = outcome;
  $("outcome").hidden = !outcome;
  const notice = noticeText();
  $("notice").textContent = notice;
  $("notice").hidden = !notice;
  drawMoves();
  drawCount();
  drawControls();
  drawUndo();
  drawRematch();
  drawClaim();
  drawFirstMove();
  clocks.show(game);
  drawTitle();
  drawConfirmMovesMenu();
  keepFocus(focused);
}

/** A control the keyboard was on that this change hid or disabled (Take back once asked,
 * Pass once passed, Rematch once offered): the focus goes to the status line, which says
 * what happened, instead of being lost to the page. */
function keepFocus(control) {
  if (!control || control === $("board") || !page.contains(control)) return;
  if (control.disabled || control.getClientRects().length === 0) $("status").focus();
}

// What happened while the tab was in the background (a move, a chat message): counted
// in the title, "(2) ● Your move · ...", until the tab is looked at again.
let unseen = 0;

function drawTitle() {
  const mark = unseen ? `(${unseen}) ` : "";
  const title = interpolate(
    gettext("%(kind)s %(size)s×%(size)s: %(black)s vs %(white)s"),
    { kind: KIND_NAME[game.kind], size: game.size, black: playerName("black") ?? "?", white: playerName("white") ?? "?" },
    true,
  );
  document.title = `${mark}${titlePrefix()}${title} · ${gettext("Othello & Go")}`;
}

function noteUnseen() {
  if (!document.hidden) return;
  unseen += 1;
  drawTitle();
}

document.addEventListener("visibilitychange", () => {
  if (document.hidden || !unseen) return;
  unseen = 0;
  drawTitle();
});

/** Whose move it is, first in the tab's title. */
function titlePrefix() {
  if (yourTurn()) return `● ${gettext("Your move")} · `;
  if (game.status !== "active") return "";
  const side = { side: playerName(game.to_move) ?? COLOR_NAME[game.to_move] };
  return `${interpolate(gettext("%(side)s to move"), side, true)} · `;
}

// --- buttons -----------------------------------------------------------------

$("pass-button")?.addEventListener("click", () => send({ type: "pass", ply: game.ply }));
$("claim-button").addEventListener("click", () => send({ type: "claim" }));
$("undo-button").addEventListener("click", () => send({ type: "undo", ply: game.ply }));
$("berserk-button")?.addEventListener("click", () => {
  if (send({ type: "berserk" })) {
    berserked = true;
    drawBerserk();
  }
});
$("undo-accept").addEventListener("click", () => send({ type: "undo_accept", ply: game.ply }));
$("undo-decline").addEventListener("click", () => send({ type: "undo_decline", ply: game.ply }));
$("rematch-button").addEventListener("click", () => send({ type: "rematch" }));
$("abort-button")?.addEventListener("click", () => {
  $("abort-button").hidden = true;
  $("abort-confirm").hidden = false;
  $("abort-no").focus();
});
$("abort-no")?.addEventListener("click", () => {
  $("abort-confirm").hidden = true;
  $("abort-button").hidden = false;
  $("abort-button").focus();
});
$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (text && send({ type: "chat", text })) input.value = "";
});

$("accept-button")?.addEventListener("click", () =>
  send({ type: "accept", marking: game.marking }),
);
$("resume-button")?.addEventListener("click", () =>
  send({ type: "resume", marking: game.marking }),
);

$("resign-button").addEventListener("click", () => {
  $("resign-confirm").hidden = false;
  drawControls();
  $("resign-no").focus();
});
// The keyboard's focus stays where the player is: back on Resign after Cancel, on the
// status line (which then tells the result) after resigning.
$("resign-no").addEventListener("click", () => {
  $("resign-confirm").hidden = true;
  drawControls();
  $("resign-button").focus();
});
$("resign-yes").addEventListener("click", () => {
  $("resign-confirm").hidden = true;
  send({ type: "resign" });
  drawControls();
  $("status").focus();
});

$("copy-invite").addEventListener("click", async () => {
  const input = $("invite-link");
  const button = $("copy-invite");
  let copied = false;
  try {
    await navigator.clipboard.writeText(input.value);
    copied = true;
  } catch {
    // No clipboard API (plain http, old browser): select the link for Ctrl+C.
    input.focus();
    input.select();
    copied = document.execCommand?.("copy") ?? false;
  }
  button.textContent = copied ? gettext("Copied!") : gettext("Press Ctrl+C");
  setTimeout(() => {
    button.textContent = gettext("Copy link");
  }, 2000);
});

$("invite-link").value = `${location.origin}/games/${game.id}/`;
board.render(game);
drawPanel();
connection = connectToGame(game.id, { indicator: $("connection"), onMessage: receive });
