"""Counting a Go game (gamerules/go.py: score, estimate_dead): boards in, points out."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerules.base import Color, InvalidMoveError, Move, Point, RulesError
from gamerules.go import GoPosition, GoScore, ScoringMethod, estimate_dead, score

from .test_go import board, play_all, random_game

B, W = Color.BLACK, Color.WHITE


def position(diagram: str, prisoners: tuple[int, int] = (0, 0)) -> GoPosition:
    """The drawn position, Black to move, with ``prisoners`` (black's, white's) taken so far."""
    data = GoPosition.from_rows(board(diagram), B).to_snapshot()
    data["prisoners"] = {"black": prisoners[0], "white": prisoners[1]}
    return GoPosition.from_snapshot(data)


def points(diagram: str) -> dict[Color, frozenset[Point]]:
    """The points marked ``b`` and ``w`` in a diagram of territory."""
    rows = ["".join(line.split()) for line in diagram.splitlines() if line.strip()]
    return {
        color: frozenset(
            (row, col)
            for row, line in enumerate(rows)
            for col, mark in enumerate(line)
            if mark == color.letter.lower()
        )
        for color in (B, W)
    }


SPLIT = """
    . . B W .
    . . B W .
    . . B W .
    . . B W .
    . . B W .
    """

INVADED = """
    . . B W .
    . W B W .
    . . B W .
    . . B W .
    . . B W .
    """

INVADED_GROUP = """
    . . B W .
    . W B W .
    . W B W .
    . . B W .
    . . B W .
    """

DAME = """
    . B . W .
    . B . W .
    . B . W .
    . B . W .
    . B . W .
    """

SEKI = """
      A B C D E F G
    7 . W B . W B .
    6 . W B . W B .
    5 . W W W B B .
    4 . . . W B . .
    3 . . . W B . .
    2 . . . W B . .
    1 . . . W B . .
    """

SEKI_TERRITORY = """
    w W B . W B b
    w W B . W B b
    w W W W B B b
    w w w W B b b
    w w w W B b b
    w w w W B b b
    w w w W B b b
    """

SEED_FIRST_CASE = """
    . . . . . W .
    . . . . . W W
    . . . . . . .
    . . . . . . .
    . . . . . . .
    B B . . . . .
    . B . . . . .
    """


@pytest.mark.parametrize(
    ("diagram", "prisoners", "dead", "komi", "method", "territory", "total", "result"),
    [
        pytest.param(
            SEED_FIRST_CASE, (0, 0), [], 0, "territory", (1, 1), (1, 1), "Draw", id="seed"
        ),
        pytest.param(SPLIT, (0, 0), [], 0, "territory", (10, 5), (10, 5), "B+5", id="split"),
        pytest.param(SPLIT, (2, 1), [], 0, "territory", (10, 5), (12, 6), "B+6", id="prisoners"),
        pytest.param(SPLIT, (2, 1), [], 0, "area", (10, 5), (15, 10), "B+5", id="area"),
        pytest.param(SPLIT, (0, 0), [], 2, "territory", (10, 5), (10, 7), "B+3", id="komi 2"),
        pytest.param(SPLIT, (0, 0), [], 6.5, "territory", (10, 5), (10, 11.5), "W+1.5", id="6.5"),
        pytest.param(SPLIT, (0, 0), [], 6.5, "area", (10, 5), (15, 16.5), "W+1.5", id="area 6.5"),
        pytest.param(SPLIT, (0, 0), [], 5, "territory", (10, 5), (10, 10), "Draw", id="jigo"),
        pytest.param(SPLIT, (0, 0), [], -0.5, "area", (10, 5), (15, 9.5), "B+5.5", id="reverse"),
        pytest.param(DAME, (0, 0), [], 0, "territory", (5, 5), (5, 5), "Draw", id="dame"),
        pytest.param(DAME, (0, 0), [], 0.5, "area", (5, 5), (10, 10.5), "W+0.5", id="dame area"),
        pytest.param(INVADED, (0, 0), [], 0, "territory", (0, 5), (0, 5), "W+5", id="unmarked"),
        pytest.param(
            INVADED, (0, 0), [(1, 1)], 0, "territory", (10, 5), (11, 5), "B+6", id="dead stone"
        ),
        pytest.param(
            INVADED, (2, 1), [(1, 1)], 0, "territory", (10, 5), (13, 6), "B+7", id="dead+caught"
        ),
        pytest.param(
            INVADED, (2, 1), [(1, 1)], 0, "area", (10, 5), (15, 10), "B+5", id="dead area"
        ),
        pytest.param(
            INVADED_GROUP,
            (0, 0),
            [(1, 1), (2, 1)],
            6.5,
            "territory",
            (10, 5),
            (12, 11.5),
            "B+0.5",
            id="dead group komi",
        ),
        pytest.param(
            INVADED_GROUP,
            (0, 0),
            [(1, 1), (2, 1)],
            7.5,
            "area",
            (10, 5),
            (15, 17.5),
            "W+2.5",
            id="dead group area komi",
        ),
        pytest.param(
            INVADED_GROUP, (0, 0), [], 0, "territory", (0, 5), (0, 5), "W+5", id="group alive"
        ),
        pytest.param(SEKI, (0, 0), [], 0, "territory", (11, 15), (11, 15), "W+4", id="seki"),
        pytest.param(SEKI, (0, 0), [], 0, "area", (11, 15), (21, 26), "W+5", id="seki area"),
        pytest.param(
            ". . . / . . . / . . .", (0, 0), [], 0, "area", (0, 0), (0, 0), "Draw", id="0"
        ),
        pytest.param(". . . / . . . / . . .", (0, 0), [], 7.5, "area", (0, 0), (0, 7.5), "W+7.5"),
        pytest.param(". . . / . B . / . . .", (0, 0), [], 0, "territory", (8, 0), (8, 0), "B+8"),
    ],
)
def test_scoring_counts_territory_prisoners_dead_stones_and_komi(
    diagram: str,
    prisoners: tuple[int, int],
    dead: list[Point],
    komi: float,
    method: ScoringMethod,
    territory: tuple[int, int],
    total: tuple[float, float],
    result: str,
) -> None:
    counted = score(
        position(diagram.replace("/", "\n"), prisoners), dead=dead, komi=komi, method=method
    )
    assert (counted.territory[B], counted.territory[W]) == territory
    assert (counted.total[B], counted.total[W]) == total
    assert counted.result == result
    assert counted.prisoners == {B: prisoners[0], W: prisoners[1]}
    assert counted.komi == {B: 0, W: komi}
    assert counted.method == method
    assert {color: len(counted.territory_points[color]) for color in (B, W)} == counted.territory


def test_dead_stones_count_as_prisoners_and_their_points_as_territory() -> None:
    counted = score(position(INVADED), dead={(1, 1)})
    assert counted.dead == {B: 1, W: 0}
    assert counted.stones == {B: 5, W: 5}
    assert (1, 1) in counted.territory_points[B]
    assert counted.territory_points == points(
        """
        b b B W w
        b b B W w
        b b B W w
        b b B W w
        b b B W w
        """
    )


def test_seki_shared_liberties_count_for_nobody() -> None:
    counted = score(position(SEKI))
    assert counted.territory_points == points(SEKI_TERRITORY)
    assert (0, 3) not in counted.territory_points[B] | counted.territory_points[W]


def test_stones_of_both_colours_may_be_dead() -> None:
    diagram = """
        . . B W .
        . W B W B
        . . B W .
        . . B W .
        . . B W .
        """
    counted = score(position(diagram), dead=[(1, 1), (1, 4)])
    assert counted.dead == {B: 1, W: 1}
    assert (counted.territory[B], counted.territory[W]) == (10, 5)
    assert (counted.total[B], counted.total[W]) == (11, 6)


def test_without_dead_stones_and_komi_the_seed_cases_come_out() -> None:
    first = GoPosition.from_rows(board(SEED_FIRST_CASE), B)
    assert score(first).total == {B: 1, W: 1}
    second, _ = play_all(GoPosition.start(7), ["B B1", "W A1", "B B2", "W G6", "B A2", "W F7"])
    assert score(second).total == {B: 2, W: 1}
    assert score(second).prisoners == {B: 1, W: 0}


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"dead": [(0, 0)]}, RulesError, "A5 has no stone to mark dead"),
        ({"dead": [(5, 0)]}, InvalidMoveError, "not a point of the 5x5 board"),
        ({"method": "japanese"}, RulesError, "unknown scoring method"),
        ({"komi": math.nan}, RulesError, "komi must be a finite number"),
        ({"komi": math.inf}, RulesError, "komi must be a finite number"),
        ({"komi": True}, RulesError, "komi must be a finite number"),
        ({"komi": "6.5"}, RulesError, "komi must be a finite number"),
    ],
)
def test_scoring_refuses_what_it_cannot_count(
    options: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        score(position(SPLIT), **options)  # type: ignore[arg-type]


# Guessing the dead stones


@pytest.mark.parametrize(
    ("diagram", "dead"),
    [
        pytest.param(". . . / . . . / . . .", [], id="empty board"),
        pytest.param(SPLIT, [], id="two territories"),
        pytest.param(INVADED, [(1, 1)], id="a lone stone in the opponent's territory"),
        pytest.param(INVADED_GROUP, [(1, 1), (2, 1)], id="a chain in the opponent's territory"),
        pytest.param(SEKI, [], id="seki: both inner groups stay alive"),
        pytest.param(
            """
            . . . . . . .
            . . . . . . .
            . . B . W . .
            . . . . . . .
            . . W . B . .
            . . . . . . .
            . . . . . . .
            """,
            [],
            id="an open board: nothing is settled",
        ),
        pytest.param(
            """
            . W . W B . .
            W W W W B . .
            B B B B B . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
            [],
            id="two eyes in the corner live",
        ),
        pytest.param(
            """
            . W . B . . .
            W W . B . . .
            B B B B . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
            [(0, 1), (1, 0), (1, 1)],
            id="one eye in the corner dies",
        ),
        pytest.param(
            """
            . . . . B W .
            . . . . B W .
            . . W . B W .
            . W . W B W .
            . . W . B W .
            . . . . B W .
            . . . . B W .
            """,
            [(2, 2), (3, 1), (3, 3), (4, 2)],
            id="a one-eyed shape inside the territory dies",
        ),
        pytest.param(
            """
            . . . . W B W . .
            W W W W W B W . .
            . . . . . B W . .
            . . . . . B W . .
            . . . . . B W . .
            . . . . . B W . .
            . . . . . B W . .
            . . . . . B W . .
            . . . . . B W . .
            """,
            [],
            id="a straight four on the edge lives",
        ),
    ],
)
def test_estimate_dead_guesses_the_hopeless_groups(diagram: str, dead: list[Point]) -> None:
    guessed = estimate_dead(position(diagram.replace("/", "\n")))
    assert guessed == frozenset(dead)


def test_the_guess_feeds_the_count() -> None:
    invaded = position(INVADED)
    assert score(invaded, dead=estimate_dead(invaded)).result == "B+6"


# Rotations and reflections

Symmetry = Callable[[Point, int], Point]
SYMMETRIES: list[Symmetry] = [
    lambda p, n: (p[0], p[1]),
    lambda p, n: (p[1], n - 1 - p[0]),
    lambda p, n: (n - 1 - p[0], n - 1 - p[1]),
    lambda p, n: (n - 1 - p[1], p[0]),
    lambda p, n: (p[0], n - 1 - p[1]),
    lambda p, n: (n - 1 - p[0], p[1]),
    lambda p, n: (p[1], p[0]),
    lambda p, n: (n - 1 - p[1], n - 1 - p[0]),
]


def count_both(current: GoPosition) -> tuple[frozenset[Point], GoScore, GoScore]:
    dead = estimate_dead(current)
    return (
        dead,
        score(current, dead=dead, komi=0.5),
        score(current, dead=dead, komi=0.5, method="area"),
    )


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([5, 7, 9]), st.randoms(use_true_random=False))
def test_scoring_is_the_same_on_every_rotation_and_reflection_of_the_board(
    size: int, rng: random.Random
) -> None:
    played = list(random_game(size, rng, rng.randrange(1, 3 * size * size)))
    original, diff = played[-1]
    dead, territory, area = count_both(original)
    for symmetry in SYMMETRIES:
        turned = GoPosition.start(size)
        for _, diff in played:
            point = None if diff.point is None else symmetry(diff.point, size)
            turned = turned.play(Move.pass_turn() if point is None else Move.place(point))[0]
        turned_dead, turned_territory, turned_area = count_both(turned)
        assert turned_dead == {symmetry(point, size) for point in dead}
        for before, after in ((territory, turned_territory), (area, turned_area)):
            assert (after.total, after.result, after.dead) == (
                before.total,
                before.result,
                before.dead,
            )
            for color in (B, W):
                assert after.territory_points[color] == {
                    symmetry(point, size) for point in before.territory_points[color]
                }
