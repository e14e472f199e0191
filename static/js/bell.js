// The bell in the header: the account's unread notifications, live. It hears
// {"type": "notification"} (and {"type": "unread"} when another tab marks some read) on
// the lobby's socket: the home page's own (lobby.js), else a socket of its own in "bell"
// mode, which hears only the account's notifications. The tab's title counts them. The
// same socket hears {"type": "game_ready"} when a tournament pairs the account: the page
// opens the game (game_ready.js). The same socket's {"type": "challenges"} (the account's
// incoming challenges changed) is passed on as a "challenges" event of the document, as
// it is when the socket comes back (inbox.js reads the challenges again).

import { gameReady } from "./game_ready.js";

const bell = document.getElementById("bell");
const count = document.getElementById("bell-count");
const RECONNECT_FIRST_MS = 1000;
const RECONNECT_MAX_MS = 30000;
const title = document.title.replace(/^\(\d+\) /, "");

function show(unread) {
  const n = Math.max(0, Number(unread) || 0);
  count.hidden = n === 0;
  count.firstChild.textContent = String(n);
  bell.dataset.unread = String(n);
  document.title = n > 0 ? `(${n}) ${title}` : title;
}

function hear(message) {
  bell.dataset.live = "1";
  if (message.type === "game_ready") gameReady(message);
  if (message.type === "notification" || message.type === "unread") {
    show(message.unread);
    document.dispatchEvent(new CustomEvent("notification", { detail: message }));
  }
  if (message.type === "challenges") document.dispatchEvent(new CustomEvent("challenges", { detail: message }));
}

// A socket that (re)connects may have missed events while it was down: the count is
// read again (not on the first connection: the page was rendered with it).
let connections = 0;
async function opened() {
  bell.dataset.live = "1";
  connections += 1;
  if (connections === 1) return;
  document.dispatchEvent(new CustomEvent("challenges", { detail: { type: "challenges" } }));
  try {
    const response = await fetch("/notifications.json", { headers: { Accept: "application/json" } });
    if (response.ok) show((await response.json()).unread);
  } catch {
    // offline again: the next connection reads it
  }
}

function ownSocket() {
  let attempts = 0;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws/lobby/?bell=1`);
    socket.addEventListener("open", () => {
      attempts = 0;
      opened();
    });
    socket.addEventListener("message", (event) => hear(JSON.parse(event.data)));
    socket.addEventListener("close", (event) => {
      delete bell.dataset.live;
      if (event.code === 4401) return; // logged out meanwhile: nothing to hear
      const wait = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** attempts);
      attempts += 1;
      setTimeout(connect, wait * (0.75 + Math.random() / 2));
    });
  };
  connect();
}

if (bell && count) {
  show(bell.dataset.unread);
  if (document.getElementById("lobby-mine")) {
    const { listenToLobby } = await import("./lobby.js");
    listenToLobby(hear, opened);
  } else {
    ownSocket();
  }
}
