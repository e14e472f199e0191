"""GNU Go's thinking time per level, and how strong the computer's levels play (a
benchmark, not a test). The machine is shared, so run it niced:

    nice -n 19 .venv/bin/python bench/gnugo.py                    # times: about 5 minutes
    nice -n 19 .venv/bin/python bench/gnugo.py --quick            # times: about 2 minutes
    nice -n 19 .venv/bin/python bench/gnugo.py --match 1 0/0 --games 20

Times: for each GNU Go level 0..10, GNU Go plays itself from the empty board
(komi 7.5, random seed 1, so a run repeats) and every ``genmove`` is timed: moves
1-30 on 9x9 (the opening and much of the middle game), and on 19x19 moves 1-60
(the opening) and 61-120 (the middle game). Printed per stretch: mean, median
and longest move, and the total. GNU Go's opening book makes the first few
moves almost free. ``--quick``: levels 0 and 10 only.

Matches (``--match A B``): 9x9 games, komi 7.5, between two strengths, each
taking Black in half the games. A strength is one of our levels (``5``), or
GNU Go's level and the share of random moves written ``G/R`` (``0/0.5``).
Each move goes through ``GnuGo.genmove`` as the server's would, the whole game
replayed; a game ends on two passes, a resignation or 160 moves, and is
scored by GNU Go's ``final_score`` (area counting). Printed: A's wins, B's wins
and the mean margin from A's side.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameengine.gnugo import (
    STRENGTH,
    GnuGo,
    GoGame,
    Strength,
    available,
    gnugo_command,
    replay,
)
from gameengine.gtp import GtpEngine
from gamerules.base import Color, Point

KOMI = 7.5
STRETCHES = {9: ((1, 30),), 19: ((1, 60), (61, 120))}
"""The moves timed on each size, first and last of each stretch (1 is the first move)."""
MATCH_SIZE = 9
MATCH_MOVES = 160


def genmove_times(size: int, level: int, moves: int) -> list[float]:
    """Seconds of each ``genmove`` while GNU Go at ``level`` plays itself for ``moves`` moves."""
    times = []
    with GtpEngine(gnugo_command(), timeout=300) as engine:
        replay(engine, GoGame(size, KOMI))
        engine.send(f"level {level}")
        engine.send("set_random_seed 1")
        for ply in range(moves):
            color = Color.BLACK if ply % 2 == 0 else Color.WHITE
            start = time.perf_counter()
            engine.send(f"genmove {color.value}")
            times.append(time.perf_counter() - start)
    return times


def print_times(quick: bool) -> None:
    """Prints the table of ``genmove`` times by size and GNU Go level."""
    print("size   moves    level  mean s  median s  max s  total s")
    for size, stretches in STRETCHES.items():
        for level in (0, 10) if quick else range(11):
            times = genmove_times(size, level, stretches[-1][1])
            for first, last in stretches:
                part = times[first - 1 : last]
                print(
                    f"{size:>2}x{size:<2}  {first:>3}-{last:<3}  {level:>5}"
                    f" {statistics.mean(part):>7.3f} {statistics.median(part):>9.3f}"
                    f" {max(part):>6.2f} {sum(part):>8.1f}",
                    flush=True,
                )


def parse_strength(text: str) -> Strength:
    """A strength written as one of our levels (``5``) or as ``G/R`` (``0/0.5``)."""
    if "/" in text:
        level, share = text.split("/")
        return Strength(int(level), float(share))
    return STRENGTH[int(text)]


def play_game(players: dict[Color, tuple[GnuGo, Strength]], referee: GtpEngine) -> float:
    """Plays one game; returns Black's margin (negative when White wins)."""
    moves: list[tuple[Color, Point | None]] = []
    color, passes = Color.BLACK, 0
    while passes < 2 and len(moves) < MATCH_MOVES:
        gnugo, strength = players[color]
        answer = gnugo.genmove(GoGame(MATCH_SIZE, KOMI, tuple(moves)), color, strength)
        if answer == "resign":
            return -1000.0 if color is Color.BLACK else 1000.0
        moves.append((color, answer))
        passes = passes + 1 if answer is None else 0
        color = color.opponent
    replay(referee, GoGame(MATCH_SIZE, KOMI, tuple(moves)))
    # With a half-point komi there is no draw: the score reads B+n or W+n.
    winner, _, margin = referee.send("final_score").partition("+")
    return float(margin) * (1 if winner == "B" else -1)


def print_match(first: str, second: str, games: int) -> None:
    """Plays ``games`` games between two strengths, colours alternating; prints the score."""
    a, b = parse_strength(first), parse_strength(second)
    wins = {first: 0, second: 0}
    margins = []
    with GnuGo() as gnugo_a, GnuGo() as gnugo_b, GtpEngine(gnugo_command()) as referee:
        for game in range(games):
            a_black = game % 2 == 0
            players = {
                Color.BLACK: (gnugo_a, a) if a_black else (gnugo_b, b),
                Color.WHITE: (gnugo_b, b) if a_black else (gnugo_a, a),
            }
            margin = play_game(players, referee) * (1 if a_black else -1)
            margins.append(max(-100.0, min(100.0, margin)))  # a resignation counts 100
            wins[first if margin > 0 else second] += 1
    mean = statistics.mean(margins)
    print(
        f"{first} vs {second}: {wins[first]}-{wins[second]} in {games} games,"
        f" mean margin {mean:+.1f} for {first} (resignations as 100)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer levels and moves")
    parser.add_argument("--match", nargs=2, metavar=("A", "B"), help="play A against B")
    parser.add_argument("--games", type=int, default=10, help="games of a match (default 10)")
    args = parser.parse_args()
    if not available():
        sys.exit("GNU Go is not installed at /usr/games/gnugo (apt-get install gnugo)")
    if args.match:
        first, second = args.match
        print_match(first, second, args.games)
    else:
        print_times(args.quick)


if __name__ == "__main__":
    main()
