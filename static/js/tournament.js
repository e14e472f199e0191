// A tournament's page, live: its lobby socket (/ws/lobby/?bell=1&tournament=<id>) hears
// {"type": "standings", "tournament": T} whenever a player joins or leaves, a round or a
// wave is paired, a game ends, or it starts or finishes; the standings, the pairings and
// the link to the viewer's own game in progress are drawn again from T; an arena's Pause
// button shows once it runs.

const root = document.getElementById("tournament");
const RECONNECT_FIRST_MS = 1000;
const RECONNECT_MAX_MS = 30000;

function cell(row, text) {
  const td = document.createElement("td");
  td.textContent = text;
  row.append(td);
  return td;
}

function drawStandings(data) {
  const body = document.querySelector("#standings tbody");
  body.replaceChildren();
  if (!data.players.length) {
    const row = body.insertRow();
    const td = cell(row, gettext("Nobody has joined yet."));
    td.colSpan = 5;
    td.className = "muted";
    return;
  }
  for (const player of data.players) {
    const row = body.insertRow();
    cell(row, String(player.rank));
    const name = cell(row, player.username);
    if (player.fire) {
      const fire = document.createElement("span");
      fire.className = "fire";
      fire.title = gettext("On fire");
      fire.textContent = " 🔥";
      name.append(fire);
    }
    cell(row, String(player.rating));
    cell(row, String(player.score));
    cell(
      row,
      Object.entries(player.tiebreaks)
        .map(([key, value]) => `${key} ${value}`)
        .join(", "),
    ).className = "tiebreaks";
  }
}

function drawPairings(data) {
  const box = document.getElementById("pairings");
  box.replaceChildren();
  const rounds = new Map();
  for (const pairing of data.pairings) {
    if (!rounds.has(pairing.round)) rounds.set(pairing.round, []);
    rounds.get(pairing.round).push(pairing);
  }
  if (!rounds.size) {
    const none = document.createElement("p");
    none.className = "muted";
    none.textContent = gettext("No pairings yet.");
    box.append(none);
    return;
  }
  for (const [number, pairings] of [...rounds.entries()].sort((a, b) => b[0] - a[0])) {
    const heading = document.createElement("h3");
    heading.textContent = interpolate(gettext("Round %(round)s"), { round: number }, true);
    const list = document.createElement("ul");
    list.className = "pairings";
    for (const pairing of pairings) {
      const item = document.createElement("li");
      if (pairing.game_id) {
        const link = document.createElement("a");
        link.href = `/games/${pairing.game_id}/`;
        link.textContent = `${pairing.black} – ${pairing.white}`;
        item.append(link);
      } else {
        item.textContent = `${pairing.black} `;
        const bye = document.createElement("span");
        bye.className = "muted";
        bye.textContent = gettext("bye");
        item.append(bye);
      }
      if (pairing.result && pairing.result !== "bye") {
        const result = document.createElement("span");
        result.className = "muted";
        result.textContent = ` ${pairing.result}`;
        item.append(result);
      }
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
  // An arena's Pause while it runs; nothing to join, pause or leave once it is over.
  const pause = document.getElementById("pause-form");
  if (pause) pause.hidden = data.status !== "running";
  const actions = document.getElementById("tournament-actions");
  if (actions) actions.hidden = data.status === "finished";
}

function draw(data) {
  drawStatus(data);
  drawStandings(data);
  drawPairings(data);
  drawYourGame(data);
}

function listen() {
  let attempts = 0;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(
      `${scheme}//${location.host}/ws/lobby/?bell=1&tournament=${root.dataset.id}`,
    );
    socket.addEventListener("open", () => {
      attempts = 0;
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "standings") draw(message.tournament);
    });
    socket.addEventListener("close", () => {
      const wait = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** attempts);
      attempts += 1;
      setTimeout(connect, wait * (0.75 + Math.random() / 2));
    });
  };
  connect();
}

if (root) {
  draw(JSON.parse(document.getElementById("tournament-data").textContent));
  listen();
}
