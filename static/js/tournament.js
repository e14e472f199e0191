// A tournament's page, live: its lobby socket (/ws/lobby/?bell=1&tournament=<id>) hears
// {"type": "standings", "tournament": T} whenever a player joins or leaves, a round or a
// wave is paired, a game ends, or it starts or finishes, and {"type": "chat"} for each
// line of its chat. From T the page draws again its status and round, the cross-table
// (Swiss, McMahon, round robin: a column a round, the tiebreaks by name) or the score
// sheets (arena), the pairings, the link to the viewer's own game and the chat; a
// countdown ticks to the start (and an arena's end); an arena's Pause button shows once
// it runs. The server draws the same tables first (tournaments/views.py). Being taken to
// one's game when paired (`game_ready`) is every page's: game_ready.js, through the bell.

import { formatClock } from "./clock.js";

const root = document.getElementById("tournament");
const RECONNECT_FIRST_MS = 1000;
const RECONNECT_MAX_MS = 30000;
/** A round's result in the cross-table; a game being played is "…". */
const MARKS = { win: "1", loss: "0", draw: "½", forfeit_win: "+", forfeit_loss: "−" };
const COLOURS = { black: "●", white: "○" };
const SCORES = { black: "1–0", white: "0–1", draw: "½–½" };
/** @type {Intl.DateTimeFormatOptions} */
const CHAT_TIME = { hour: "2-digit", minute: "2-digit" };
/** @type {Intl.DateTimeFormatOptions} */
const DATE_TIME = { dateStyle: "medium", timeStyle: "short" };

function element(tag, properties = {}, ...children) {
  const made = Object.assign(document.createElement(tag), properties);
  made.append(...children);
  return made;
}

function profileLink(username) {
  return element("a", { href: `/players/${encodeURIComponent(username)}/`, textContent: username });
}

function roundTitle(line) {
  const values = { round: line.round, opponent: line.opponent };
  const titles = {
    win: gettext("Round %(round)s: won against %(opponent)s"),
    loss: gettext("Round %(round)s: lost to %(opponent)s"),
    draw: gettext("Round %(round)s: drew with %(opponent)s"),
    forfeit_win: gettext("Round %(round)s: won, %(opponent)s never made a first move"),
    forfeit_loss: gettext("Round %(round)s: lost without a first move, against %(opponent)s"),
    bye: gettext("Round %(round)s: a bye"),
  };
  const title = titles[line.result] ?? gettext("Round %(round)s: playing %(opponent)s");
  return interpolate(title, values, true);
}

/** The cross-table's cell of one round of a player's sheet (null: not paired then). */
function roundCell(line, games, username) {
  const td = element("td", { className: "round" });
  if (!line) return td;
  td.dataset.result = line.result ?? "playing";
  const link = element("a", { title: roundTitle(line) });
  if (line.result === "bye") {
    link.append(element("span", { className: "mark", textContent: gettext("bye") }));
  } else {
    link.append(
      element("span", { className: "mark", textContent: MARKS[line.result] ?? "…" }),
      " ",
      element("span", { className: "colour", textContent: COLOURS[line.color] }),
      element("span", { className: "opponent", textContent: line.opponent }),
    );
    const game = games.get(`${line.round}:${username}`);
    if (game) link.href = `/games/${game}/`;
  }
  td.append(link);
  return td;
}

/** An arena's score sheet: each game's points, in order, linked to the game. */
function sheetCell(sheet) {
  const td = element("td", { className: "sheet" });
  for (const line of sheet) {
    const words = [];
    if (line.fire) words.push(gettext("On fire: double points"));
    if (line.berserk) words.push(gettext("Berserk"));
    const link = element("a", {
      href: `/games/${line.game}/`,
      className: "sheet-game",
      textContent: line.points === null ? "…" : String(line.points),
    });
    link.classList.toggle("on-fire", line.fire);
    link.classList.toggle("berserk", line.berserk);
    if (words.length) link.title = words.join(", ");
    td.append(link);
  }
  return td;
}

function drawHead(table, rounds) {
  const row = table.tHead.rows[0];
  for (const old of row.querySelectorAll("th.round")) old.remove();
  const before = row.querySelector("th.tiebreak");
  for (let number = 1; number <= rounds; number += 1) {
    const th = element("th", {
      scope: "col",
      className: "round",
      textContent: interpolate(gettext("R%(round)s"), { round: number }, true),
    });
    row.insertBefore(th, before);
  }
}

