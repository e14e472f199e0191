// The home page's "Waiting for an opponent", live: a websocket to /ws/lobby/ whose
// every `lobby` message (sent on connect and whenever the open games change, on any
// process) redraws the list and how many games are being played. The page is
// rendered with the same list, so without the socket it is merely not live. The socket
// also carries the pools' seeks (pairing.js).

import { formToken } from "./forms.js";

const RECONNECT_FIRST_MS = 1000;
const RECONNECT_MAX_MS = 30000;
const KIND_NAME = { othello: gettext("Othello"), go: pgettext("the game", "Go") };

const list = document.getElementById("open-games");
const playing = document.getElementById("playing");
// The open games this browser created: they are "yours", not to join.
const mine = new Set(JSON.parse(document.getElementById("lobby-mine").textContent));
const csrfToken = /** @type {HTMLInputElement} */ (document.querySelector('[name="csrfmiddlewaretoken"]')).value;
const nameInput = /** @type {HTMLInputElement | null} */ (document.getElementById("id_name"));

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function joinForm(game) {
  const form = document.createElement("form");
  form.className = "quick-join";
  form.method = "post";
  form.action = `/games/${encodeURIComponent(game.id)}/join/`;
  const token = Object.assign(document.createElement("input"), {
    type: "hidden",
    name: "csrfmiddlewaretoken",
    value: csrfToken,
  });
  const id = `join-name-${game.id}`;
  const label = Object.assign(document.createElement("label"), {
    className: "visually-hidden",
    htmlFor: id,
    textContent: gettext("Your name"),
  });
  const name = Object.assign(document.createElement("input"), {
    id,
    name: "name",
    type: "text",
    maxLength: 40,
    placeholder: gettext("Your name"),
    value: nameInput?.value ?? "",
  });
  const once = Object.assign(document.createElement("input"), {
    type: "hidden",
    name: "form_token",
    value: formToken(),
  });
  form.dataset.busy = gettext("Joining…");
  const button = Object.assign(document.createElement("button"), { type: "submit", textContent: gettext("Join") });
  // An account plays under its username: its page has no name field, nor do its forms.
  if (nameInput) form.append(token, once, label, name, button);
  else form.append(token, once, button);
  return form;
}

/** "Ann plays Black", the name linking to Ann's profile when she has an account. */
function creatorCell(game) {
  const td = document.createElement("td");
  const name = game.creator_account
    ? Object.assign(document.createElement("a"), {
        href: `/players/${encodeURIComponent(game.creator_account)}/`,
        textContent: game.creator,
      })
    : game.creator;
  td.append(name, " ", game.creator_color === "black" ? gettext("plays Black") : gettext("plays White"));
  return td;
}

function row(game) {
  const tr = document.createElement("tr");
  tr.dataset.game = game.id;
  tr.append(
    cell(`${KIND_NAME[game.kind] ?? game.kind} ${game.size}×${game.size}`),
    creatorCell(game),
    cell(game.rated ? `${game.time_control} · ${gettext("Rated")}` : game.time_control, "muted"),
  );
  const action = document.createElement("td");
  action.append(joinForm(game));
  tr.append(action);
  return tr;
}

/** "2 games being played right now: watch them." (the archive's games in progress). */
function drawPlaying(n) {
  if (n === 0) {
    playing.textContent = gettext("No games being played right now.");
    return;
  }
  const link = Object.assign(document.createElement("a"), {
    href: playing.dataset.watch, // the archive's games in progress
    textContent: ngettext("watch it", "watch them", n),
  });
  const [before, after] = interpolate(
    ngettext("%(count)s game being played right now: %(link)s.", "%(count)s games being played right now: %(link)s.", n),
    { count: n, link: "\u0000" },
    true,
  ).split("\u0000");
  playing.replaceChildren(before, link, after);
}

