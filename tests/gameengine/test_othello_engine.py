"""The computer's Othello (gameengine/othello/): boards drawn in, moves out.

The searches run on a fake clock that moves on a little at every reading, so
that a test never sleeps and the same search gives the same move on any machine.
"""

from __future__ import annotations

import doctest
import functools
import random

import pytest

import gameengine.othello
from gameengine.othello import LEVELS, choose_move
from gameengine.othello.endgame import Solver
from gameengine.othello.evaluate import evaluator
from gamerules.base import Color, Move, Point
from gamerules.othello import OthelloPosition

B, W = Color.BLACK, Color.WHITE


class FakeClock:
    """A clock that moves on by ``step`` seconds each time it is read."""

    def __init__(self, step: float = 0.001) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def stopped_clock() -> float:
    """A clock that never moves: the search runs to its depth, however long it takes."""
    return 0.0


def position(diagram: str, to_move: Color) -> OthelloPosition:
    """The position drawn one row per line; spaces are ignored."""
    rows = [line.replace(" ", "") for line in diagram.splitlines() if line.strip()]
    return OthelloPosition.from_rows(rows, to_move)


def point(text: str) -> Point:
    return OthelloPosition.start(8).parse_point(text)


def random_position(rng: random.Random, size: int, empties: int) -> OthelloPosition:
    """A position with ``empties`` empty squares reached by random play, with a move to make."""
    while True:
        current = OthelloPosition.start(size)
        while not current.is_over:
            black, white = current.bitboards()
            if size * size - (black | white).bit_count() == empties and not current.must_pass:
                return current
            legal = current.legal_moves()
            move = Move.place(rng.choice(legal)) if legal else Move.pass_turn()
            current = current.play(move)[0]


@functools.cache
def minimax(current: OthelloPosition) -> int:
    """The final margin of the side to move with best play, by trying every line of play."""
    if current.is_over:
        counts = current.disc_counts()
        return counts[current.to_move] - counts[current.to_move.opponent]
    legal = current.legal_moves()
    if not legal:
        return -minimax(current.play(Move.pass_turn())[0])
    return max(-minimax(current.play(Move.place(move))[0]) for move in legal)


def solve(current: OthelloPosition, alpha: int = -300, beta: int = 300) -> int:
    black, white = current.bitboards()
    own, other = (black, white) if current.to_move is B else (white, black)
    return Solver(current.size, lambda: None).solve(own, other, alpha, beta)


NOISELESS = [level for level, settings in LEVELS.items() if not settings.noise]


def test_the_examples_in_the_docstrings_hold() -> None:
    assert doctest.testmod(gameengine.othello).failed == 0


# Good moves


@pytest.mark.parametrize("level", NOISELESS)
@pytest.mark.parametrize(
    ("diagram", "to_move", "corner"),
    [
        (
            """
            W . . . . B W .
            . W . . B B . .
            . . W B W B . .
            . . . W W . . .
            . . . B W W W .
            . . . . B . . .
            . . . B . . . .
            . . . . . . . .
            """,
            B,
            "h1",
        ),
        (
            """
            . B W . . . . .
            . . B W . . . .
            . B W B . . . .
            . W W W B . . .
            . W . B B . . .
            . . . B B . . .
            . . . B . B . .
            . . . . . . B .
            """,
            W,
            "a1",
        ),
    ],
)
def test_the_engine_takes_a_corner(diagram: str, to_move: Color, corner: str, level: int) -> None:
    chosen = choose_move(position(diagram, to_move), level=level, seed=0, clock=FakeClock())
    assert chosen == point(corner)


@pytest.mark.parametrize("level", NOISELESS)
@pytest.mark.parametrize(
    ("diagram", "safe"),
    [
        (
            # b2 opens a1 to White.
            """
            . . . . . . . .
            . . . . . B . .
            . . W B B . . .
            . . . W B B B .
            . . . B B B B .
            . . . . . W . W
            . . . . . W W .
            . . . . . W . B
            """,
            {"b3", "c4", "c5", "e7"},
        ),
        (
            # b8 opens a8 to White.
            """
            . . . . . . . .
            . . . . . . . .
            . . . B B B B .
            . . B B B B . .
            . . . B W . . .
            . . . W W B B .
            . . W W W . . .
            . . W W W . . .
            """,
            {"f5", "c6", "f7"},
        ),
    ],
)
def test_the_engine_does_not_give_away_a_corner(diagram: str, safe: set[str], level: int) -> None:
    start = position(diagram, B)
    chosen = choose_move(start, level=level, seed=0, clock=FakeClock())
    assert chosen in {point(text) for text in safe}


# Black wins by 2 with d1 alone; the corner a1 loses by 14.
FORCED_WIN = """
    . B W . B B B B
    . W W W B B B B
    W B W W W W W B
    . B W B W W W W
    B B B B W B W .
    . B W B B B W .
    B B B B B . W .
    W W . B B B W B
    """


@pytest.mark.parametrize("level", [level for level in LEVELS if LEVELS[level].endgame >= 10])
def test_the_engine_finds_the_only_winning_move_of_an_endgame(level: int) -> None:
    endgame = position(FORCED_WIN, B)
    assert choose_move(endgame, level=level, clock=stopped_clock) == point("d1")
    assert solve(endgame) == 2
    assert solve(endgame.play(Move.place(point("a1")))[0]) == 14


# The exact solver


@pytest.mark.parametrize(
    ("size", "empties", "seed"),
    [(4, 8, 1), (6, 8, 2), (6, 9, 3), (8, 8, 4), (8, 9, 5), (8, 9, 6), (10, 8, 7)],
)
def test_the_solver_agrees_with_minimax(size: int, empties: int, seed: int) -> None:
    endgame = random_position(random.Random(seed), size, empties)
    assert solve(endgame) == minimax(endgame)


