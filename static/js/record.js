// What the game page and the replay page both show of a game's record: the
// result in words and the move list (numbered rows, Black's move then White's).

/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").Kind} Kind */

/** @type {import("./types.js").BySeat<string>} */
export const COLOR_NAME = { black: pgettext("colour", "Black"), white: pgettext("colour", "White") };

/** The moves that end a game without touching the board. */
export const ENDINGS = new Set(["resign", "timeout", "forfeit"]);

/** A move in words after its player's name: "d3", "passes", "runs out of time".
 * @param {Move} move */
export function moveWords(move) {
  /** @type {Partial<Record<Move["action"], string>>} */
  const words = {
    pass: gettext("passes"),
    resign: gettext("resigns"),
    timeout: gettext("runs out of time"),
    forfeit: gettext("left the game"),
  };
  return words[move.action] ?? move.notation;
}

/**
 * "Black wins by 12 discs", "White wins by resignation", "Black wins on time",
 * "White wins: Black left the game", "Draw"; "" for no result.
 * @param {string | null} result @param {Kind} kind
 */
export function resultText(result, kind) {
  if (!result) return "";
  if (result === "Draw") return gettext("Draw");
  const [letter, margin] = result.split("+");
  const black = letter === "B";
  if (margin === "R") return black ? gettext("Black wins by resignation") : gettext("White wins by resignation");
  if (margin === "T") return black ? gettext("Black wins on time") : gettext("White wins on time");
  if (margin === "F") return black ? gettext("Black wins: White left the game") : gettext("White wins: Black left the game");
  const count = Number(margin);
  const won = kind === "go"
    ? black
      ? ngettext("Black wins by %(margin)s point", "Black wins by %(margin)s points", count)
      : ngettext("White wins by %(margin)s point", "White wins by %(margin)s points", count)
    : black
      ? ngettext("Black wins by %(margin)s disc", "Black wins by %(margin)s discs", count)
      : ngettext("White wins by %(margin)s disc", "White wins by %(margin)s discs", count);
  return interpolate(won, { margin }, true);
}

/**
 * The move list `list` (an <ol>, possibly already filled by the server) and its
 * "No moves yet." note `empty`. `makeCell(move)` makes the element of one move
 * (a <span>, an <a> ...). Moves are added as played, and removed when taken back.
 * @param {HTMLElement} list @param {HTMLElement} empty @param {(move: Move) => HTMLElement} makeCell
 */
export function createMoveList(list, empty, makeCell) {
  let listed = list.querySelectorAll(".move[data-ply]").length;
  /** @type {HTMLElement | null} */
  let current = list.querySelector(".move.current");

  /**
   * Append `move` (an M): it gets its notation, classes `move <action>` and
   * `data-ply`. Black opens a numbered row; a white move fills it, or opens its
   * own row when Black's half is missing (after a resignation out of turn).
   * @param {Move} move
   */
  function append(move) {
    let row = list.lastElementChild;
    if (move.color === "black" || !row || row.children.length > 2) {
      row = document.createElement("li");
      const number = document.createElement("span");
      number.className = "move-number";
      number.textContent = `${Math.ceil(move.ply / 2)}.`;
      row.append(number);
      if (move.color === "white") row.append(document.createElement("span"));
      list.append(row);
    }
    const cell = makeCell(move);
    cell.classList.add("move", move.action);
    cell.dataset.ply = String(move.ply);
    cell.textContent = move.notation;
    row.append(cell);
    listed = move.ply;
    empty.hidden = true;
  }

  return {
    /** Show exactly `moves` (all the game's, in order): append those not listed yet,
     * remove those listed beyond (a move taken back).
     * @param {Move[]} moves */
    extend(moves) {
      if (listed > moves.length) {
        for (const cell of /** @type {NodeListOf<HTMLElement>} */ (list.querySelectorAll(".move[data-ply]"))) {
          if (Number(cell.dataset.ply) > moves.length) cell.remove();
        }
        for (const row of [...list.children]) {
          if (!row.querySelector(".move[data-ply]")) row.remove();
        }
        listed = moves.length;
        empty.hidden = listed > 0;
      }
      for (const move of moves.slice(listed)) append(move);
    },

    /** Mark the move of `ply` as the one shown (none for 0); returns its cell or null.
     * @param {number} ply */
    select(ply) {
      current?.classList.remove("current");
      current = ply ? list.querySelector(`.move[data-ply="${ply}"]`) : null;
      current?.classList.add("current");
      return current;
    },
  };
}
