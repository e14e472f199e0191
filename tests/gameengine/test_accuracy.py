"""Accuracy as lichess shows it (gameengine/accuracy.py): our evals as win percentages,
each move's accuracy, and each player's over a game, as tables; lichess's own test games
(lila modules/analyse/src/test/AccuracyPercentTest.scala) give the same figures."""

from __future__ import annotations

import doctest
import functools
import math

import pytest

import gameengine.accuracy
from gameengine.accuracy import Played, accuracy_of_drop, game_accuracy, win_percent
from gamerules.base import Color

B, W = Color.BLACK, Color.WHITE


def test_doctests() -> None:
    assert doctest.testmod(gameengine.accuracy).failed == 0


@pytest.mark.parametrize(
    ("value", "mistake", "percent"),
    [
        (0, 8, 50.0),  # even
        (-8, 8, 40.0),  # a mistake behind: lichess's mistake, 10 points below even
        (8, 8, 60.0),
        (-4, 8, 44.9),  # an inaccuracy: lichess's 5 points
        (-16, 8, 30.8),  # a blunder: 19 points (lichess's blunder: 15)
        (64, 8, 96.2),  # every disc of 8x8
        (-2, 2, 40.0),  # 4x4: a mistake is 2 discs
        (-6, 6, 40.0),  # Go: 6 points on every size
        (-30, 6, 11.6),
    ],
)
def test_win_percent(value: float, mistake: float, percent: float) -> None:
    assert win_percent(value, mistake=mistake) == pytest.approx(percent, abs=0.05)


@pytest.mark.parametrize(
    ("drop", "accuracy"),
    [
        (0, 100.0),
        (-3, 100.0),  # the move did better than the engine expected
        (5, 80.8),
        (10, 64.6),
        (15, 51.5),
        (30, 25.8),
        (60, 5.4),
        (100, 0.0),  # never below 0
    ],
)
def test_accuracy_of_a_drop(drop: float, accuracy: float) -> None:
    assert accuracy_of_drop(drop) == pytest.approx(accuracy, abs=0.05)


def discs(mistake: float) -> functools.partial[float]:
    return functools.partial(win_percent, mistake=mistake)


def alternating(losses: list[float], before: float = 0, first: Color = B) -> list[Played]:
    """Moves of both sides in turn from an even game, each losing what ``losses`` says."""
    moves = []
    value = before
    mover = first
    for loss in losses:
        moves.append(Played(mover=mover, before=value, loss=loss))
        value = -(value - loss)  # the next mover's side
        mover = mover.opponent
    return moves


@pytest.mark.parametrize(
    ("losses", "mistake", "black", "white"),
    [
        ([0] * 30, 8, 100, 100),  # a perfect game
        ([0, 0], 8, 100, 100),
        ([16] * 30, 8, 42, 42),  # a blunder a move, each from an even game
        ([32] * 30, 8, 22, 22),  # worse ones
        ([8] * 30, 8, 65, 65),  # a mistake a move
        ([4] * 30, 8, 81, 81),  # an inaccuracy a move
        ([2] * 30, 2, 65, 65),  # 4x4: a mistake is 2 discs
        ([0] * 29 + [16], 8, 100, 80),  # one blunder in a clean game
        # Black blunders at every move, White is perfect: once lost, Black's further
        # losses change the expected score less and less (lichess's curve does the same).
        ([16, 0] * 15, 8, 74, 100),
        ([0, 16] * 15, 8, 100, 74),
    ],
)
def test_game_accuracy(losses: list[float], mistake: float, black: int, white: int) -> None:
    assert game_accuracy(alternating(losses), discs(mistake)) == {B: black, W: white}


def test_a_move_that_was_no_choice_counts_for_nobody() -> None:
    # Othello's automatic pass: in the sequence, in nobody's average.
    moves = [
        Played(mover=B, before=0, loss=8),
        Played(mover=W, before=8, loss=0, counted=False),
        Played(mover=B, before=-8, loss=8),
    ]
    assert game_accuracy(moves, discs(8)) == {B: 66, W: None}
    assert game_accuracy([], discs(8)) == {B: None, W: None}


def lichess_win(cp: float) -> float:
    """lichess's win percentage of centipawns (scalachess eval.scala)."""
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


def from_centipawns(cps: list[int]) -> list[Played]:
    """lichess's test games: White first, the evals (White's side) after each move, 15
    before the first."""
    moves = []
    before = 15
    for index, after in enumerate(cps):
        mover = W if index % 2 == 0 else B
        sign = 1 if mover is W else -1
        loss = max(0, sign * before - sign * after)
        moves.append(Played(mover=mover, before=sign * before, loss=loss))
        before = after
    return moves


@pytest.mark.parametrize(
    ("cps", "white", "black", "within"),
    [
        ([15, 15], 100, 100, 1),  # two good moves
        ([-900, -900], 10, 100, 5),  # White blunders on the first move
        ([15, 900], 100, 10, 5),  # Black does
        ([-900, 0], 10, 10, 5),  # both do
        ([15] * 20, 100, 100, 1),
        ([15] * 20 + [-900], 50, 100, 5),  # 20 perfect moves and a White blunder
        ([15] * 21 + [900], 100, 50, 5),
        ([-50, 15] * 5, 76, 76, 8),  # 65 centipawns lost a move
        ([-50, 15] * 50, 76, 76, 8),
        ([-135, 15] * 50, 54, 54, 8),  # 150
        ([-435, 15] * 50, 20, 20, 8),  # 500
    ],
)
def test_lichess_test_games_give_lichess_figures(
    cps: list[int], white: int, black: int, within: int
) -> None:
    found = game_accuracy(from_centipawns(cps), lichess_win)
    assert found[W] == pytest.approx(white, abs=within)
    assert found[B] == pytest.approx(black, abs=within)
