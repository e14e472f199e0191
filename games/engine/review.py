"""What a move cost its mover, and what that cost is called: the review's pure arithmetic.

Every evaluation here is from Black's side (positive: Black ahead), as the
analysis stores it: in discs for Othello (the final disc difference under
best play as far as the engine sees), in points for Go (the score lead, komi
included).

>>> move_loss(best=6, played=-2, mover=Color.BLACK)
8
>>> judgement(8, kind="othello", size=8)
'mistake'
"""

from __future__ import annotations

import functools

from games.rules.base import Color

__all__ = ["JUDGEMENTS", "judgement", "move_loss", "thresholds"]

JUDGEMENTS = ("inaccuracy", "mistake", "blunder")
"""The judgements from the mildest, each for a loss at least its threshold."""

OTHELLO_THRESHOLDS = (4, 8, 16)
"""The losses in discs that make an inaccuracy, a mistake, a blunder on 8x8."""
GO_THRESHOLDS = (3, 6, 12)
"""The losses in points that make an inaccuracy, a mistake, a blunder on every size."""


def move_loss(*, best: float, played: float, mover: Color, automatic: bool = False) -> float:
    """What the move cost ``mover``: ``best`` minus ``played`` from the mover's side, never below 0.

    ``best`` is the evaluation of the position before the move (the best move's),
    ``played`` the evaluation after the played move, both from Black's side. An
    ``automatic`` move (Othello's forced pass) costs nothing.

    >>> move_loss(best=6, played=10, mover=Color.BLACK)
    0
    >>> move_loss(best=6, played=10, mover=Color.WHITE)
    4
    """
    if automatic:
        return 0
    cost = best - played if mover is Color.BLACK else played - best
    return max(0, cost)


@functools.cache
def thresholds(kind: str, size: int) -> tuple[int, int, int]:
    """The losses at which a move becomes an inaccuracy, a mistake and a blunder.

    Othello's are in discs, scaled from 8x8 by ``size ** 2 / 64`` and rounded
    (halves up); Go's are in points on every size. Raises ``ValueError`` for
    another kind.

    >>> thresholds("othello", 6)
    (2, 5, 9)
    """
    if kind == "go":
        return GO_THRESHOLDS
    if kind != "othello":
        raise ValueError(f"no judgements for the kind {kind!r}")
    scale = size * size / 64
    low, middle, high = (int(limit * scale + 0.5) for limit in OTHELLO_THRESHOLDS)
    return low, middle, high


def judgement(loss: float, *, kind: str, size: int) -> str | None:
    """``"inaccuracy"``, ``"mistake"``, ``"blunder"`` or None for a move that lost ``loss``."""
    named = None
    for name, limit in zip(JUDGEMENTS, thresholds(kind, size), strict=True):
        if loss >= limit:
            named = name
    return named
