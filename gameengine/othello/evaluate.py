"""A static evaluation of an Othello position, for the side to move, on any even size.

The score is an int; positive is good for the side to move. It weighs what
hand-made Othello evaluations weigh (corners, the squares next to an empty
corner, mobility, frontier discs, stable discs, edges), each term scaled so
that one weight serves every board size:

- every board has four corners, four X squares and eight C squares, so they
  count as they are;
- mobility and frontier count as a ratio, ``100 * (mine - theirs) / (mine + theirs + 2)``,
  since bigger boards have more of both;
- stable and edge discs count per disc, with a weight divided by the size, since a
  side of the board has ``size`` squares.

It stays strictly between ``-MAX_SCORE`` and ``MAX_SCORE``: the search ranks
every decided game above any evaluation.
"""

from __future__ import annotations

import functools

from gamerules.othello import _Geometry, _geometry

__all__ = ["MAX_SCORE", "Evaluator", "evaluator"]

MAX_SCORE = 10_000
"""An evaluation never reaches this (nor its negative), whatever the position and size."""

CORNER = 700
"""A corner held: it can never be flipped, and it anchors the edges."""
X_SQUARE = -250
"""A disc diagonally next to an empty corner: it opens the corner to the other side."""
C_SQUARE = -100
"""A disc beside an empty corner along the edge: a lesser risk than an X square."""
MOBILITY = 12
"""Per point of the ratio of legal moves: having choices and leaving few."""
FRONTIER = 6
"""Per point of the ratio of frontier discs (next to an empty square), fewer being better."""
STABLE = 400
"""Divided by the size, per stable disc (one that can never be flipped)."""
EDGE = 120
"""Divided by the size, per disc on an edge, away from the corners."""


def _ratio(mine: int, theirs: int) -> int:
    """``mine`` against ``theirs`` as an int in -100..100, the same on any board."""
    return 100 * (mine - theirs) // (mine + theirs + 2)


def _lines(geometry: _Geometry, shift: int) -> tuple[int, ...]:
    """Each whole line of the board along the direction ``shift``, as a bitboard."""
    board = geometry.board
    lines = []
    for index in geometry.bit_index.values():
        if index < shift or not board >> (index - shift) & 1:
            line = 0
            while board >> index & 1:
                line |= 1 << index
                index += shift
            lines.append(line)
    return tuple(lines)


class Evaluator:
    """The evaluation for one board size: ``evaluator(size)`` builds and keeps it."""

    def __init__(self, size: int) -> None:
        geometry = _geometry(size)
        self._board = geometry.board
        self._shifts = geometry.up_shifts
        last = size - 1
        corners = [(0, 0), (0, last), (last, 0), (last, last)]
        index = geometry.bit_index
        bit = {point: 1 << index[point] for point in index}
        self.corners = sum(bit[point] for point in corners)
        self.x_squares = tuple(
            (bit[(row, col)], bit[(abs(row - 1), abs(col - 1))]) for row, col in corners
        )
        self._c_squares = tuple(
            (bit[(row, col)], bit[(row, abs(col - 1))] | bit[(abs(row - 1), col)])
            for row, col in corners
        )
        rims = {0, last}
        border = sum(b for (row, col), b in bit.items() if row in rims or col in rims)
        self.edges = border & ~self.corners & ~sum(c for _, c in self._c_squares)
        # A square whose neighbour along an axis is off the board cannot be flipped
        # along that axis: for the horizontal axis that is the first and last column,
        # for the vertical one the first and last row, for the diagonals the whole border.
        left_right = sum(b for (_, col), b in bit.items() if col in rims)
        top_bottom = sum(b for (row, _), b in bit.items() if row in rims)
        east, south_west, south, south_east = geometry.up_shifts
        self._axes = tuple(
            (shift, rim, _lines(geometry, shift))
            for shift, rim in (
                (east, left_right),
                (south_west, border),
                (south, top_bottom),
                (south_east, border),
            )
        )
        self._stable_weight = STABLE // size
        self._edge_weight = EDGE // size

    def evaluate(self, own: int, other: int, own_moves: int, other_moves: int) -> int:
        """The score of the position for ``own`` (to move) against ``other``.

        ``own_moves`` and ``other_moves`` are the legal moves of each side as
        bitboards (the search has them already). The result lies strictly
        between ``-MAX_SCORE`` and ``MAX_SCORE``.
        """
        corners = self.corners
        score = CORNER * ((own & corners).bit_count() - (other & corners).bit_count())
        empty = self._board & ~(own | other)
        for corner, x_square in self.x_squares:
            if empty & corner:
                score += X_SQUARE * (bool(own & x_square) - bool(other & x_square))
        for corner, c_squares in self._c_squares:
            if empty & corner:
                score += C_SQUARE * (
                    (own & c_squares).bit_count() - (other & c_squares).bit_count()
                )
        score += MOBILITY * _ratio(own_moves.bit_count(), other_moves.bit_count())
        frontier = self._next_to(empty)
        score += FRONTIER * _ratio((other & frontier).bit_count(), (own & frontier).bit_count())
        edges = self.edges
        score += self._edge_weight * ((own & edges).bit_count() - (other & edges).bit_count())
        if (own | other) & corners:
            stable = self.stable(own, other)
            score += self._stable_weight * (
                (stable & own).bit_count() - (stable & other).bit_count()
            )
        # Only a board of stable discs nearly all of one colour could reach the
        # limit; clipped, it still ranks below a decided game.
        return max(-MAX_SCORE + 1, min(MAX_SCORE - 1, score))

    def _next_to(self, squares: int) -> int:
        """The squares of the board next to one of ``squares``, in any of the eight directions."""
        around = 0
        for shift in self._shifts:
            around |= (squares << shift) | (squares >> shift)
        return around & self._board

    def stable(self, own: int, other: int) -> int:
        """The discs of both sides that no move can ever flip (a subset of them).

        A disc is stable when, along each of the four axes through it, its line
        is full or one of its two neighbours on that axis is off the board or a
        stable disc of its colour. Grown from the corners until nothing changes.
        """
        occupied = own | other
        guarded = []
        for _, rim, lines in self._axes:
            full = rim
            for line in lines:
                if occupied & line == line:
                    full |= line
            guarded.append(full)
        return self._grow(own, guarded) | self._grow(other, guarded)

    def _grow(self, discs: int, guarded: list[int]) -> int:
        """The stable discs among ``discs``, given the squares ``guarded`` on each axis."""
        stable = 0
        while True:
            grown = discs
            for (shift, _, _), safe in zip(self._axes, guarded, strict=True):
                grown &= safe | (stable << shift) | (stable >> shift)
            if grown == stable:
                return stable
            stable = grown


@functools.cache
def evaluator(size: int) -> Evaluator:
    """The evaluator of a ``size`` x ``size`` board, built once per size."""
    return Evaluator(size)
