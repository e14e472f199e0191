// The players' clocks on the game page, ticking from G's `clock`.
//
// The server is the only clock: G says each side's time as of the moment it was
// built, and which one runs. Between two messages the page counts the running
// clock down from when G arrived; it moves on to the next byo-yomi period, or
// from Canadian main time to its first period, only to keep the display right.
// At zero it shows 0:00 and waits: only the server's `moved` ends the game.

/** @typedef {import("./types.js").Clock} Clock */
/** @typedef {import("./types.js").SideClock} SideClock */
/** @typedef {import("./types.js").Color} Color */

const LOW_MS = 10_000; // shown in red below this (the whole time left)
const WARN_MS = 30_000;

/** "4:05", "1:02:03", "2 d 3 h", "0:07.4" (tenths under ten seconds). @param {number} ms */
export function formatClock(ms) {
  const clamped = Math.max(0, ms);
  const days = Math.floor(clamped / 86_400_000);
  if (days >= 1) return `${days} d ${Math.floor((clamped % 86_400_000) / 3_600_000)} h`;
  const totalSeconds = Math.floor(clamped / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = String(totalSeconds % 60).padStart(2, "0");
  if (hours) return `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`;
  if (clamped < 10_000) return `0:0${totalSeconds}.${Math.floor((clamped % 1000) / 100)}`;
  return `${minutes}:${seconds}`;
}

/** The side's clock `spent` ms after G was built (the display's view of it).
 * @param {SideClock} side @param {Clock} clock @param {number} spent @returns {SideClock} */
function ticked(side, clock, spent) {
  let { remaining_ms: remaining, periods, stones, overtime } = side;
  const period = (clock.period_time ?? 0) * 1000;
  remaining -= spent;
  if (clock.system === "byoyomi") {
    while (remaining <= 0 && (periods ?? 0) > (overtime ? 1 : 0)) {
      if (overtime && periods !== null) periods -= 1;
      overtime = true;
      remaining += period;
    }
  } else if (clock.system === "canadian" && !overtime && remaining <= 0) {
    overtime = true;
    remaining += period;
  }
  return { remaining_ms: Math.max(0, remaining), periods, stones, overtime };
}

/** All the time the side has left before it runs out. @param {SideClock} side @param {Clock} clock */
function timeLeft(side, clock) {
  const period = (clock.period_time ?? 0) * 1000;
  if (clock.system === "byoyomi") {
    const periods = side.periods ?? 0;
    return side.remaining_ms + (side.overtime ? periods - 1 : periods) * period;
  }
  if (clock.system === "canadian" && !side.overtime) return side.remaining_ms + period;
  return side.remaining_ms;
}

/** "3 × 30 s" (byo-yomi periods left), "12 stones / 5:00" (Canadian), or "".
 * @param {SideClock} side @param {Clock} clock */
function detailText(side, clock) {
  if (clock.system === "byoyomi") {
    const periods = { periods: side.periods, seconds: clock.period_time };
    return interpolate(
      side.overtime ? gettext("%(periods)s × %(seconds)s s") : gettext("%(periods)s × %(seconds)s s after"),
      periods,
      true,
    );
  }
  if (clock.system === "canadian") {
    return side.overtime
      ? interpolate(ngettext("%(stones)s to play", "%(stones)s to play", side.stones ?? 0), { stones: side.stones }, true)
      : interpolate(
          gettext("then %(stones)s / %(time)s"),
          { stones: clock.stones, time: formatClock((clock.period_time ?? 0) * 1000) },
          true,
        );
  }
  if (clock.system === "fischer" && clock.increment) {
    return interpolate(gettext("+%(seconds)s s"), { seconds: clock.increment }, true);
  }
  return "";
}

/**
 * The two clocks of `page` (each `.player[data-color]` has a `.player-clock` with
 * `.clock-time` and `.clock-detail`). Call `show(game)` with every G.
 * @param {HTMLElement} page
 */
export function createClocks(page) {
  /** @type {Clock | null} */
  let clock = null;
  let receivedAt = 0;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let timer;

  function draw() {
    const spent = performance.now() - receivedAt;
    for (const row of /** @type {NodeListOf<HTMLElement>} */ (page.querySelectorAll(".player[data-color]"))) {
      const box = /** @type {HTMLElement} */ (row.querySelector(".player-clock"));
      if (!clock) {
        box.hidden = true;
        continue;
      }
      const color = /** @type {Color} */ (row.dataset.color);
      const runs = clock.running === color;
      const side = runs ? ticked(clock[color], clock, spent) : clock[color];
      const left = timeLeft(side, clock);
      box.hidden = false;
      box.classList.toggle("running", runs);
      box.classList.toggle("low", left < LOW_MS);
      box.classList.toggle("warn", left >= LOW_MS && left < WARN_MS);
      /** @type {HTMLElement} */ (box.querySelector(".clock-time")).textContent = formatClock(side.remaining_ms);
      /** @type {HTMLElement} */ (box.querySelector(".clock-detail")).textContent = detailText(side, clock);
    }
  }

  return {
    /** @param {import("./types.js").G} game */
    show(game) {
      clock = game.clock;
      receivedAt = performance.now();
      clearInterval(timer);
      draw();
      if (clock?.running) timer = setInterval(draw, 100);
    },
  };
}
