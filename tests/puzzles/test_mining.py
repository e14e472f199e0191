"""The miner's rule (puzzles/mining.py) on table positions, checked against the exact
solver's value of every move."""

from __future__ import annotations

import pytest

from gameengine.othello.endgame import INFINITY, Solver
from gamerules.base import Color, Move, Point
from gamerules.othello import OthelloPosition
from puzzles.mining import Found, Miner, OthelloPuzzle, mine_othello_game, othello_puzzle

UNIQUE_WIN = [
    ".BBBBWB.",
    "..WWWW..",
    "W.WWBWWB",
    "BBWBBBWB",
    "BBBWWBWB",
    "BBBWBWWB",
    ".BWWWWWB",
    "BBBBBB..",
]
"""Black to move: b2 wins by 2; every other move loses."""
TWO_WINS = [
    "BBBBBBBB",
    "WBBWWWB.",
    "WBWBWWWW",
    "WBWBBWW.",
    "WBWBBWBB",
    "BBBBWWBB",
    ".BWWWW..",
    "..WWW...",
]
"""Black to move: h2, h4, b8 and f8 all win."""
UNIQUE_DRAW = [
    "WWWWWW..",
    "BWWWWW.B",
    "WBWWWWBB",
    "WWWWWWWB",
    "WWWBWWW.",
    "WWWBWWWW",
    "..BWWWW.",
    ".BBBBB..",
]
"""Black to move: nothing wins, b7 draws, every other move loses."""
LOST = [
    "......WW",
    "..B.BWWW",
    "W.BBWWBW",
    "WWWWWBBB",
    "WWWWBBWW",
    "WWWWBWWW",
    "WWWWWWWW",
    "WWWWBWWW",
]
"""Black to move loses whatever it plays."""


def swapped(rows: list[str]) -> list[str]:
    """The same board with the colours swapped."""
    return [row.translate(str.maketrans("BW", "WB")) for row in rows]


def exact_values(position: OthelloPosition) -> dict[Point, int]:
    """Each move's final margin for the side to move, each solved with the whole window."""
    solver = Solver(position.size, lambda: None)
    values = {}
    for point in position.legal_moves():
        black, white = position.play(Move.place(point))[0].bitboards()
        mover = position.to_move
        them, us = (white, black) if mover is Color.BLACK else (black, white)
        values[point] = -solver.solve(them, us, -INFINITY, INFINITY)
    return values


@pytest.mark.parametrize(
    ("rows", "to_move", "expected"),
    [
        pytest.param(UNIQUE_WIN, Color.BLACK, OthelloPuzzle((1, 1), 2, "win"), id="unique-win"),
        pytest.param(
            swapped(UNIQUE_WIN), Color.WHITE, OthelloPuzzle((1, 1), -2, "win"), id="white-wins"
        ),
        pytest.param(TWO_WINS, Color.BLACK, None, id="two-wins"),
        pytest.param(UNIQUE_DRAW, Color.BLACK, OthelloPuzzle((6, 1), 0, "draw"), id="only-draw"),
        pytest.param(LOST, Color.BLACK, None, id="lost"),
    ],
)
def test_a_puzzle_has_exactly_one_move_keeping_the_best_result(
    rows: list[str], to_move: Color, expected: OthelloPuzzle | None
) -> None:
    position = OthelloPosition.from_rows(rows, to_move)
    assert othello_puzzle(position) == expected
    values = exact_values(position)
    best = max(values.values())
    needed = 1 if best > 0 else 0
    keepers = [point for point, value in values.items() if value >= needed]
    if expected is None:
        assert best < 0 or len(keepers) > 1
    else:
        assert keepers == [expected.solution]
        sign = 1 if to_move is Color.BLACK else -1
        assert expected.value == sign * values[expected.solution]


@pytest.mark.parametrize(
    ("rows", "empties"),
    [
        (["........", *UNIQUE_WIN[1:]], 16),
        ([*UNIQUE_WIN[:7], "BBBBBBB."], 9),
    ],
)
def test_only_10_to_14_empties_are_tried(rows: list[str], empties: int) -> None:
    assert sum(row.count(".") for row in rows) == empties
    assert othello_puzzle(OthelloPosition.from_rows(rows, Color.BLACK)) is None


def test_a_forced_move_is_no_puzzle() -> None:
    position = OthelloPosition.from_rows(["....", ".WB.", ".BW.", "...."], Color.BLACK)
    black, white = position.bitboards()
    assert Miner(4).puzzle(position) is None
    assert position.bitboards() == (black, white)


def test_a_miner_refuses_another_size() -> None:
    with pytest.raises(ValueError):
        Miner(6).puzzle(OthelloPosition.start(8))


def test_a_game_is_mined_at_each_position_that_is_a_puzzle() -> None:
    before = OthelloPosition.from_rows(UNIQUE_WIN, Color.BLACK)
    after = before.play(Move.place((1, 1)))[0]
    found = mine_othello_game(before, [(31, (1, 1)), (32, after.legal_moves()[0])])
    assert found[0] == Found(0, before, OthelloPuzzle((1, 1), 2, "win"))
    assert all(entry.ply in (0, 31, 32) for entry in found)
