"""The time to analyse a stored Othello game for the review (a benchmark, not a test).

    .venv/bin/python bench/review.py              # one 8x8 game of two level-5 engines
    .venv/bin/python bench/review.py --games 3 --size 8

Plays a game of the computer against itself (level 5, seeded), then asks the review's
analyser (gameengine.othello.review) for the verdict on every position, as the
engines' worker processes do: prints the total time, the exact part (14 empties or
fewer) and the slowest position. The target on 8x8 is 90 s for a game (README, "Review").
It also prints, for the positions of 15 to 18 empties, the midgame search's score in
evaluation units beside the exact result: the fit behind ``UNITS_PER_DISC``.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from gameengine.othello import choose_move
from gameengine.othello.review import EXACT_EMPTIES, Analyser
from gameengine.othello.search import EXACT, Budget, Search
from gamerules.base import Color, Move
from gamerules.othello import OthelloPosition


def play(size: int, seed: int) -> list[OthelloPosition]:
    """Every position of a game of level 5 against level 5 on a ``size`` board."""
    position = OthelloPosition.start(size)
    positions = [position]
    while not position.is_over:
        point = choose_move(position, level=5, seed=seed + len(positions))
        move = Move.pass_turn() if point is None else Move.place(point)
        position = position.play(move)[0]
        positions.append(position)
    return positions


def empties(position: OthelloPosition) -> int:
    black, white = position.bitboards()
    return position.size**2 - (black | white).bit_count()


def fit(positions: list[OthelloPosition]) -> list[tuple[int, int]]:
    """(midgame score, exact margin) for the side to move at 15..18 empties."""
    pairs = []
    for position in positions:
        if position.is_over or position.must_pass or not 15 <= empties(position) <= 18:
            continue
        black, white = position.bitboards()
        own, other = (black, white) if position.to_move is Color.BLACK else (white, black)
        search = Search(position.size, Budget(time.monotonic, 1.0))
        score = search.iterate(own, other, range(1, 5), every_score=False)[0].score
        solver = Search(position.size, Budget(time.monotonic, math.inf))
        exact = solver.iterate(own, other, [empties(position)], every_score=False)[0].score
        if abs(score) < EXACT:
            pairs.append((score, exact // EXACT))
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--fit", action="store_true", help="also measure UNITS_PER_DISC")
    arguments = parser.parse_args()
    pairs = []
    for game in range(arguments.games):
        positions = play(arguments.size, seed=1000 * game)
        analyser = Analyser(arguments.size)
        times = []
        for position in positions:
            started = time.monotonic()
            analyser.verdict(position)
            times.append((time.monotonic() - started, empties(position)))
        total = sum(seconds for seconds, _ in times)
        exact = sum(seconds for seconds, left in times if left <= EXACT_EMPTIES)
        slowest = max(times)
        print(
            f"game {game + 1}: {len(positions) - 1} moves on {arguments.size}x{arguments.size}: "
            f"{total:.1f} s ({exact:.1f} s exact at {EXACT_EMPTIES} empties or fewer); "
            f"slowest position {slowest[0]:.1f} s at {slowest[1]} empties",
            flush=True,
        )
        if arguments.fit:
            pairs += fit(positions)
    if pairs:
        slope = sum(score * margin for score, margin in pairs) / sum(s * s for s, _ in pairs)
        print(f"{len(pairs)} positions: units per disc {1 / slope:.0f}")
        for score, margin in pairs:
            print(f"  score {score:6d}  exact {margin:+d}")


if __name__ == "__main__":
    main()
