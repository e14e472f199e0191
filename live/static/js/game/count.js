// Go's count (G's `status` "scoring", docs/api/websocket.md, "Go's count"): the table of
// points, who accepted, Accept and Resume play. Marking a stone is the board's pick.

import { buttonById, byId, maybeById } from "../dom.js";
import { COLOR_NAME } from "../record.js";
import { COLORS, counted, otherColor, playerName } from "./state.js";

/** @typedef {import("../types.js").Color} Color */
/** @typedef {import("../types.js").CountDetail} CountDetail */
/** @typedef {import("./state.js").PageState} PageState */
/** @typedef {import("./socket.js").Socket} Socket */

/** @type {Record<"territory" | "area", [keyof CountDetail, string][]>} */
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

/** @param {PageState} state @param {Color} color */
const nameOf = (state, color) =>
  state.game.you === color ? gettext("You") : (playerName(state, color) ?? COLOR_NAME[color]);

/** "You have accepted; waiting for Bob.", "Ann has accepted: accept to end the game."
 * @param {PageState} state */
function acceptedText(state) {
  const { game } = state;
  const [who] = COLORS.filter((color) => game.accepted?.[color]);
  if (!who) return gettext("Neither player has accepted yet.");
  const other = otherColor(who);
  const names = { name: nameOf(state, who), other: nameOf(state, other) };
  if (game.you === other) return interpolate(gettext("%(name)s has accepted: accept to end the game."), names, true);
  if (game.you === who) return interpolate(gettext("You have accepted; waiting for %(other)s."), names, true);
  return interpolate(gettext("%(name)s has accepted; waiting for %(other)s."), names, true);
}

/**
 * @param {PageState} state
 * @param {{ send: Socket["send"] }} parts
 */
export function createCount(state, { send }) {
  maybeById("accept-button")?.addEventListener("click", () => send({ type: "accept", marking: state.game.marking }));
  maybeById("resume-button")?.addEventListener("click", () => send({ type: "resume", marking: state.game.marking }));

  /** The count's section, shown while G has a count (Go only). */
  function draw() {
    const { game } = state;
    const section = byId("count");
    if (!section) return;
    section.hidden = !counted(state);
    const detail = game.score_detail;
    if (!detail) return;
    /** @type {[keyof CountDetail, string][]} */
    const rows = [...COUNT_ROWS[game.scoring_method ?? "territory"], ["total", gettext("Total")]];
    /** @type {HTMLTableElement} */ (byId("count-table")).tBodies[0].replaceChildren(
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
    byId("count-help").hidden = !seated;
    byId("accepted").hidden = !scoring;
    byId("accepted").textContent = scoring ? acceptedText(state) : "";
    const accept = buttonById("accept-button");
    const youAccepted = Boolean(game.you && game.accepted?.[game.you]);
    accept.hidden = !seated;
    accept.disabled = youAccepted;
    accept.textContent = youAccepted ? gettext("Accepted") : gettext("Accept");
    byId("resume-button").hidden = !seated;
  }

  return { draw };
}
