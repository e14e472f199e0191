"""What a move cost its mover, and what that cost is called: the review's pure arithmetic.

Every evaluation here is from Black's side (positive: Black ahead), as the
analysis stores it: in discs for Othello (the final disc difference under
best play as far as the engine sees), in points for Go (the score lead, komi
included).

>>> move_loss(best=6, played=-2, mover=Color.BLACK)
8
>>> judgement(8, kind="othello", size=8)
'mistake'

``annotate`` adds what the replay page shows of a stored review and the JSON lacks
(docs/api/http.md: the page draws what the JSON holds, nothing recomputed in the browser): for
each move, the move its mover should have played and the advice in words (as lichess's
``Advice.scala`` writes "Blunder. Nxe5 was best."), and each player's summary with the
accuracy of gameengine.accuracy.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from gamerules import Position, new_position
from gamerules.base import ENGLISH, Color, Point, Words, gettext_noop

from .accuracy import Played, game_accuracy, win_percent

__all__ = [
    "JUDGEMENTS",
    "MARKS",
    "advice",
    "annotate",
    "judgement",
    "mistake",
    "move_loss",
    "thresholds",
]

JUDGEMENTS = ("inaccuracy", "mistake", "blunder")
"""The judgements from the mildest, each for a loss at least its threshold."""
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""How the move list marks each judgement."""
_NAMED = {
    "inaccuracy": gettext_noop("an inaccuracy"),
    "mistake": gettext_noop("a mistake"),
    "blunder": gettext_noop("a blunder"),
}

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


def mistake(kind: str, size: int) -> float:
    """The loss that makes a mistake, unrounded: what scales the accuracy's win percentage.

    >>> mistake("othello", 6)
    4.5
    """
    if kind == "go":
        return GO_THRESHOLDS[1]
    if kind != "othello":
        raise ValueError(f"no judgements for the kind {kind!r}")
    return OTHELLO_THRESHOLDS[1] * size * size / 64


def judgement(loss: float, *, kind: str, size: int) -> str | None:
    """``"inaccuracy"``, ``"mistake"``, ``"blunder"`` or None for a move that lost ``loss``."""
    named = None
    for name, limit in zip(JUDGEMENTS, thresholds(kind, size), strict=True):
        if loss >= limit:
            named = name
    return named


def _amount(value: float, unit: str, words: Words) -> str:
    """``16 discs``, ``1 disc``, ``7.5 points``."""
    number = 1 if value == 1 else 2  # the English plural: "0.5 points"
    amount = (
        words.ngettext("%(number)s disc", "%(number)s discs", number)
        if unit == "disc"
        else words.ngettext("%(number)s point", "%(number)s points", number)
    )
    return amount % {"number": f"{value:g}"}


def advice(
    *,
    mover: Color,
    played: str,
    best: str | None,
    loss: float,
    judged: str | None,
    unit: str,
    automatic: bool = False,
    words: Words = ENGLISH,
) -> str:
    """What move ``played`` (in the game's notation) did for its ``mover``, in words
    (``words``' language, English by default): what it cost (``loss``, in ``unit``:
    ``disc`` or ``point``) and the move ``best`` the engine preferred there, marked as the
    move list marks the judgement ``judged``.

    >>> advice(mover=Color.WHITE, played="g1", best="h1", loss=16, judged="blunder", unit="disc")
    "White's g1?? cost 16 discs, a blunder; h1 was best."
    >>> advice(mover=Color.BLACK, played="D4", best="D4", loss=0, judged=None, unit="point")
    "Black's D4 was the best move."
    """
    black = mover is Color.BLACK
    if automatic:
        if black:
            return words.gettext("Black passed: no move to play.")
        return words.gettext("White passed: no move to play.")
    marked = f"{played}{MARKS.get(judged or '', '')}"
    move = (words.gettext("Black's %(move)s") if black else words.gettext("White's %(move)s")) % {
        "move": marked
    }
    if loss > 0:
        cost = words.gettext("%(move)s cost %(amount)s") % {
            "move": move,
            "amount": _amount(loss, unit, words),
        }
        if judged:
            cost = words.gettext("%(cost)s, %(judgement)s") % {
                "cost": cost,
                "judgement": words.gettext(_NAMED[judged]),
            }
        if best:
            return words.gettext("%(cost)s; %(best)s was best.") % {"cost": cost, "best": best}
        return words.gettext("%(cost)s.") % {"cost": cost}
    if best is None or best == played:
        return words.gettext("%(move)s was the best move.") % {"move": move}
    return words.gettext("%(move)s cost nothing; %(best)s was as good.") % {
        "move": move,
        "best": best,
    }


@functools.cache
def _start(kind: str, size: int) -> Position:
    return new_position(kind, size)


def _named(kind: str, size: int, step: Sequence[int] | str | None) -> str | None:
    """A move as the review stores it (``[r, c]``, ``"pass"`` or None) in the game's
    notation."""
    if step is None or isinstance(step, str):
        return step
    return _start(kind, size).format_point((step[0], step[1]))


def annotate(
    plies: Sequence[Mapping[str, Any]],
    moves: Sequence[tuple[Color, Point | None]],
    *,
    kind: str,
    size: int,
    words: Words = ENGLISH,
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """The review's positions ``plies`` (as stored) with what each move meant for its
    mover (in ``words``' language), and each player's summary.

    ``moves`` are the game's placements and passes in order, as ``(colour, point or
    None)``. Each position after a move (k >= 1) gains ``best_for_mover`` (the best move
    of the position before it: what its mover should have played) and ``advice``
    (``advice``'s words). The summary, by colour, counts that player's analysed moves
    (``moves``; Othello's automatic passes, no choice, are left out), its
    ``inaccuracies``, ``mistakes`` and ``blunders``, its ``average_loss`` (to a tenth) and
    its ``accuracy`` (0..100; None before any move of theirs is analysed).
    """
    unit = "disc" if kind == "othello" else "point"
    annotated = [dict(plies[0])] if plies else []
    played: list[Played] = []
    counts = {color: dict.fromkeys(JUDGEMENTS, 0) for color in Color}
    losses: dict[Color, list[float]] = {color: [] for color in Color}
    for before, entry in itertools.pairwise(plies):
        mover, point = moves[entry["ply"] - 1]
        automatic = kind == "othello" and point is None
        best = before["best"]
        loss = entry["loss"]
        said = advice(
            mover=mover,
            played="pass" if point is None else _start(kind, size).format_point(point),
            best=_named(kind, size, best),
            loss=loss,
            judged=entry["judgement"],
            unit=unit,
            automatic=automatic,
            words=words,
        )
        annotated.append({**entry, "best_for_mover": best, "advice": said})
        value = before["eval"] if mover is Color.BLACK else -before["eval"]
        played.append(Played(mover=mover, before=value, loss=loss, counted=not automatic))
        if not automatic:
            losses[mover].append(loss)
            if entry["judgement"]:
                counts[mover][entry["judgement"]] += 1
    accuracy = game_accuracy(played, functools.partial(win_percent, mistake=mistake(kind, size)))
    summary = {
        color.value: {
            "moves": len(losses[color]),
            "inaccuracies": counts[color]["inaccuracy"],
            "mistakes": counts[color]["mistake"],
            "blunders": counts[color]["blunder"],
            "average_loss": round(sum(losses[color]) / len(losses[color]), 1)
            if losses[color]
            else 0.0,
            "accuracy": accuracy[color],
        }
        for color in Color
    }
    return annotated, summary
