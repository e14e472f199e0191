// Around the board: the chat, take-backs, the rematch and the ways onward, the buttons
// (pass, resign, abort, claim, berserk), the invitation's link and the sound.

import { buttonById, byId, inputById, maybeById } from "../dom.js";
import { chatLineMenu } from "../report.js";
import { COLORS, lastChosenMove, opponentName, yourTurn } from "./state.js";

/** @typedef {import("../types.js").ChatLine} ChatLine */
/** @typedef {import("./state.js").PageState} PageState */
/** @typedef {import("./socket.js").Socket} Socket */

const SOUND_KEY = "othello-go:sound";

/**
 * @param {PageState} state
 * @param {{ send: Socket["send"] }} parts
 */
export function createTable(state, { send }) {
  // --- take-backs ----------------------------------------------------------------

  // Against the computer (as on lichess) your last move can be taken back whenever you have
  // one: the computer's reply goes with it, and it agrees at once.
  function drawUndo() {
    const { game } = state;
    const active = game.status === "active" && Boolean(game.you);
    const last = lastChosenMove(state, game.computer ? game.you : null);
    const mine = active && last && last.color === game.you && ["place", "pass"].includes(last.action);
    byId("undo-button").hidden = !(mine && !game.undo && state.declinedAt !== game.ply);
    const asked = active && game.undo;
    byId("undo").hidden = !asked;
    if (!asked) return;
    const theyAsked = game.undo !== game.you;
    byId("undo-text").textContent = theyAsked
      ? interpolate(gettext("%(name)s asks to take back their last move."), { name: opponentName(state) }, true)
      : interpolate(gettext("Waiting for %(name)s to let you take it back…"), { name: opponentName(state) }, true);
    byId("undo-accept").hidden = !theyAsked;
    byId("undo-decline").hidden = !theyAsked;
  }

  // --- after the game --------------------------------------------------------------

  function drawRematch() {
    const { game } = state;
    // Ways onward (replay, SGF, a new game like this one) for everyone once it is over;
    // the rematch for its players.
    byId("after-game").hidden = !["finished", "aborted"].includes(game.status);
    // The engines review finished games only: an aborted one is not offered it. A game
    // never played (a challenge declined or withdrawn, a game called off) has no record.
    byId("analyse-link").hidden = game.status !== "finished";
    const unplayed = game.status === "aborted" && game.ply === 0;
    byId("replay-link").hidden = unplayed;
    byId("sgf-link").hidden = unplayed;
    // A game the pools made that was called off (nobody moved): seek again at once.
    const seekAgain = maybeById("seek-again");
    if (seekAgain) seekAgain.hidden = game.status !== "aborted";
    const over = game.status === "finished" && Boolean(game.you);
    byId("rematch-actions").hidden = !over;
    if (!over) {
      byId("rematch-text").hidden = true;
      return;
    }
    const button = byId("rematch-button");
    const text = byId("rematch-text");
    const offer = game.rematch;
    const link = /** @type {HTMLAnchorElement} */ (byId("rematch-link"));
    const started = Boolean(offer) && !(/** @type {string[]} */ (COLORS).includes(offer ?? "")); // the new game's id
    link.hidden = !started;
    if (offer && started) link.href = `/games/${encodeURIComponent(offer)}/`;
    button.hidden = started || offer === game.you;
    button.textContent = offer && offer !== game.you ? gettext("Accept the rematch") : gettext("Rematch");
    text.hidden = !offer || started;
    text.textContent =
      offer === game.you
        ? interpolate(gettext("Rematch offered: waiting for %(name)s…"), { name: opponentName(state) }, true)
        : interpolate(gettext("%(name)s offers a rematch, colours swapped."), { name: opponentName(state) }, true);
  }

  // --- the chat --------------------------------------------------------------------

  /** @param {ChatLine} said */
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
    const menu = chatLineMenu(said, { game: state.game.id, viewer: state.viewer });
    if (menu) item.append(menu);
    const list = byId("chat-list");
    list.append(item);
    list.scrollTop = list.scrollHeight;
  }

  // --- sound -----------------------------------------------------------------------

  const sound = inputById("sound");
  sound.checked = localStorage.getItem(SOUND_KEY) === "on";
  sound.addEventListener("change", () => {
    localStorage.setItem(SOUND_KEY, sound.checked ? "on" : "off");
  });

  /** @type {AudioContext | null} */
  let audio = null;
  /** A short tone, when the player asked for sound (off by default). */
  function beep() {
    if (!sound.checked) return;
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

  // --- an arena's berserk ------------------------------------------------------------

  // Whether G's tournament is an arena: its T (GET /tournaments/<id>.json), read once.
  async function learnTournament() {
    const { tournament } = state.game;
    if (state.arena !== null || !tournament) return;
    state.arena = false;
    try {
      const answer = await fetch(`/tournaments/${encodeURIComponent(tournament.id)}.json`);
      if (answer.ok) state.arena = (await answer.json()).system === "arena";
    } catch {
      state.arena = false;
    }
    drawBerserk();
  }

  /** Berserk: in an arena's game, before one's first move (halves one's own clock). */
  function drawBerserk() {
    const { game } = state;
    const button = maybeById("berserk-button");
    if (!button) return;
    if (game.tournament && state.arena === null) learnTournament();
    const moved = (game.moves ?? []).some(
      (move) => move.color === game.you && ["place", "pass"].includes(move.action),
    );
    button.hidden = !(state.arena && game.you && game.status === "active" && !moved && !state.berserked);
  }

  // --- the buttons -------------------------------------------------------------------

  function drawControls() {
    const { game } = state;
    drawBerserk();
    const seated = Boolean(game.you);
    const pass = maybeById("pass-button");
    if (pass) {
      pass.hidden = !(seated && game.status === "active");
      pass.disabled = !yourTurn(state);
    }
    // Resigning stays possible while the game is counted.
    const playing = seated && (game.status === "active" || game.status === "scoring");
    const confirming = playing && !byId("resign-confirm").hidden;
    byId("resign-button").hidden = !playing || confirming;
    byId("resign-confirm").hidden = !confirming;

    const waiting = game.status === "waiting";
    byId("invite").hidden = !(waiting && seated);
    const join = document.getElementById("join-form");
    // A challenge's seat is for the challenged account only: others watch.
    const elsewhere = Boolean(game.challenge) && game.challenge?.to !== state.viewer;
    if (join) join.hidden = !(waiting && !seated) || elsewhere;
    // A challenge that ended (declined, withdrawn, not answered) is no game to watch: the
    // status says what became of it.
    const challengeEnded = Boolean(game.challenge) && game.status === "aborted";
    byId("watching").hidden = seated || (waiting && Boolean(join)) || challengeEnded;
  }

  maybeById("pass-button")?.addEventListener("click", () => send({ type: "pass", ply: state.game.ply }));
  byId("claim-button").addEventListener("click", () => send({ type: "claim" }));
  byId("undo-button").addEventListener("click", () => send({ type: "undo", ply: state.game.ply }));
  maybeById("berserk-button")?.addEventListener("click", () => {
    if (send({ type: "berserk" })) {
      state.berserked = true;
      drawBerserk();
    }
  });
  byId("undo-accept").addEventListener("click", () => send({ type: "undo_accept", ply: state.game.ply }));
  byId("undo-decline").addEventListener("click", () => send({ type: "undo_decline", ply: state.game.ply }));
  byId("rematch-button").addEventListener("click", () => send({ type: "rematch" }));
  const abortButton = maybeById("abort-button");
  abortButton?.addEventListener("click", () => {
    abortButton.hidden = true;
    byId("abort-confirm").hidden = false;
    byId("abort-no").focus();
  });
  maybeById("abort-no")?.addEventListener("click", () => {
    byId("abort-confirm").hidden = true;
    if (abortButton) {
      abortButton.hidden = false;
      abortButton.focus();
    }
  });
  byId("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = inputById("chat-text");
    const text = input.value.trim();
    if (text && send({ type: "chat", text })) input.value = "";
  });

  byId("resign-button").addEventListener("click", () => {
    byId("resign-confirm").hidden = false;
    drawControls();
    byId("resign-no").focus();
  });
  // The keyboard's focus stays where the player is: back on Resign after Cancel, on the
  // status line (which then tells the result) after resigning.
  byId("resign-no").addEventListener("click", () => {
    byId("resign-confirm").hidden = true;
    drawControls();
    byId("resign-button").focus();
  });
  byId("resign-yes").addEventListener("click", () => {
    byId("resign-confirm").hidden = true;
    send({ type: "resign" });
    drawControls();
    byId("status").focus();
  });

  // --- the invitation ------------------------------------------------------------------

  const inviteLink = inputById("invite-link");
  inviteLink.value = `${location.origin}/games/${state.game.id}/`;
  const copyInvite = buttonById("copy-invite");
  copyInvite.addEventListener("click", async () => {
    let copied = false;
    try {
      await navigator.clipboard.writeText(inviteLink.value);
      copied = true;
    } catch {
      // No clipboard API (plain http, old browser): select the link for Ctrl+C.
      inviteLink.focus();
      inviteLink.select();
      copied = document.execCommand?.("copy") ?? false;
    }
    copyInvite.textContent = copied ? gettext("Copied!") : gettext("Press Ctrl+C");
    setTimeout(() => {
      copyInvite.textContent = gettext("Copy link");
    }, 2000);
  });

  /** The controls, the take-back and the rematch, for the state's G. */
  function draw() {
    drawControls();
    drawUndo();
    drawRematch();
  }

  return { draw, addChat, beep };
}
