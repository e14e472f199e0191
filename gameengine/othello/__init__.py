"""The computer's Othello: ``choose_move(position, level=...)`` on any even board size.

>>> from gamerules.othello import OthelloPosition
>>> start = OthelloPosition.start(8)
>>> choose_move(start, level=5, seed=1) in start.legal_moves()
True

Three parts, each measured and replaceable on its own, as in Edax and Egaroucid:
``search`` (negascout, iterative deepening, transposition table, move ordering),
``evaluate`` (the static evaluation) and ``endgame`` (the exact solver); the
negascout loop over one position's moves (``negascout``) serves both searches.
They work on the rules module's bitboards (``OthelloPosition.bitboards()``) and
its move generation, so the engine and the rules never disagree on a move.

Levels trade depth and time. ``depth`` is the deepest midgame search; the
search goes one move deeper at a time and stops at that depth or when the
``seconds`` run out, whichever comes first, answering with the deepest search
it completed (depth 1 always completes). With ``endgame`` empty squares or
fewer the game is solved exactly (win, loss or draw and the margin) if the
time allows. ``noise`` is the spread (a standard deviation, in evaluation
units: a corner is worth 700) of the random error added to every move's
score, so that the weak levels make mistakes on purpose:

=====  =====  =======  =======  =====
level  depth  seconds  endgame  noise
=====  =====  =======  =======  =====
1      1      0.05     0        2500
2      1      0.05     4        1000
3      2      0.1      6        500
4      2      0.1      8        200
5      3      0.15     8        0
6      4      0.25     10       0
7      5      0.35     10       0
8      6      0.5      12       0
9      8      0.75     12       0
10     any    1.0      14       0
=====  =====  =======  =======  =====

Level 10 has no depth limit: only its time bounds it. On bigger boards the
same seconds buy less depth: the budget holds on every size.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from gamerules.base import Color, Point
from gamerules.othello import OthelloPosition, _geometry

from .search import Budget, ScoredMove, Search

__all__ = ["LEVELS", "Level", "choose_move"]

ENDGAME_PREFACE = 4
"""Midgame depths searched before the exact solve: a move in hand if it times out."""


@dataclass(frozen=True, slots=True)
class Level:
    """How hard the computer plays: see the table in the module docstring."""

    depth: int
    seconds: float
    endgame: int
    noise: float


UNLIMITED = 1 << 16
"""More depth than any board has empty squares: the time alone limits level 10."""

LEVELS: Mapping[int, Level] = MappingProxyType(
    {
        1: Level(depth=1, seconds=0.05, endgame=0, noise=2500),
        2: Level(depth=1, seconds=0.05, endgame=4, noise=1000),
        3: Level(depth=2, seconds=0.1, endgame=6, noise=500),
        4: Level(depth=2, seconds=0.1, endgame=8, noise=200),
        5: Level(depth=3, seconds=0.15, endgame=8, noise=0),
        6: Level(depth=4, seconds=0.25, endgame=10, noise=0),
        7: Level(depth=5, seconds=0.35, endgame=10, noise=0),
        8: Level(depth=6, seconds=0.5, endgame=12, noise=0),
        9: Level(depth=8, seconds=0.75, endgame=12, noise=0),
        10: Level(depth=UNLIMITED, seconds=1.0, endgame=14, noise=0),
    }
)
"""The settings of each level, read-only: the table in the module docstring."""


def choose_move(
    position: OthelloPosition,
    *,
    level: int,
    seed: int | None = None,
    time_limit: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Point | None:
    """The point the computer plays for ``position.to_move``, or None when it must pass.

    ``level`` (1..10, see the table above) sets the depth, the time and the
    deliberate mistakes; ``time_limit`` (seconds) caps the level's time;
    ``clock`` is read for the time (tests pass a fake one). The same ``seed``
    gives the same move whenever the search is not cut short by the clock;
    None draws a fresh one.

    Raises ``ValueError`` for a level outside 1..10, a negative time limit or a
    position where the game is over.
    """
    settings = _level(level)
    if time_limit is not None and time_limit < 0:
        raise ValueError(f"the time limit must not be negative, not {time_limit!r}")
    if position.is_over:
        raise ValueError("the game is over: there is no move to choose")
    legal = position.legal_moves()
    if len(legal) <= 1:
        return legal[0] if legal else None
    seconds = settings.seconds if time_limit is None else min(settings.seconds, time_limit)
    search = Search(position.size, Budget(clock, seconds))
    black, white = position.bitboards()
    own, other = (black, white) if position.to_move is Color.BLACK else (white, black)
    empties = position.size * position.size - (black | white).bit_count()
    noisy = settings.noise > 0
    scored = search.iterate(own, other, _depths(settings, empties), every_score=noisy)
    move = _pick(scored, settings.noise, random.Random(seed)) if noisy else scored[0].move
    return _geometry(position.size).points[move.bit_length() - 1]


def _level(level: object) -> Level:
    """The settings of ``level``; raises ``ValueError`` unless it is an int in 1..10."""
    if type(level) is not int or level not in LEVELS:
        raise ValueError(f"the level is an int from 1 to 10, not {level!r}")
    return LEVELS[level]


def _depths(level: Level, empties: int) -> list[int]:
    """The depths to search in turn with ``empties`` empty squares on the board.

    Searching as deep as the empties is solving the game exactly (the search
    hands such nodes to the solver); when the level solves this endgame, a few
    shallow depths come first, so that a solve cut short still leaves a move.
    """
    deepest = min(level.depth, empties)
    if empties > level.endgame:
        return list(range(1, deepest + 1))
    return [*range(1, min(deepest, ENDGAME_PREFACE, empties - 1) + 1), empties]


def _pick(scored: list[ScoredMove], noise: float, rng: random.Random) -> int:
    """The move whose score plus a random error of spread ``noise`` is highest."""
    return max(scored, key=lambda entry: entry.score + rng.gauss(0.0, noise)).move