function drawStandings(data) {
  const table = /** @type {HTMLTableElement} */ (document.getElementById("standings"));
  const arena = data.system === "arena";
  const order = [.../** @type {NodeListOf<HTMLElement>} */ (table.querySelectorAll("th.tiebreak"))].map((th) => th.dataset.key);
  const games = new Map();
  for (const pairing of data.pairings) {
    for (const name of [pairing.black, pairing.white]) {
      if (name && pairing.game_id) games.set(`${pairing.round}:${name}`, pairing.game_id);
    }
  }
  const rounds = arena ? 0 : Math.max(0, ...data.players.flatMap((player) => player.sheet.map((line) => line.round)));
  if (!arena) drawHead(table, rounds);
  const body = table.tBodies[0];
  body.replaceChildren();
  if (!data.players.length) {
    const td = element("td", { className: "muted", colSpan: 5, textContent: gettext("Nobody has joined yet.") });
    body.insertRow().append(td);
    return;
  }
  for (const player of data.players) {
    const row = body.insertRow();
    row.append(element("td", { className: "place", textContent: String(player.rank) }));
    const name = element("th", { scope: "row", className: "name" }, profileLink(player.username));
    if (player.fire) name.append(" ", element("span", { className: "fire", title: gettext("On fire"), textContent: "🔥" }));
    row.append(name);
    row.append(element("td", { textContent: String(player.rating) }));
    row.append(element("td", { className: "score", textContent: String(player.score) }));
    if (arena) {
      row.append(sheetCell(player.sheet));
      row.append(element("td", { textContent: player.performance === null ? "–" : String(player.performance) }));
      continue;
    }
    const byRound = new Map(player.sheet.map((line) => [line.round, line]));
    for (let number = 1; number <= rounds; number += 1) {
      row.append(roundCell(byRound.get(number), games, player.username));
    }
    for (const key of order) {
      row.append(element("td", { className: "tiebreak", textContent: String(player.tiebreaks[key] ?? "") }));
    }
  }
  showScrollHint();
}

function drawPairings(data) {
  const box = document.getElementById("pairings");
  box.replaceChildren();
  const forfeits = new Set();
  for (const player of data.players) {
    for (const line of player.sheet) {
      if (String(line.result).startsWith("forfeit")) forfeits.add(`${line.round}:${player.username}`);
    }
  }
  const rounds = new Map();
  for (const pairing of data.pairings) {
    if (!rounds.has(pairing.round)) rounds.set(pairing.round, []);
    rounds.get(pairing.round).push(pairing);
  }
  if (!rounds.size) {
    box.append(element("p", { className: "muted", textContent: gettext("No pairings yet.") }));
    return;
  }
  for (const [number, pairings] of [...rounds.entries()].sort((a, b) => b[0] - a[0])) {
    const heading = element("h3", {
      textContent: interpolate(gettext("Round %(round)s"), { round: number }, true),
    });
    const list = element("ul", { className: "pairings" });
    for (const pairing of pairings) {
      const item = element("li");
      if (pairing.game_id) {
        item.append(element("a", { href: `/games/${pairing.game_id}/`, textContent: `${pairing.black} – ${pairing.white}` }));
      } else {
        item.append(`${pairing.black} `, element("span", { className: "muted", textContent: gettext("bye") }));
      }
      let score = SCORES[pairing.result] ?? "";
      if (score && forfeits.has(`${pairing.round}:${pairing.black}`)) {
        score = interpolate(gettext("%(score)s, a forfeit"), { score }, true);
      }
      if (score) item.append(" ", element("span", { className: "muted", textContent: score }));
      list.append(item);
    }
    box.append(heading, list);
  }
}

function drawYourGame(data) {
  const me = root.dataset.username;
  const box = document.getElementById("your-game");
  const mine = me
    ? data.pairings.find(
        (pairing) =>
          pairing.game_id && pairing.result === null && (pairing.black === me || pairing.white === me),
      )
    : null;
  box.hidden = !mine;
  if (mine) box.querySelector("a").href = `/games/${mine.game_id}/`;
}

function drawStatus(data) {
  const status = document.getElementById("tournament-status");
  const words = {
    upcoming: gettext("Upcoming"),
    running: gettext("Running"),
    finished: gettext("Finished"),
  };
  status.dataset.status = data.status;
  status.textContent = words[data.status] || data.status;
  const round = document.getElementById("tournament-round");
  if (data.system !== "arena" && data.round) {
    const total = Number(root.dataset.rounds) || 0;
    const said = total
      ? interpolate(gettext("Round %(round)s of %(rounds)s"), { round: data.round, rounds: total }, true)
      : interpolate(gettext("Round %(round)s"), { round: data.round }, true);
    round.textContent = ` · ${said}`;
  }
  countdown.data = data;
  tick();
  // An arena's Pause while it runs; nothing to join, pause or leave once it is over.
  const pause = document.getElementById("pause-form");
  if (pause) pause.hidden = data.status !== "running";
  for (const id of ["tournament-actions", "paired-note"]) {
    const box = document.getElementById(id);
    if (box) box.hidden = data.status === "finished";
  }
}

