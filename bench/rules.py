"""Random-playout throughput of the rules module (a benchmark, not a test).

    .venv/bin/python bench/rules.py            # under a minute
    .venv/bin/python bench/rules.py --quick    # about ten seconds

Othello 8x8: complete random games through the public API (``start``,
``legal_moves``, ``play``, ``is_over``).

Go 9x9 and 19x19: random legal playouts, every move checked in full (occupied,
suicide, positional superko). Each move tries the empty points in random order
through ``play`` until the rules accept one, so the choice is uniform among the
legal moves; with no legal point the side passes. A playout stops after two
passes or at 3 * n * n moves. sgfmill's ``boards.Board`` replays each game
right after it is played (it checks neither suicide nor ko: it only places
stones and removes captures), and the ratio of playouts per second is
printed. Both engines' final boards are compared, so a mismatch would show.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sgfmill import boards  # type: ignore[import-untyped]

from gamerules.base import Color, IllegalMoveError, Move, Point
from gamerules.go import GoPosition
from gamerules.othello import OthelloPosition

GoGame = list[tuple[Color, Point | None]]
T = TypeVar("T")


def othello_game(rng: random.Random) -> int:
    """Plays one random 8x8 game; returns the number of moves (passes included)."""
    position = OthelloPosition.start(8)
    moves = 0
    while not position.is_over:
        legal = position.legal_moves()
        move = Move.place(rng.choice(legal)) if legal else Move.pass_turn()
        position, _ = position.play(move)
        moves += 1
    return moves


def go_playout(size: int, rng: random.Random) -> tuple[GoGame, GoPosition]:
    """One random legal playout; returns its moves and the final position.

    Each move tries the empty points in random order until the rules accept
    one (so the choice is uniform among the legal moves), and passes if none
    is legal. The empty points are kept up to date from each move's diff.
    """
    position = GoPosition.start(size)
    game: GoGame = []
    empty = [(row, col) for row in range(size) for col in range(size)]
    placements = {point: Move.place(point) for point in empty}
    cap = 3 * size * size
    while not position.is_over and len(game) < cap:
        color = position.to_move
        untried = len(empty)
        while untried:
            pick = int(rng.random() * untried)
            point = empty[pick]
            try:
                position, diff = position.play(placements[point])
            except IllegalMoveError:
                untried -= 1
                empty[pick], empty[untried] = empty[untried], point
                continue
            empty[pick] = empty[-1]
            empty.pop()
            empty += diff.captured
            game.append((color, point))
            break
        else:
            position, _ = position.play(Move.pass_turn())
            game.append((color, None))
    return game, position


def sgfmill_replay(size: int, game: GoGame) -> boards.Board:
    """``game`` replayed on sgfmill's board (row 0 is its bottom line)."""
    board = boards.Board(size)
    for color, point in game:
        if point is not None:
            row, col = point
            board.play(size - 1 - row, col, "b" if color is Color.BLACK else "w")
    return board


def sgfmill_rows(board: boards.Board) -> list[str]:
    """The rows of sgfmill's ``board``, top first, as ``GoPosition.rows()`` draws them."""
    size = board.side
    return [
        "".join(
            {None: ".", "b": "B", "w": "W"}[board.get(size - 1 - row, col)] for col in range(size)
        )
        for row in range(size)
    ]


def timed(run: Callable[[], T]) -> tuple[T, float]:
    start = time.perf_counter()
    result = run()
    return result, time.perf_counter() - start


def bench_othello(seconds: float, rng: random.Random) -> None:
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        moves += othello_game(rng)
        games += 1
    elapsed = time.perf_counter() - start
    print(
        f"Othello 8x8   {games / elapsed:9.0f} games/s  {moves / elapsed:9.0f} moves/s"
        f"  ({games} games in {elapsed:.1f} s)"
    )


def bench_go(size: int, seconds: float, rng: random.Random) -> None:
    """Playouts on a ``size`` board and their sgfmill replays for about ``seconds`` in all."""
    # Each playout is replayed by sgfmill right away, so that a change in the
    # machine's load weighs on both engines alike.
    games = moves = mismatches = 0
    ours = theirs = 0.0
    while ours + theirs < seconds:
        (game, final), elapsed = timed(partial(go_playout, size, rng))
        ours += elapsed
        replayed, elapsed = timed(partial(sgfmill_replay, size, game))
        theirs += elapsed
        games += 1
        moves += len(game)
        mismatches += final.rows() != sgfmill_rows(replayed)
    label = f"Go {size}x{size}"
    print(
        f"{label:<13} {games / ours:9.1f} playouts/s {moves / ours:9.0f} moves/s"
        f"  ({games} playouts, {moves / games:.0f} moves each, {ours:.1f} s)"
    )
    print(
        f"{'  sgfmill':<13} {games / theirs:9.1f} playouts/s {moves / theirs:9.0f} moves/s"
        f"  (replaying the same games, {theirs:.1f} s)"
    )
    print(
        f"{'  ratio':<13} {theirs / ours:9.2f}x sgfmill's playouts per second"
        f"  (final boards differing: {mismatches})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (about ten seconds)")
    parser.add_argument("--seed", type=int, default=2024, help="random seed (default 2024)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    seconds = 1.0 if args.quick else 6.0
    print(f"Python {sys.version.split()[0]}, seed {args.seed}")
    bench_othello(seconds, rng)
    bench_go(9, 3 * seconds, rng)
    bench_go(19, 4 * seconds, rng)


if __name__ == "__main__":
    main()
