"""The exact endgame solver: the final disc margin with best play by both sides.

The margin is what ``OthelloPosition.result()`` counts: the discs of the side
to move minus the other side's when neither can move (empty squares go to
nobody). The solver is a fail-soft negascout (principal variation search) on
bitboards with no evaluation at all:

- with many empties, the moves are tried fastest first: the move leaving the
  opponent the fewest replies, which finds cut-offs early (Edax and Egaroucid
  do the same);
- with few empties, the empty squares themselves are tried in turn (a square
  that flips nothing is not a move), which is cheaper than building the move list;
- the last empty square is counted without playing it out.

It reads the clock through ``check``, a function that raises to stop it.
"""

from __future__ import annotations

from collections.abc import Callable

from gamerules.othello import _flipped_bits, _geometry, _legal_bits

from .negascout import Child, negascout

__all__ = ["Solver"]

FASTEST_FIRST = 7
"""From this many empties up, the moves are sorted by the replies they leave."""
TABLE_SIZE = 1 << 17
"""The most positions the solver's table holds before it starts again."""
INFINITY = 1 << 16
"""More than any margin on any board."""
_UNKNOWN = (-INFINITY, INFINITY, 0)


class Solver:
    """The exact solver for one board size; ``nodes`` counts the positions visited."""

    def __init__(self, size: int, check: Callable[[], None]) -> None:
        self._geometry = _geometry(size)
        self._board = self._geometry.board
        self._around = _neighbours(self._geometry.board, self._geometry.up_shifts)
        self._check = check
        self._table: dict[tuple[int, int], tuple[int, int, int]] = {}
        """What each solved position's search proved: lower and upper bounds, best move."""
        self.nodes = 0

    def solve(self, own: int, other: int, alpha: int, beta: int) -> int:
        """The final margin of ``own`` (to move) over ``other`` with best play.

        Exact when it lies strictly between ``alpha`` and ``beta``; otherwise a
        bound on the same side of the window (fail-soft). Whatever ``check``
        raises goes through.
        """
        empty = self._board & ~(own | other)
        return self._solve(own, other, empty, empty.bit_count(), alpha, beta)

    def _solve(self, own: int, other: int, empty: int, empties: int, alpha: int, beta: int) -> int:
        """``solve``, told the ``empty`` squares and how many they are (``empties``)."""
        if empties < FASTEST_FIRST:
            return self._few(own, other, empty, empties, alpha, beta, False)
        self.nodes += 1
        self._check()
        key = (own, other)
        lower, upper, table_move = self._table.get(key, _UNKNOWN)
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
        geometry = self._geometry
        moves = _legal_bits(geometry, own, other)
        if not moves:
            if _legal_bits(geometry, other, own):
                return -self._solve(other, own, empty, empties, -beta, -alpha)
            return own.bit_count() - other.bit_count()
        children = self._children(own, other, moves, table_move)
        best, best_move = negascout(
            children,
            lambda child, low, high: (
                -self._solve(child[1], child[2], empty ^ child[0], empties - 1, -high, -low)
            ),
            alpha,
            beta,
        )
        table = self._table
        if len(table) >= TABLE_SIZE:
            table.clear()
        table[key] = (
            best if best > alpha else lower,
            best if best < beta else upper,
            best_move,
        )
        return best

    def _children(self, own: int, other: int, moves: int, first: int) -> list[Child]:
        """Each of ``moves`` and the position after it: ``first`` first, then fewest replies."""
        geometry = self._geometry
        ranked = []
        while moves:
            move = moves & -moves
            moves ^= move
            flipped = _flipped_bits(geometry, move, own, other)
            mine, theirs = own | move | flipped, other ^ flipped
            replies = -1 if move == first else _legal_bits(geometry, theirs, mine).bit_count()
            ranked.append((replies, (move, theirs, mine)))
        ranked.sort()
        return [child for _, child in ranked]

    def _few(
        self, own: int, other: int, empty: int, empties: int, alpha: int, beta: int, passed: bool
    ) -> int:
        """``_solve`` for a few empties; ``passed`` when the other side just passed."""
        self.nodes += 1
        if empties == 1:
            return self._last(own, other, empty)
        geometry, around = self._geometry, self._around
        best = None
        squares = empty
        while squares:
            move = squares & -squares
            squares ^= move
            # Only a square next to a disc of the other side can flip one.
            if not other & around[move]:
                continue
            flipped = _flipped_bits(geometry, move, own, other)
            if not flipped:
                continue
            score = -self._few(
                other ^ flipped,
                own | move | flipped,
                empty ^ move,
                empties - 1,
                -beta,
                -alpha,
                False,
            )
            if best is None or score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if best is not None:
            return best
        if passed:
            return own.bit_count() - other.bit_count()
        return -self._few(other, own, empty, empties, -beta, -alpha, True)

    def _last(self, own: int, other: int, square: int) -> int:
        """The final margin with one empty ``square`` left, ``own`` to move."""
        margin = own.bit_count() - other.bit_count()
        around = self._around[square]
        if other & around:
            flipped = _flipped_bits(self._geometry, square, own, other).bit_count()
            if flipped:
                return margin + 2 * flipped + 1
        if own & around:
            flipped = _flipped_bits(self._geometry, square, other, own).bit_count()
            if flipped:
                return margin - 2 * flipped - 1
        return margin


def _neighbours(board: int, shifts: tuple[int, ...]) -> dict[int, int]:
    """The squares next to each square of ``board`` (the key, a one-bit int)."""
    around = {}
    squares = board
    while squares:
        square = squares & -squares
        squares ^= square
        near = 0
        for shift in shifts:
            near |= (square << shift) | (square >> shift)
        around[square] = near & board
    return around