// The countdown to the start, then (an arena) to the end, from the browser's clock.
const countdown = { data: null, box: document.getElementById("countdown") };

function tick() {
  const { data, box } = countdown;
  if (!data || !box) return;
  const now = Date.now();
  let text = "";
  if (data.status === "upcoming") {
    const left = Date.parse(data.starts_at) - now;
    text = left > 0 ? interpolate(gettext("Starts in %(time)s"), { time: formatClock(left) }, true) : gettext("Starting…");
  } else if (data.status === "running" && data.system === "arena" && data.ends_at) {
    const left = Date.parse(data.ends_at) - now;
    text = left > 0 ? interpolate(gettext("Ends in %(time)s"), { time: formatClock(left) }, true) : gettext("The last games are ending…");
  }
  box.textContent = text ? ` · ${text}` : "";
  box.hidden = !text;
}

// The chat: T's lines, then each line as it is said.
function chatLine(line) {
  const at = new Date(line.at);
  return element(
    "li",
    { className: "chat-message" },
    element("time", {
      className: "chat-time muted",
      dateTime: line.at,
      textContent: at.toLocaleTimeString(document.documentElement.lang, CHAT_TIME),
    }),
    " ",
    Object.assign(profileLink(line.username), { className: "chat-name" }),
    element("span", { className: "chat-text", textContent: line.text }),
  );
}

function drawChat(lines) {
  const list = document.getElementById("tournament-chat-list");
  list.replaceChildren(...lines.map(chatLine));
  list.scrollTop = list.scrollHeight;
}

function addChat(line) {
  const list = document.getElementById("tournament-chat-list");
  list.append(chatLine(line));
  list.scrollTop = list.scrollHeight;
}

function draw(data) {
  drawStatus(data);
  drawStandings(data);
  drawPairings(data);
  drawYourGame(data);
  drawChat(data.chat);
}

// A table wider than its box says so (a phone's cross-table): the hint shows while it
// does not fit.
function showScrollHint() {
  const box = document.getElementById("standings-box");
  const hint = document.getElementById("standings-hint");
  if (box && hint) hint.hidden = box.scrollWidth <= box.clientWidth + 1;
}

// The times in the browser's zone and the page's language.
function localTimes() {
  for (const time of /** @type {NodeListOf<HTMLTimeElement>} */ (root.querySelectorAll("time.local-time"))) {
    time.textContent = new Date(time.dateTime).toLocaleString(document.documentElement.lang, DATE_TIME);
  }
}

let socket = null;

async function reread() {
  try {
    const answer = await fetch(`/tournaments/${root.dataset.id}.json`, { headers: { Accept: "application/json" } });
    if (answer.ok) draw(await answer.json());
  } catch {
    // offline again: the next connection reads it
  }
}

function listen() {
  let attempts = 0;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(`${scheme}//${location.host}/ws/lobby/?bell=1&tournament=${root.dataset.id}`);
    socket.addEventListener("open", () => {
      attempts = 0;
      root.dataset.live = "1";
      // What changed between the page's rendering (or the socket's last close) and now.
      reread();
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "standings") draw(message.tournament);
      else if (message.type === "chat") addChat(message);
      else if (message.type === "error") chatError(message.message);
    });
    socket.addEventListener("close", () => {
      delete root.dataset.live;
      const wait = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** attempts);
      attempts += 1;
      setTimeout(connect, wait * (0.75 + Math.random() / 2));
    });
  };
  connect();
}

function chatError(text) {
  const box = document.getElementById("tournament-chat-error");
  if (!box) return;
  box.textContent = text;
  box.hidden = false;
}

function chatForm() {
  const form = /** @type {HTMLFormElement & { elements: { text: HTMLInputElement } } | null} */ (
    document.getElementById("tournament-chat-form")
  );
  if (!form) return;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = form.elements.text;
    const text = input.value.trim();
    if (!text || socket?.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ type: "chat", text }));
    input.value = "";
    document.getElementById("tournament-chat-error").hidden = true;
  });
}

if (root) {
  localTimes();
  draw(JSON.parse(document.getElementById("tournament-data").textContent));
  setInterval(tick, 1000);
  new ResizeObserver(showScrollHint).observe(document.getElementById("standings-box"));
  chatForm();
  listen();
}
