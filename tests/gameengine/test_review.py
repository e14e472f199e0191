"""The review's arithmetic (gameengine/review.py): losses, judgements, the advice on each
move and the players' summaries, as tables."""

from __future__ import annotations

import doctest
from typing import Any

import pytest

import gameengine.review
from gameengine.review import advice, annotate, judgement, mistake, move_loss, thresholds
from gamerules.base import Color

B, W = Color.BLACK, Color.WHITE


def test_doctests() -> None:
    assert doctest.testmod(gameengine.review).failed == 0


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


@pytest.mark.parametrize(
    ("mover", "played", "best", "loss", "judged", "unit", "automatic", "words"),
    [
        (
            W,
            "g1",
            "h1",
            16,
            "blunder",
            "disc",
            False,
            "White's g1?? cost 16 discs, a blunder; h1 was best.",
        ),
        (
            B,
            "d3",
            "c4",
            9,
            "mistake",
            "disc",
            False,
            "Black's d3? cost 9 discs, a mistake; c4 was best.",
        ),
        (
            B,
            "d3",
            "c4",
            4.5,
            "inaccuracy",
            "point",
            False,
            "Black's d3?! cost 4.5 points, an inaccuracy; c4 was best.",
        ),
        (W, "b2", "a1", 1, None, "disc", False, "White's b2 cost 1 disc; a1 was best."),
        (
            W,
            "pass",
            "D4",
            7.5,
            "mistake",
            "point",
            False,
            "White's pass? cost 7.5 points, a mistake; D4 was best.",
        ),
        (B, "D4", "D4", 0, None, "point", False, "Black's D4 was the best move."),
        (B, "e6", "f5", 0, None, "disc", False, "Black's e6 cost nothing; f5 was as good."),
        (W, "pass", "pass", 0, None, "disc", True, "White passed: no move to play."),
    ],
)
def test_advice_speaks_for_the_mover(
    mover: Color,
    played: str,
    best: str,
    loss: float,
    judged: str | None,
    unit: str,
    automatic: bool,
    words: str,
) -> None:
    found = advice(
        mover=mover,
        played=played,
        best=best,
        loss=loss,
        judged=judged,
        unit=unit,
        automatic=automatic,
    )
    assert found == words


def position(
    ply: int, to_move: str | None, value: float, best: object, **move: Any
) -> dict[str, Any]:
    """A stored position of a review, with its move's loss and judgement for ply >= 1."""
    return {
        "ply": ply,
        "to_move": to_move,
        "eval": value,
        "exact": True,
        "best": best,
        "pv": [best],
        **move,
    }


def test_annotate_says_what_each_move_cost_its_mover_and_what_was_better() -> None:
    plies = [
        position(0, "black", -8, [0, 1]),
        position(1, "white", -8, [0, 0], loss=0, judgement=None),
        position(2, "black", 8, "pass", loss=16, judgement="blunder"),
        position(3, "white", 8, [1, 3], loss=0, judgement=None),
        position(4, "black", 8, [0, 2], loss=0, judgement=None),
        position(5, None, 7, None, loss=1, judgement="inaccuracy"),
    ]
    moves = [(B, (0, 1)), (W, (2, 0)), (B, None), (W, (3, 3)), (B, (0, 3))]
    annotated, summary = annotate(plies, moves, kind="othello", size=4)
    assert annotated[0] == plies[0]  # the start: no move led there
    for stored, entry in zip(plies, annotated, strict=True):
        assert entry.items() >= stored.items()  # every stored key kept as it was
    # What each mover should have played: the best move of the position before the move.
    assert [entry.get("best_for_mover") for entry in annotated] == [
        None,
        [0, 1],
        [0, 0],
        "pass",
        [1, 3],
        [0, 2],
    ]
    assert [entry.get("advice") for entry in annotated] == [
        None,
        "Black's b1 was the best move.",
        "White's a3?? cost 16 discs, a blunder; a1 was best.",
        "Black passed: no move to play.",  # Othello's automatic pass
        "White's d4 cost nothing; d2 was as good.",
        "Black's d1?! cost 1 disc, an inaccuracy; c1 was best.",
    ]
    # Black: b1 and d1 (the pass was no choice); White: a3 and d4.
    assert summary == {
        "black": {
            "moves": 2,
            "inaccuracies": 1,
            "mistakes": 0,
            "blunders": 0,
            "average_loss": 0.5,
            "accuracy": 93,
        },
        "white": {
            "moves": 2,
            "inaccuracies": 0,
            "mistakes": 0,
            "blunders": 1,
            "average_loss": 8.0,
            "accuracy": 7,
        },
    }


def test_annotate_a_go_review_in_points_and_go_notation() -> None:
    plies = [
        position(0, "black", -7.0, [4, 4]),
        position(1, "white", -14.5, [0, 8], loss=7.5, judgement="mistake"),
        position(2, "black", -14.5, "pass", loss=0, judgement=None),
    ]
    moves = [(B, (8, 0)), (W, (0, 8))]
    annotated, summary = annotate(plies, moves, kind="go", size=9)
    assert [entry["advice"] for entry in annotated[1:]] == [
        "Black's A1? cost 7.5 points, a mistake; E5 was best.",
        "White's J9 was the best move.",  # no I among Go's letters
    ]
    assert summary["black"]["average_loss"] == 7.5
    assert summary["white"]["accuracy"] == 100


def test_annotate_a_review_under_way_or_not_begun() -> None:
    moves = [(B, (0, 1)), (W, (2, 0))]
    plies = [
        position(0, "black", -8, [0, 1]),
        position(1, "white", -8, [0, 0], loss=0, judgement=None),
    ]
    annotated, summary = annotate(plies, moves, kind="othello", size=4)
    assert len(annotated) == 2
    assert summary["white"] == {
        "moves": 0,
        "inaccuracies": 0,
        "mistakes": 0,
        "blunders": 0,
        "average_loss": 0.0,
        "accuracy": None,
    }
    assert annotate([], moves, kind="othello", size=4)[0] == []


@pytest.mark.parametrize(
    ("kind", "size", "loss"),
    [("othello", 8, 8), ("othello", 6, 4.5), ("othello", 4, 2), ("go", 19, 6)],
)
def test_a_mistake_scales_the_accuracy(kind: str, size: int, loss: float) -> None:
    assert mistake(kind, size) == loss
