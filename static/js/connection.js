// The live link of a page to one game: a websocket to /ws/games/<id>/ that
// comes back by itself. It reconnects with growing, jittered waits after a drop,
// at once when the browser is back online or the page back in view, and asks
// for the state again (`sync`) whenever it may have missed something. The
// #connection indicator of the page says how it stands.

const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 30000;
const CLOSE_UNKNOWN_GAME = 4404;

/**
 * Connect to game `gameId`; `onMessage(message)` gets every message decoded.
 * `indicator` is the #connection element, labelled `connectedLabel` while open.
 * Returns `send(message)` (false, sending nothing, while not connected) and
 * `stop(label)`: close for good, the indicator left connected with `label`.
 * @param {string} gameId
 * @param {{ indicator: HTMLElement, onMessage: (message: import("./types.js").GameServerMessage) => void, connectedLabel?: string }} options
 */
export function connectToGame(gameId, { indicator, onMessage, connectedLabel = gettext("Connected") }) {
  /** @type {WebSocket | null} */
  let socket = null;
  let attempts = 0;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let retryTimer = null;
  let everConnected = false;
  let leaving = false;
  let stopped = false;

  /** @param {"connected" | "reconnecting" | "gone"} state @param {string} label */
  function setConnection(state, label) {
    indicator.dataset.state = state;
    /** @type {HTMLElement} */ (indicator.querySelector(".connection-label")).textContent = label;
  }

  function connect() {
    clearTimeout(retryTimer ?? undefined);
    retryTimer = null;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/games/${encodeURIComponent(gameId)}/`);
    socket = ws;
    ws.addEventListener("open", () => {
      attempts = 0;
      setConnection("connected", connectedLabel);
      // The server sends the state on connect; after a drop, ask again anyway.
      if (everConnected) send({ type: "sync" });
      everConnected = true;
    });
    ws.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
    ws.addEventListener("close", (event) => {
      if (socket !== ws) return;
      socket = null;
      if (leaving || stopped) return;
      if (event.code === CLOSE_UNKNOWN_GAME) {
        setConnection("gone", gettext("Game not found"));
        return;
      }
      scheduleReconnect();
    });
  }

  function scheduleReconnect() {
    const backoff = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** attempts);
    attempts += 1;
    setConnection("reconnecting", gettext("Reconnecting…"));
    retryTimer = setTimeout(connect, backoff * (0.75 + Math.random() / 2));
  }

  /** Back online or back in view: retry at once, or check that an open socket is current. */
  function reconnectNow() {
    if (stopped) return;
    if (retryTimer !== null) connect();
    else if (socket?.readyState === WebSocket.OPEN) send({ type: "sync" });
  }

  /** @param {import("./types.js").GameClientMessage} message */
  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  /** @param {string} label */
  function stop(label) {
    stopped = true;
    clearTimeout(retryTimer ?? undefined);
    retryTimer = null;
    setConnection("connected", label);
    socket?.close();
  }

  window.addEventListener("online", reconnectNow);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") reconnectNow();
  });
  window.addEventListener("pagehide", () => {
    leaving = true;
  });
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    leaving = false;
    if (!socket && !stopped) connect();
  });

  connect();
  return { send, stop };
}
