"""Accuracy, as lichess shows it, from the review's losses in discs or points.

Lichess (lila ``modules/analyse/AccuracyPercent.scala``) turns each evaluation into a
win percentage, gives every move an accuracy from the mover's win percentage before and
after it, and averages a player's moves. Our evaluations are discs (Othello) and points
(Go), not win rates, so ``win_percent`` maps them onto lichess's scale first: a logistic
whose steepness makes a loss of the size our judgements call a mistake, from an even
position, cost 10 points of win percentage: what lichess calls a mistake (a drop of 0.2 in
its winning chances, -1..1). An inaccuracy then costs 5 points, as lichess's, and a
blunder 19 (lichess: 15). docs/engines/review.md says why; gameengine.review says what
a mistake is.

Every value here is from the mover's side (positive: the mover ahead). On 8x8 Othello a
mistake is 8 discs:

>>> round(win_percent(0, mistake=8), 1)
50.0
>>> round(win_percent(-8, mistake=8), 1)
40.0
>>> round(accuracy_of_drop(50 - win_percent(-8, mistake=8)), 1)
64.6
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gamerules.base import Color

__all__ = ["Played", "accuracy_of_drop", "game_accuracy", "win_percent"]

MISTAKE_DROP = 10.0
"""The win percentage a mistake-sized loss costs from an even position (lichess's mistake:
0.2 of winning chances on -1..1)."""


@dataclass(frozen=True)
class Played:
    """One move of a review, for its mover's accuracy.

    ``before`` is the eval of the position before the move (the best move's) from the
    mover's side, ``loss`` what the move cost the mover (>= 0), ``counted`` false for a
    move that was no choice (Othello's automatic pass): it keeps its place in the game's
    sequence but not in its mover's average.
    """

    mover: Color
    before: float
    loss: float
    counted: bool = True


def win_percent(value: float, *, mistake: float) -> float:
    """The expected score, 0..100, of the side for which the eval is ``value`` (discs or
    points), when a loss of ``mistake`` is what the review calls a mistake:
    ``100 / (1 + exp(-k * value))`` with ``k = ln(1.5) / mistake``, so that
    ``win_percent(-mistake) == 40``."""
    steepness = math.log((50 + MISTAKE_DROP) / (50 - MISTAKE_DROP)) / mistake
    return 100 / (1 + math.exp(-steepness * value))


def accuracy_of_drop(drop: float) -> float:
    """Lichess's accuracy of a move that lowered its mover's win percentage by ``drop``
    points: ``103.1668 * exp(-0.04354 * drop) - 3.1669``, plus 1 for the analysis's
    uncertainty, within 0..100; 100 for no drop.

    >>> accuracy_of_drop(0)
    100.0
    >>> round(accuracy_of_drop(50), 1)
    9.5
    """
    if drop <= 0:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * drop) - 3.166924740191411 + 1
    return max(0.0, min(100.0, raw))


def game_accuracy(
    moves: Sequence[Played], win: Callable[[float], float]
) -> dict[Color, int | None]:
    """Each player's accuracy over ``moves``, 0..100 rounded, None for a player with no
    counted move: lichess's ``gameAccuracy``, ``win`` turning an eval of the mover's side
    into a win percentage (``win_percent`` at the game's mistake; lichess's own of
    centipawns in the tests). It is the mean of two means of the moves' accuracies: one
    weighted by how much the game swung around each move (the standard deviation of the
    win percentages in a window of positions, within 0.5..12: calm positions count
    less), and the harmonic mean (each accuracy at least 1), which one bad move pulls
    down hard.

    The positions' values are the first move's ``before``, then after each move its
    ``before - loss`` (the played move's value for its mover: for Go the engine values
    it apart from the next position's eval, which has the reply's best move in it).
    """
    if not moves:
        return dict.fromkeys(Color)
    wins: list[float] = []
    by_mover: dict[Color, list[tuple[float, float]]] = {color: [] for color in Color}
    accuracies = []
    for move in moves:
        # Every position from Black's side, for the swings.
        sign = 1 if move.mover is Color.BLACK else -1
        before, after = win(move.before), win(move.before - move.loss)
        if not wins:
            wins.append(before if sign > 0 else 100 - before)
        wins.append(after if sign > 0 else 100 - after)
        accuracies.append(accuracy_of_drop(before - after))
    for move, accuracy, weight in zip(moves, accuracies, _volatility(wins), strict=True):
        if move.counted:
            by_mover[move.mover].append((accuracy, weight))
    return {mover: _mean(scored) for mover, scored in by_mover.items()}


def _volatility(wins: Sequence[float]) -> list[float]:
    """One weight per move: the population standard deviation of the win percentages in
    the window of positions ending after it (lichess: windows of a tenth of the game, 2 to
    8 positions; the first moves share the first window), within 0.5..12."""
    moves = len(wins) - 1
    size = min(max(moves // 10, 2), 8)
    windows = [wins[:size]] * (min(size, len(wins)) - 2)
    windows += [wins[start : start + size] for start in range(max(len(wins) - size, 0) + 1)]
    return [min(max(statistics.pstdev(window), 0.5), 12) for window in windows[:moves]]


def _mean(scored: Sequence[tuple[float, float]]) -> int | None:
    if not scored:
        return None
    weighted = sum(accuracy * weight for accuracy, weight in scored) / sum(
        weight for _, weight in scored
    )
    harmonic = len(scored) / sum(1 / max(1.0, accuracy) for accuracy, _ in scored)
    return round((weighted + harmonic) / 2)
