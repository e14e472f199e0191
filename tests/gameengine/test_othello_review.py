"""The review's Othello verdicts (gameengine/othello/review.py) against a plain minimax.

Random games on 4x4 and 6x6 boards are played to the end; at every ply the
verdict on a position with few enough empty squares must be the perfect-play
result a plain minimax finds (no pruning, no tables but a cache of positions),
and its best move one of the minimax's perfect moves.
"""

from __future__ import annotations

import doctest
import functools
import random

import pytest

import gameengine.othello.review
from gameengine.analysis import verdict
from gameengine.othello.review import EXACT_EMPTIES, Analyser
from gamerules.base import Color, Move, Point
from gamerules.othello import OthelloPosition, _flipped_bits, _geometry, _legal_bits

B, W = Color.BLACK, Color.WHITE


def stopped_clock() -> float:
    """A clock that never moves: every midgame search runs to the end of its depths."""
    return 0.0


@functools.cache
def minimax(size: int, own: int, other: int) -> int:
    """The final margin of ``own`` (to move) over ``other`` with best play, by brute force."""
    geometry = _geometry(size)
    moves = _legal_bits(geometry, own, other)
    if not moves:
        if not _legal_bits(geometry, other, own):
            return own.bit_count() - other.bit_count()
        return -minimax(size, other, own)
    best = None
    for index in range(geometry.board.bit_length()):
        move = 1 << index
        if moves & move:
            flipped = _flipped_bits(geometry, move, own, other)
            value = -minimax(size, other ^ flipped, own | move | flipped)
            best = value if best is None else max(best, value)
    assert best is not None
    return best


def perfect(position: OthelloPosition) -> tuple[int, set[Point]]:
    """The perfect-play result from Black's side, and the perfect moves of the side to move."""
    black, white = position.bitboards()
    sign = 1 if position.to_move is B else -1
    own, other = (black, white) if sign == 1 else (white, black)
    value = sign * minimax(position.size, own, other)
    moves = {
        point
        for point in position.legal_moves()
        if value == after_value(position.play(Move.place(point))[0])
    }
    return value, moves


def after_value(position: OthelloPosition) -> int:
    """The perfect-play result of ``position`` from Black's side."""
    black, white = position.bitboards()
    if position.to_move is B:
        return minimax(position.size, black, white)
    return -minimax(position.size, white, black)


def random_game(size: int, seed: int) -> list[OthelloPosition]:
    """Every position of a game of random moves on a ``size`` board, to its end."""
    rng = random.Random(seed)
    position = OthelloPosition.start(size)
    positions = [position]
    while not position.is_over:
        legal = position.legal_moves()
        move = Move.place(rng.choice(legal)) if legal else Move.pass_turn()
        position = position.play(move)[0]
        positions.append(position)
    return positions


def empties(position: OthelloPosition) -> int:
    black, white = position.bitboards()
    return position.size**2 - (black | white).bit_count()


def test_doctests() -> None:
    assert doctest.testmod(gameengine.othello.review).failed == 0


def check_line(position: OthelloPosition, line: tuple[object, ...]) -> None:
    """``line`` is a legal sequence of moves from ``position``."""
    for step in line:
        move = Move.pass_turn() if step == "pass" else Move.place(step)  # type: ignore[arg-type]
        position = position.play(move)[0]


@pytest.mark.parametrize(
    ("size", "seed", "solved_by_minimax"),
    [(4, seed, 12) for seed in range(6)] + [(6, seed, 12) for seed in range(3)],
)
def test_exact_verdicts_match_a_plain_minimax(size: int, seed: int, solved_by_minimax: int) -> None:
    analyser = Analyser(size, clock=stopped_clock, seconds=0.0)
    for position in random_game(size, seed):
        verdict = analyser.verdict(position)
        check_line(position, verdict.pv)
        assert len(verdict.pv) <= 10
        left = empties(position)
        assert verdict.exact == (left <= EXACT_EMPTIES or position.is_over)
        if left > solved_by_minimax:
            continue
        value, moves = perfect(position)
        assert verdict.eval == value
        if position.is_over:
            assert (verdict.best, verdict.pv) == (None, ())
        elif position.must_pass:
            assert verdict.best == "pass"
        else:
            assert verdict.best in moves
            assert verdict.pv[0] == verdict.best


def test_a_forced_pass_is_the_best_move_and_the_line_goes_on() -> None:
    # White has no move; Black has (the corner): White must pass.
    position = OthelloPosition.from_rows(["BBB.", "BBBW", "BBBB", "BBBB"], W)
    assert position.must_pass
    verdict = Analyser(4).verdict(position)
    assert verdict.best == "pass"
    assert verdict.pv[0] == "pass"
    assert verdict.exact
    assert verdict.eval == 16


def test_a_midgame_verdict_is_a_search_from_blacks_side() -> None:
    position = random_game(8, 1)[10]
    verdict = Analyser(8, clock=stopped_clock, seconds=0.0).verdict(position)
    assert not verdict.exact
    assert verdict.best in position.legal_moves()
    assert 1 <= len(verdict.pv) <= 10
    check_line(position, verdict.pv)
    assert -64 <= verdict.eval <= 64


def test_the_workers_verdict_starts_from_an_imported_setup() -> None:
    # A 4x4 setup with White to move (an imported record's start), then one move.
    start = {"rows": ["....", ".WB.", ".BB.", "...."], "to_move": "white", "handicap": None}
    job = {
        "game_id": "setup",
        "kind": "othello",
        "size": 4,
        "start": start,
        "moves": [("white", (3, 3))],
    }
    before = OthelloPosition.from_rows(start["rows"], W)  # type: ignore[arg-type]
    after = before.play(Move.place((3, 3)))[0]
    assert verdict(job, 0)["eval"] == after_value(before)
    assert verdict(job, 1)["eval"] == after_value(after)
    assert verdict(job, 0)["to_move"] == "white"
