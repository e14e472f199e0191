"""The review's arithmetic (games/engine/review.py): losses and judgements as tables."""

from __future__ import annotations

import doctest

import pytest

import games.engine.review
from games.engine.review import judgement, move_loss, thresholds
from games.rules.base import Color

B, W = Color.BLACK, Color.WHITE


def test_doctests() -> None:
    assert doctest.testmod(games.engine.review).failed == 0


@pytest.mark.parametrize(
    ("best", "played", "mover", "automatic", "loss"),
    [
        (6, 6, B, False, 0),  # the best move
        (6, -2, B, False, 8),  # Black went from +6 to -2
        (6, 10, B, False, 0),  # the search saw less than the next one: never below 0
        (6, 10, W, False, 4),  # White let Black go from +6 to +10
        (-3, -9, W, False, 0),  # White improved on the estimate
        (-3, 5, W, False, 8),
        (4, -20, B, True, 0),  # Othello's forced pass costs nothing
        (2.5, -1.0, B, False, 3.5),  # Go: points
    ],
)
def test_move_loss(best: float, played: float, mover: Color, automatic: bool, loss: float) -> None:
    assert move_loss(best=best, played=played, mover=mover, automatic=automatic) == loss


@pytest.mark.parametrize(
    ("kind", "size", "limits"),
    [
        ("othello", 8, (4, 8, 16)),
        ("othello", 4, (1, 2, 4)),
        ("othello", 6, (2, 5, 9)),  # 2.25, 4.5 (halves up), 9
        ("othello", 10, (6, 13, 25)),  # 6.25, 12.5, 25
        ("othello", 12, (9, 18, 36)),
        ("go", 9, (3, 6, 12)),
        ("go", 19, (3, 6, 12)),
    ],
)
def test_thresholds(kind: str, size: int, limits: tuple[int, int, int]) -> None:
    assert thresholds(kind, size) == limits


def test_thresholds_refuse_another_kind() -> None:
    with pytest.raises(ValueError, match="chess"):
        thresholds("chess", 8)


@pytest.mark.parametrize(
    ("loss", "kind", "size", "named"),
    [
        (0, "othello", 8, None),
        (3, "othello", 8, None),
        (4, "othello", 8, "inaccuracy"),
        (7, "othello", 8, "inaccuracy"),
        (8, "othello", 8, "mistake"),
        (15, "othello", 8, "mistake"),
        (16, "othello", 8, "blunder"),
        (40, "othello", 8, "blunder"),
        (1, "othello", 6, None),
        (2, "othello", 6, "inaccuracy"),
        (5, "othello", 6, "mistake"),
        (9, "othello", 6, "blunder"),
        (1, "othello", 4, "inaccuracy"),
        (2.9, "go", 19, None),
        (3, "go", 19, "inaccuracy"),
        (6, "go", 9, "mistake"),
        (12.5, "go", 9, "blunder"),
    ],
)
def test_judgement(loss: float, kind: str, size: int, named: str | None) -> None:
    assert judgement(loss, kind=kind, size=size) == named
