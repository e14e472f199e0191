// The move list of the game and replay pages: numbered rows, Black's move then White's.

/**
 * Append `move` (an M) to the list `list` (an <ol>) as `cell` (a <span>, an <a> ...),
 * which gets the move's notation, classes `move <action>` and `data-ply`. Black
 * opens a numbered row; a white move fills it, or opens its own row when Black's
 * half is missing (after a resignation out of turn). Returns the cell.
 */
export function appendMove(list, move, cell) {
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
  cell.classList.add("move", move.action);
  cell.dataset.ply = move.ply;
  cell.textContent = move.notation;
  row.append(cell);
  return cell;
}
