"""The GNU Go bridge (gameengine/gnugo.py): coordinates, replays, moves, dead stones,
and what happens when the engine hangs or dies.

Boards are drawn top row first, as ``GoPosition.rows()`` draws them. The tests that
need GNU Go take the ``gnugo`` fixture (skipped without it, failed under CI); those
about timeouts and crashes use the fake engine, so they never wait for GNU Go.
"""

from __future__ import annotations

import logging
import os
import random
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from gameengine.gnugo import (
    LEVELS,
    STRENGTH,
    GnuGo,
    GoGame,
    Strength,
    available,
    choose_move,
    dead_stones,
    gnugo_command,
    point_of,
    replay,
    vertex,
)
from gameengine.gtp import GtpEngine, GtpError
from gamerules.base import Color, InvalidMoveError, Move, Point
from gamerules.go import (
    MAX_HANDICAP,
    GoPosition,
    handicap_counts,
    handicap_points,
    handicap_position,
)

B, W = Color.BLACK, Color.WHITE
SIZES = [5, 7, 9, 11, 13, 15, 17, 19]


@pytest.fixture(scope="module")
def gnugo(gnugo_path: str) -> Iterator[GnuGo]:
    """One GNU Go for the module, as a server's worker would keep it."""
    with GnuGo(gnugo_path, rng=random.Random(2024)) as engine:
        yield engine


def setup_of(rows: Sequence[str]) -> dict[Color, list[Point]]:
    """The stones drawn in ``rows``, by colour."""
    stones: dict[Color, list[Point]] = {B: [], W: []}
    for row, line in enumerate(rows):
        for col, letter in enumerate(line):
            if letter != ".":
                stones[Color.from_letter(letter)].append((row, col))
    return stones


def game_of(rows: Sequence[str], komi: float = 0.5) -> GoGame:
    """The game that starts from the position drawn in ``rows``, no move played yet."""
    return GoGame.of(size=len(rows), komi=komi, setup=setup_of(rows))


def random_game(
    size: int, length: int, seed: int, start: Sequence[str] | None = None
) -> tuple[GoGame, GoPosition]:
    """A game of up to ``length`` random legal moves (a pass now and then) checked by our rules,
    from the empty board or the position drawn as ``start``; and its last position."""
    rng = random.Random(seed)
    position = GoPosition.from_rows(start, B) if start else GoPosition.start(size)
    moves: list[tuple[Color, Point | None]] = []
    for _ in range(length):
        legal = position.legal_moves()
        point = rng.choice(legal) if legal and rng.random() > 0.05 else None
        if point is None and position.consecutive_passes:
            break  # a second pass would end the game
        moves.append((position.to_move, point))
        position, _ = position.play(Move.pass_turn() if point is None else Move.place(point))
    setup = setup_of(start) if start else None
    return GoGame.of(size=size, komi=7.5, setup=setup, moves=moves), position


def gnugo_rows(engine: GtpEngine, size: int) -> list[str]:
    """The board GNU Go holds, drawn as rows, from ``list_stones``."""
    grid = [["."] * size for _ in range(size)]
    for color in (B, W):
        for text in engine.send(f"list_stones {color.value}").split():
            point = point_of(text, size)
            assert point is not None
            grid[point[0]][point[1]] = color.letter
    return ["".join(line) for line in grid]


# Coordinates


@pytest.mark.parametrize(
    ("point", "size", "text"),
    [
        ((0, 0), 19, "A19"),
        ((18, 0), 19, "A1"),
        ((18, 18), 19, "T1"),
        ((15, 3), 19, "D4"),
        ((0, 7), 9, "H9"),
        ((0, 8), 9, "J9"),
        ((8, 8), 9, "J1"),
        ((2, 2), 5, "C3"),
        ((4, 4), 5, "E1"),
        ((6, 12), 13, "N7"),
    ],
)
def test_points_and_vertices_both_ways(point: Point, size: int, text: str) -> None:
    assert vertex(point, size) == text
    assert point_of(text, size) == point
    assert point_of(text.lower(), size) == point


@pytest.mark.parametrize("size", SIZES)
def test_every_point_round_trips_and_no_vertex_uses_i(size: int) -> None:
    points = [(row, col) for row in range(size) for col in range(size)]
    texts = [vertex(point, size) for point in points]
    assert not any("I" in text for text in texts)
    assert len(set(texts)) == size * size
    assert [point_of(text, size) for text in texts] == points


@pytest.mark.parametrize("text", ["pass", "PASS", "Pass"])
def test_pass_is_no_point(text: str) -> None:
    assert point_of(text, 9) is None


@pytest.mark.parametrize(("text", "size"), [("I5", 9), ("K1", 9), ("A10", 9), ("F1", 5), ("", 5)])
def test_a_vertex_off_the_board_is_refused(text: str, size: int) -> None:
    with pytest.raises(InvalidMoveError):
        point_of(text, size)


