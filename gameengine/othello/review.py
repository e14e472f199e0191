"""The engine's verdict on each position of a stored Othello game, for the review.

``Analyser(size).verdict(position)`` says, from Black's side, what the position
is worth in discs (the final disc difference, Black minus White, empty squares
counting for nobody) under best play as far as the engine sees, the best move
and the line that follows (up to ``PV_LENGTH`` moves):

- with ``EXACT_EMPTIES`` empty squares or fewer the position is solved exactly
  (``exact``): the value is the perfect-play result and the move one of the
  perfect moves, whatever the time it takes;
- earlier positions get the search of level 10, the strongest the computer
  plays (``LEVELS[10]``: iterative deepening with no depth limit for
  ``MIDGAME_SECONDS``); its score, in evaluation units, is turned into discs
  by ``UNITS_PER_DISC``, measured against exact solves (README, "Review").

>>> from gamerules.othello import OthelloPosition
>>> verdict = Analyser(4).verdict(OthelloPosition.start(4))
>>> verdict.exact, verdict.eval
(True, -8)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from gamerules.base import Color, Move, Point
from gamerules.othello import OthelloPosition, _geometry

from . import LEVELS, _depths
from .search import EXACT, Budget, Search

__all__ = ["EXACT_EMPTIES", "PV_LENGTH", "Analyser", "Step", "Verdict"]

EXACT_EMPTIES = 14
"""Positions with this many empty squares or fewer are solved exactly."""
MIDGAME_SECONDS = LEVELS[10].seconds
"""The search time of an earlier position: level 10's."""
UNITS_PER_DISC = 90
"""Evaluation units per disc of final margin (measured: README, "Review")."""
PV_LENGTH = 10
"""The most moves of the line shown after each position."""

Step = Point | str
"""A move of a line: a point, or ``"pass"``."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a position is worth from Black's side (``eval``), its best move and its line.

    ``best`` is None once the game is over, ``"pass"`` when the side to move
    must pass; ``pv`` starts with ``best``.
    """

    eval: float
    exact: bool
    best: Step | None
    pv: tuple[Step, ...]


class Analyser:
    """The verdicts on the positions of one board size.

    The exact solver's tables are kept from one position to the next, so that
    the positions of one game's endgame share what the first solve learnt.
    ``clock`` times the midgame searches (tests pass a fake one);
    ``exact_empties`` (at most ``EXACT_EMPTIES``) is where exact solving starts.
    """

    def __init__(
        self,
        size: int,
        *,
        seconds: float = MIDGAME_SECONDS,
        exact_empties: int = EXACT_EMPTIES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.size = size
        self._seconds = seconds
        self._exact_empties = exact_empties
        self._clock = clock
        self._points = _geometry(size).points
        # Never out of time: an exact solve runs to its end.
        self._exact = Search(size, Budget(clock, math.inf))

    def verdict(self, position: OthelloPosition) -> Verdict:
        """The verdict on ``position`` (of this analyser's size)."""
        if position.is_over:
            counts = position.disc_counts()
            return Verdict(counts[Color.BLACK] - counts[Color.WHITE], True, None, ())
        if position.must_pass:
            after = self.verdict(position.passed())
            return Verdict(after.eval, after.exact, "pass", ("pass", *after.pv)[:PV_LENGTH])
        own, other = _sides(position)
        empties = self.size * self.size - (own | other).bit_count()
        if empties <= self._exact_empties:
            move, margin = self._solve(own, other, empties)
            pv = self._exact_line(position, move)
            return Verdict(_black(position, margin), True, self._point(move), pv)
        search = Search(self.size, Budget(self._clock, self._seconds))
        best = search.iterate(own, other, _depths(LEVELS[10], empties), every_score=False)[0]
        if abs(best.score) >= EXACT:
            value: float = best.score // EXACT
        else:
            value = round(best.score / UNITS_PER_DISC, 1)
        line = [self._step(move) for move in search.line(own, other, best.move, PV_LENGTH)]
        return Verdict(_black(position, value), False, line[0], tuple(line))

    def _solve(self, own: int, other: int, empties: int) -> tuple[int, int]:
        """The perfect move of ``own`` (to move, with a move) and the final margin it leads to."""
        best = self._exact.iterate(own, other, [empties], every_score=False)[0]
        return best.move, best.score // EXACT

    def _exact_line(self, position: OthelloPosition, first: int) -> tuple[Step, ...]:
        """The perfect line from ``position`` starting with the perfect move ``first``."""
        line: list[Step] = []
        move: int | None = first
        while len(line) < PV_LENGTH and not position.is_over:
            if position.must_pass:
                line.append("pass")
                position = position.passed()
                continue
            if move is None:
                own, other = _sides(position)
                move, _ = self._solve(own, other, self.size**2 - (own | other).bit_count())
            point = self._point(move)
            line.append(point)
            position = position.play(Move.place(point))[0]
            move = None
        return tuple(line)

    def _point(self, move: int) -> Point:
        """The point of the one-bit ``move``."""
        return self._points[move.bit_length() - 1]

    def _step(self, move: int) -> Step:
        """The point of the one-bit ``move``, or ``"pass"`` for 0."""
        return self._point(move) if move else "pass"


def _sides(position: OthelloPosition) -> tuple[int, int]:
    """The discs of the side to move, then the other side's, as bitboards."""
    black, white = position.bitboards()
    return (black, white) if position.to_move is Color.BLACK else (white, black)


def _black(position: OthelloPosition, value: float) -> float:
    """``value`` for the side to move of ``position``, from Black's side."""
    return value if position.to_move is Color.BLACK else -value