/** Redraw the list, keeping a row whose name field is being typed in. */
function draw(message) {
  const games = message.games.filter((game) => !mine.has(game.id));
  drawPlaying(message.playing);
  if (list.contains(document.activeElement) && document.activeElement !== document.body) {
    const typing = document.activeElement.closest("tr")?.dataset.game;
    if (typing && games.some((game) => game.id === typing)) {
      pending = message; // redrawn when the field loses focus
      return;
    }
  }
  pending = null;
  if (games.length === 0) {
    const empty = document.createElement("p");
    empty.className = "muted";
    empty.textContent = gettext("No open games right now: start one and send the link.");
    list.replaceChildren(empty);
    return;
  }
  const table = Object.assign(document.createElement("table"), { className: "stacking" });
  const body = document.createElement("tbody");
  body.append(...games.map(row));
  table.append(body);
  list.replaceChildren(table);
}

// "Your games": a game where it is now this player's move (a notification `your_move`)
// comes first, marked, without a reload; and it joins "Your move" at the top of the page.
const myGames = document.querySelector(".lobby-mine");
document.addEventListener("notification", (event) => {
  const notification = event.detail.notification;
  if (!notification || notification.kind !== "your_move" || !myGames) return;
  addYourMove(notification);
  let body = myGames.querySelector("tbody");
  if (!body) {
    const table = Object.assign(document.createElement("table"), { className: "stacking" });
    body = document.createElement("tbody");
    table.append(body);
    myGames.querySelector("p.muted")?.remove();
    myGames.append(table);
  }
  let link = [...body.querySelectorAll("a")].find((a) => a.getAttribute("href") === notification.url);
  if (!link) {
    const row = document.createElement("tr");
    const cell = document.createElement("td");
    link = Object.assign(document.createElement("a"), { href: notification.url, textContent: notification.text });
    cell.append(link);
    row.append(cell);
    body.prepend(row);
  }
  const cell = link.closest("td");
  if (!cell.querySelector(".your-move")) {
    const tag = Object.assign(document.createElement("span"), { className: "your-move", textContent: gettext("Your move") });
    cell.append(" ", tag);
  }
  body.prepend(link.closest("tr"));
});

/** The game of a `your_move` notification in the top list, once (its words the notification's). */
function addYourMove(notification) {
  const section = document.getElementById("your-move");
  const yours = document.getElementById("your-move-list");
  if (!section || [...yours.querySelectorAll("a")].some((a) => a.getAttribute("href") === notification.url)) return;
  const item = document.createElement("li");
  const link = Object.assign(document.createElement("a"), {
    className: "your-move-game",
    href: notification.url,
    textContent: notification.text,
  });
  item.append(link);
  yours.prepend(item);
  section.hidden = false;
}

let pending = null;
list.addEventListener("focusout", () => {
  setTimeout(() => {
    if (pending && !list.contains(document.activeElement)) draw(pending);
  });
});

// The same socket carries the seeks of the pools (pairing.js): it listens here and sends
// through `sendToLobby`.
const listeners = { open: [], message: [] };

/** Call `listener(message)` for every message of the lobby's socket, and `onOpen()`
 * each time it (re)connects. */
export function listenToLobby(listener, onOpen) {
  listeners.message.push(listener);
  if (onOpen) listeners.open.push(onOpen);
}

/** Send `message` on the lobby's socket; false when it is not open (it will reconnect). */
export function sendToLobby(message) {
  if (current?.readyState !== WebSocket.OPEN) return false;
  current.send(JSON.stringify(message));
  return true;
}

let current = null;
let attempts = 0;
function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/ws/lobby/`);
  current = socket;
  socket.addEventListener("open", () => {
    attempts = 0;
    for (const onOpen of listeners.open) onOpen();
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "lobby") draw(message);
    for (const listener of listeners.message) listener(message);
  });
  socket.addEventListener("close", () => {
    const wait = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** attempts);
    attempts += 1;
    setTimeout(connect, wait * (0.75 + Math.random() / 2));
  });
}

connect();