@pytest.mark.parametrize("size", SIZES)
def test_gnu_go_puts_stones_where_we_say(gnugo_path: str, size: int) -> None:
    last = size - 1
    points = {(0, 0), (0, last), (last, 0), (last, last), (size // 2, size // 2)}
    points |= {(1, 7), (2, 8)} if size > 9 else set()  # either side of the missing I
    game = GoGame.of(size=size, komi=0, setup={B: points})
    with GtpEngine(gnugo_command(gnugo_path)) as engine:
        replay(engine, game)
        listed = {point_of(text, size) for text in engine.send("list_stones black").split()}
    assert listed == points


# Handicap


def test_our_handicap_points_are_gnu_gos_fixed_handicap(gnugo_path: str) -> None:
    """Every size and number of stones, 0 to 10: where we place stones, GNU Go's
    ``fixed_handicap`` places the same; where it refuses, we take none. It also places
    six to nine on 9x9, which the contract stops at five."""
    with GtpEngine(gnugo_command(gnugo_path)) as engine:
        for size in range(3, 20, 2):
            engine.send(f"boardsize {size}")
            for stones in range(11):
                engine.send("clear_board")
                try:
                    placed = {
                        point_of(text, size)
                        for text in engine.send(f"fixed_handicap {stones}").split()
                    }
                except GtpError:
                    placed = None
                ours = (
                    set(handicap_points(size, stones)) if stones in handicap_counts(size) else None
                )
                beyond_ours = size == 9 and stones > MAX_HANDICAP[9]
                if ours is not None or not beyond_ours:
                    assert ours == placed, f"{size}x{size}, {stones} stones"


def test_gnu_go_answers_as_white_in_a_handicap_game(gnugo: GnuGo) -> None:
    for size, stones in ((9, 3), (19, 9)):
        position = handicap_position(size, stones)
        game = GoGame.of(size=size, komi=0.5, setup=setup_of(position.rows()))
        answer = gnugo.choose_move(game, W, level=10)
        assert answer in position.legal_moves(), f"{size}x{size}: {answer}"


# Replays


@pytest.mark.parametrize(("size", "length", "seed"), [(9, 120, 1), (9, 150, 2), (13, 250, 3)])
def test_a_replayed_game_gives_our_board(
    gnugo_path: str, size: int, length: int, seed: int
) -> None:
    game, position = random_game(size, length, seed)
    assert sum(position.prisoners.values()) > 0, "the game should test captures"
    with GtpEngine(gnugo_command(gnugo_path)) as engine:
        replay(engine, game)
        assert gnugo_rows(engine, size) == position.rows()
        assert engine.send("get_komi") == "7.5"


def test_a_game_from_a_setup_replays_too(gnugo_path: str) -> None:
    start = [
        ".........",
        ".........",
        "..B...W..",
        ".........",
        "....B....",
        ".........",
        "..W...B..",
        ".........",
        ".........",
    ]
    game, position = random_game(9, 60, 4, start)
    assert game.setup[:2] == ((B, (2, 2)), (B, (4, 4)))
    with GtpEngine(gnugo_command(gnugo_path)) as engine:
        replay(engine, game)
        assert gnugo_rows(engine, 9) == position.rows()


def test_a_move_gnu_go_refuses_raises_gtp_error(gnugo: GnuGo) -> None:
    game = GoGame.of(size=9, komi=7, moves=[(B, (4, 4)), (W, (4, 4))])
    with pytest.raises(GtpError, match="illegal move"):
        gnugo.choose_move(game, B, level=10)


# Moves


@pytest.mark.parametrize(("level", "seed"), [(1, 5), (1, 6), (3, 7), (5, 8), (10, 9)])
def test_the_computer_plays_a_legal_point(gnugo: GnuGo, level: int, seed: int) -> None:
    game, position = random_game(9, 30, seed)
    answer = gnugo.choose_move(game, position.to_move, level=level)
    assert answer in position.legal_moves()


CAPTURE = [
    ".......",
    ".......",
    ".BBBB..",
    "BWWWW..",
    ".BBBB..",
    ".......",
    ".......",
]


def test_the_computer_captures_a_big_group_in_atari(gnugo_path: str) -> None:
    # Four white stones with one liberty, F4 (3, 5): Black takes them.
    answer = choose_move(
        size=7, komi=0.5, setup=setup_of(CAPTURE), moves=[], to_move=B, level=10, path=gnugo_path
    )
    assert answer == (3, 5)


SETTLED = [
    ".BW.W",
    "BBWWW",
    ".BW.W",
    "BBWWW",
    ".BW.W",
]
"""Both sides alive with eyes only, no neutral point: nothing is left to play."""

HOPELESS = [
    ".B.B.",
    "BBBBB",
    "BBBBB",
    "BBBBB",
    ".B.B.",
]
"""Black owns the board: White has nothing to hope for."""


@pytest.mark.parametrize("level", [1, 10])
def test_the_computer_passes_when_nothing_is_left_to_play(gnugo: GnuGo, level: int) -> None:
    assert gnugo.choose_move(game_of(SETTLED), W, level=level) is None


def test_the_computer_resigns_a_hopeless_game(gnugo: GnuGo) -> None:
    assert gnugo.choose_move(game_of(HOPELESS), W, level=10) == "resign"


def test_random_moves_are_legal_and_never_fill_an_own_eye(gnugo_path: str) -> None:
    start = [
        ".B.B...",
        "BBBB...",
        ".......",
        ".....W.",
        ".......",
        ".......",
        ".......",
    ]
    eyes = {(0, 0), (0, 2)}
    position = GoPosition.from_rows(start, B)
    with GnuGo(gnugo_path, rng=random.Random(1)) as engine:
        answers = [engine.genmove(game_of(start), B, Strength(0, 1.0)) for _ in range(20)]
    assert all(answer in position.legal_moves() for answer in answers)
    assert not eyes & set(answers)
    assert len(set(answers)) > 5, "random moves should differ"


def test_the_levels_grow_stronger() -> None:
    assert list(STRENGTH) == list(LEVELS)
    strengths = [STRENGTH[level] for level in LEVELS]
    assert [s.gnugo_level for s in strengths] == sorted(s.gnugo_level for s in strengths)
    assert [s.random_share for s in strengths] == sorted(
        (s.random_share for s in strengths), reverse=True
    )
    assert STRENGTH[10] == Strength(10, 0.0)


@pytest.mark.parametrize("level", [0, 11, -1])
def test_a_level_out_of_range_is_refused(level: int) -> None:
    with GnuGo("/nonexistent/gnugo") as engine, pytest.raises(ValueError, match="1 to 10"):
        engine.choose_move(GoGame(9, 7.5), B, level=level)


# Dead stones

DEAD = [
    "...BW..",
    "...BW..",
    ".W.BW..",
    "...BW..",
    "...BW.B",
    "...BW..",
    "...BW..",
]


def test_dead_stones_are_those_gnu_go_counts_dead(gnugo_path: str) -> None:
    dead = dead_stones(size=7, komi=0.5, setup=setup_of(DEAD), moves=[], path=gnugo_path)
    assert dead == {(2, 1), (4, 6)}


def test_no_stone_is_dead_on_a_settled_board(gnugo: GnuGo) -> None:
    assert gnugo.dead_stones(game_of(SETTLED)) == set()


def test_dead_stones_after_moves(gnugo: GnuGo) -> None:
    # The same position reached by moves, passes included, instead of a setup.
    moves = [(color, point) for color, points in setup_of(DEAD).items() for point in points]
    played: list[tuple[Color, Point | None]] = []
    for color, point in sorted(moves, key=lambda move: move[0] is W):
        played += [(color, point), (color.opponent, None)]
    assert gnugo.dead_stones(GoGame.of(size=7, komi=0.5, moves=played)) == {(2, 1), (4, 6)}


# Hangs and deaths


@pytest.mark.parametrize(
    ("said", "answer"),
    [("PASS", None), ("pass", None), ("resign", "resign"), ("c3", (6, 2)), ("J9", (0, 8))],
)
def test_gnu_go_answers_are_mapped(
    fake_program: Callable[..., str], said: str, answer: object
) -> None:
    with GnuGo(fake_program("--genmove", said)) as engine:
        assert engine.choose_move(GoGame(9, 7.5), B, level=10) == answer


def test_a_slow_genmove_is_asked_again_at_a_lower_level(
    fake_program: Callable[..., str], caplog: pytest.LogCaptureFixture
) -> None:
    # The fake thinks a minute above GNU Go's level 0 (the fallback level).
    start = time.monotonic()
    with GnuGo(fake_program("--slow-above", "0")) as engine:
        assert engine.choose_move(GoGame(9, 7.5), B, level=10, time_limit=0.5) == (6, 2)
    assert time.monotonic() - start < 3
    assert "asking again at GNU Go level 0" in caplog.text


def test_the_computer_passes_when_the_second_try_fails_too(
    fake_program: Callable[..., str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    start = time.monotonic()
    with GnuGo(fake_program("--slow-above", "-1")) as engine:
        assert engine.choose_move(GoGame(9, 7.5), B, level=5, time_limit=0.5) is None
        assert engine.pid is None
    assert time.monotonic() - start < 3
    assert "the computer passes" in caplog.text


def test_a_crash_in_genmove_is_survived(fake_program: Callable[..., str], tmp_path: Path) -> None:
    # The first engine dies in genmove; the second try gets a new one, which answers.
    with GnuGo(fake_program("--crash-once", f"{tmp_path}/crashed")) as engine:
        assert engine.choose_move(GoGame(9, 7.5), B, level=10) == (6, 2)


def test_a_killed_gnu_go_is_restarted(gnugo_path: str) -> None:
    game = GoGame.of(size=9, komi=7.5, moves=[(B, (4, 4))])
    with GnuGo(gnugo_path) as engine:
        assert engine.pid is None
        engine.choose_move(game, W, level=1)
        first = engine.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        assert engine.choose_move(game, W, level=1) in GoPosition.start(9).legal_moves()
        assert engine.pid not in (None, first)
    assert engine.pid is None


def test_available_tells_whether_the_program_runs(gnugo_path: str) -> None:
    assert available(gnugo_path)
    assert not available("/nonexistent/gnugo")
    assert not available(__file__)  # a file, but not executable