@pytest.mark.parametrize("seed", range(3))
def test_a_solve_in_a_window_is_exact_inside_and_a_bound_outside(seed: int) -> None:
    rng = random.Random(seed)
    endgame = random_position(rng, 8, 8)
    exact = minimax(endgame)
    for alpha in range(exact - 6, exact + 6):
        beta = alpha + rng.choice([1, 4])
        found = solve(endgame, alpha, beta)
        if found <= alpha:
            assert exact <= found
        elif found >= beta:
            assert exact >= found
        else:
            assert exact == found


@pytest.mark.parametrize(
    ("diagram", "stable"),
    [
        (
            # The corner's discs and the ones it shields; the full bottom edge.
            """
            B B B W . . . .
            B B . . . . . .
            W . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . W B . . .
            . . . . . . . .
            W B B B B B B W
            """,
            """
            x x x . . . . .
            x x . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            x x x x x x x x
            """,
        ),
    ],
)
def test_stable_discs_grow_from_the_corners_and_fill_full_lines(diagram: str, stable: str) -> None:
    drawn = position(diagram, B)
    black, white = drawn.bitboards()
    found = evaluator(8).stable(black, white)
    marks = [line.replace(" ", "") for line in stable.splitlines() if line.strip()]
    expected = sum(
        1 << (row * 9 + col)
        for row, line in enumerate(marks)
        for col, mark in enumerate(line)
        if mark == "x"
    )
    assert found == expected


# The contract: passes, errors, time and sizes


def test_a_side_without_a_move_gets_none() -> None:
    blocked = OthelloPosition.from_rows(["B...", "W...", "....", "...."], W)
    assert blocked.must_pass
    assert choose_move(blocked, level=5, clock=FakeClock()) is None


def test_a_single_legal_move_is_played_without_thinking() -> None:
    single = OthelloPosition.from_rows(["BW..", "....", "....", "...."], B)
    clock = FakeClock()
    assert choose_move(single, level=10, clock=clock) == (0, 2)
    assert clock.now == 0.0


@pytest.mark.parametrize("level", [0, 11, -1, 5.0, "5", True, None])
def test_a_level_outside_1_to_10_is_refused(level: object) -> None:
    with pytest.raises(ValueError, match="level"):
        choose_move(OthelloPosition.start(8), level=level)  # type: ignore[arg-type]


def test_a_finished_game_is_refused() -> None:
    over = OthelloPosition.from_rows(["BBBB"] * 3 + ["WWW."], B)
    with pytest.raises(ValueError, match="over"):
        choose_move(over, level=5)


def test_a_negative_time_limit_is_refused() -> None:
    with pytest.raises(ValueError, match="time limit"):
        choose_move(OthelloPosition.start(8), level=5, time_limit=-1.0)


# Steps and limits are powers of two: the sums below are exact in floating point.
@pytest.mark.parametrize(("size", "time_limit"), [(8, 0.25), (8, 0.0), (16, 0.0625)])
def test_the_time_limit_holds(size: int, time_limit: float) -> None:
    start = random_position(random.Random(size), size, size * size - 20)
    clock = FakeClock(step=2**-10)
    chosen = choose_move(start, level=10, time_limit=time_limit, clock=clock)
    assert chosen in start.legal_moves()
    # The deadline is read once when the search starts; it stops at the first reading past it.
    assert clock.now <= clock.step + time_limit + clock.step


def test_an_exact_solve_cut_short_answers_with_the_midgame_search() -> None:
    endgame = random_position(random.Random(14), 8, LEVELS[10].endgame)
    clock = FakeClock(step=2**-10)
    assert choose_move(endgame, level=10, clock=clock) in endgame.legal_moves()
    assert clock.now <= LEVELS[10].seconds + 2 * clock.step


def test_a_level_keeps_to_its_own_time_without_a_limit() -> None:
    clock = FakeClock(step=2**-10)
    choose_move(OthelloPosition.start(8), level=10, clock=clock)
    assert clock.now <= LEVELS[10].seconds + 2 * clock.step


@pytest.mark.parametrize("size", range(4, 17, 2))
@pytest.mark.parametrize("level", [1, 4, 7, 10])
def test_every_board_size_gets_a_legal_move(size: int, level: int) -> None:
    rng = random.Random(size * 100 + level)
    current = OthelloPosition.start(size)
    for _ in range(6):
        if current.is_over:
            break
        clock = FakeClock(step=0.01)
        chosen = choose_move(current, level=level, seed=rng.randrange(1000), clock=clock)
        if chosen is None:
            current = current.play(Move.pass_turn())[0]
            continue
        assert chosen in current.legal_moves()
        current = current.play(Move.place(chosen))[0]
        if current.is_over:
            break
        legal = current.legal_moves()
        current = current.play(Move.place(rng.choice(legal)) if legal else Move.pass_turn())[0]


def test_the_same_seed_gives_the_same_move_and_the_weakest_level_varies() -> None:
    start = random_position(random.Random(9), 8, 44)
    moves = {choose_move(start, level=1, seed=seed, clock=FakeClock()) for seed in range(20)}
    again = {choose_move(start, level=1, seed=seed, clock=FakeClock()) for seed in range(20)}
    assert moves == again
    assert len(moves) > 1
    assert [choose_move(start, level=1, seed=seed) for seed in range(20)] == [
        choose_move(start, level=1, seed=seed) for seed in range(20)
    ]
