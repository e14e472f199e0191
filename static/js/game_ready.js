// A tournament paired this account: {"type": "game_ready", "game", "tournament"} on a
// lobby socket of the page (the bell's, or the home page's, which the bell listens to).
// Every page opens the game at once, after a short tone where the browser lets the page
// play one (it has been clicked or tapped: autoplay is refused otherwise). A page of a
// game the account is playing (a casual game between rounds) is not left: it shows a
// link to the new game instead, and sounds the tone.

const TONE_MS = 200;
let leaving = false;

/** A short tone; false when the browser would keep the page silent. */
function tone() {
  if (!navigator.userActivation?.hasBeenActive || typeof AudioContext === "undefined") return false;
  try {
    const audio = new AudioContext();
    const note = audio.createOscillator();
    const volume = audio.createGain();
    note.frequency.value = 880;
    volume.gain.setValueAtTime(0.2, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + TONE_MS / 1000);
    note.connect(volume).connect(audio.destination);
    note.start();
    note.stop(audio.currentTime + TONE_MS / 1000);
    return true;
  } catch {
    return false;
  }
}

/** Whether this page is a game the viewer is playing now. */
function playingHere() {
  const table = document.getElementById("game");
  return Boolean(table?.dataset.you) && ["active", "scoring"].includes(table.dataset.status);
}

function offer(url) {
  let note = document.getElementById("game-ready");
  if (!note) {
    note = Object.assign(document.createElement("p"), { id: "game-ready", className: "game-ready" });
    note.setAttribute("role", "alert");
    note.append(Object.assign(document.createElement("a"), { textContent: gettext("Your tournament game is ready: play it") }));
    (document.querySelector("main") ?? document.body).prepend(note);
  }
  note.querySelector("a").href = url;
}

/** Take the page to the game of a `game_ready` message. */
export function gameReady(message) {
  const url = `/games/${encodeURIComponent(message.game)}/`;
  if (leaving || location.pathname === url) return;
  if (playingHere()) {
    offer(url);
    tone();
    return;
  }
  leaving = true;
  document.documentElement.dataset.gameReady = message.game;
  setTimeout(() => location.assign(url), tone() ? TONE_MS : 0);
}
