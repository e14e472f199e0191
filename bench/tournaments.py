"""Tournament pairing speed (a benchmark, not a test): figures printed, nothing asserted.

Pure functions only (``tournaments.systems``), in this process, no database. Each call's
wall time and CPU time are printed: on a shared machine the CPU time is the call's own
cost, the wall time what it took with the others' load.

1. An arena wave: ``pair_arena`` for 1,000 free players whose standings and last
   opponents come from 12 earlier waves of simulated games (ratings normal, mean 1500,
   sd 350; results by the Elo expectation, 10 % draws; 15 % berserk). Time of the wave
   over several seeds (the target: within 1 s), with ``arena_scores`` beside it.
2. A Swiss round: ``pair_swiss`` for round 6 of 500 players after 5 simulated rounds
   (same ratings and results; byes when odd). Time over several seeds (the target:
   within 2 s), the matchings it took (1 when the first offer pairs everybody), the pairs
   across score groups against the groups of odd size (a float joins two of them: half
   their number is the least there can be, barring rematches), and how many players got
   the colour they were due; ``swiss_scores`` beside it. The same for 501 (a bye), for a
   McMahon of 500 (ranks from the ratings, bar 3d) and for 80 players (every allowed
   pair offered).

    .venv/bin/python bench/tournaments.py              # about a minute
    .venv/bin/python bench/tournaments.py --seeds 2    # fewer repetitions
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import networkx

from tournaments.systems import swiss
from tournaments.systems.arena import arena_scores, last_opponents, pair_arena
from tournaments.systems.matching import best_pairs
from tournaments.systems.mcmahon import pair_mcmahon, start_scores
from tournaments.systems.ranks import parse_rank, rank_from_number
from tournaments.systems.records import Entrant, Played, Result

T = TypeVar("T")
DRAWS = 0.1
BERSERK = 0.15


def machine() -> str:
    """The machine, the software and the date, in one line."""
    model = "unknown CPU"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    cores = len(os.sched_getaffinity(0))
    return (
        f"{datetime.date.today()} | {cores} cores (nproc), {model} | "
        f"Python {platform.python_version()}, networkx {networkx.__version__}"
    )


def timed(call: Callable[[], T]) -> tuple[T, float, float]:
    """``call``'s answer, wall time and this process's CPU time (the machine may be
    shared: the CPU time is what the call itself cost)."""
    wall, cpu = time.perf_counter(), time.process_time()
    answer = call()
    return answer, time.perf_counter() - wall, time.process_time() - cpu


def spread(seconds: Iterable[float]) -> str:
    values = sorted(seconds)
    return f"median {statistics.median(values):.3f} s, max {values[-1]:.3f} s"


def players(count: int, rng: random.Random) -> list[Entrant]:
    """``count`` entrants with ratings normal around 1500 (sd 350), kept within
    600..2900, and the Go rank of each rating (as OGS shows it)."""
    made = []
    for id in range(1, count + 1):
        rating = min(2900.0, max(600.0, rng.gauss(1500, 350)))
        rank = rank_from_number(math.log(rating / 525) * 23.15)
        made.append(Entrant(id, rating, rank, id))
    return made


def result(black: Entrant, white: Entrant, rng: random.Random) -> Result:
    """A result by the Elo expectation, with ``DRAWS`` of draws."""
    if rng.random() < DRAWS:
        return "draw"
    expected = 1 / (1 + 10 ** ((white.rating - black.rating) / 400))
    return "black" if rng.random() < expected else "white"


# The arena


def arena_history(entrants: list[Entrant], waves: int, rng: random.Random) -> list[Played]:
    """``waves`` of games between the entrants, each wave paired by ``pair_arena`` as the
    server would, every game over before the next wave."""
    games: list[Played] = []
    by_id = {entrant.id: entrant for entrant in entrants}
    for wave in range(1, waves + 1):
        standings = arena_scores(entrants, games)
        pairs = pair_arena(entrants, standings, last_opponents(games), rng)
        for black, white in pairs:
            games.append(
                Played(
                    wave,
                    black,
                    white,
                    result(by_id[black], by_id[white], rng),
                    black_moves=rng.randrange(3, 40),
                    white_moves=rng.randrange(3, 40),
                    black_berserk=rng.random() < BERSERK,
                    white_berserk=rng.random() < BERSERK,
                )
            )
    return games


def bench_arena(count: int, seeds: int) -> None:
    print(f"\n1. Arena: one wave of {count} free players after 12 waves of games")
    walls, cpus, scorings = [], [], []
    for seed in range(seeds):
        rng = random.Random(seed)
        entrants = players(count, rng)
        games = arena_history(entrants, 12, rng)
        standings, _, scoring = timed(lambda: arena_scores(entrants, games))  # noqa: B023
        last = last_opponents(games)
        free = rng.sample(entrants, count)  # the order they became free
        pairs, wall, cpu = timed(lambda: pair_arena(free, standings, last, rng))  # noqa: B023
        walls.append(wall)
        cpus.append(cpu)
        scorings.append(scoring)
        top = max(standing.score for standing in standings.values())
        print(
            f"   seed {seed}: {len(games)} games before, top score {top}; "
            f"{len(pairs)} pairs, {count - 2 * len(pairs)} waiting; "
            f"wave {wall:.3f} s wall, {cpu:.3f} s CPU"
        )
    print(f"   pair_arena:   wall {spread(walls)}; CPU {spread(cpus)}  (target: within 1 s)")
    print(f"   arena_scores: CPU {spread(scorings)}")


# The Swiss and McMahon


def swiss_history(
    entrants: list[Entrant],
    rounds: int,
    rng: random.Random,
    pair: Callable[[list[Played], int], swiss.SwissRound],
) -> list[Played]:
    """``rounds`` rounds paired by ``pair``, with results by the Elo expectation."""
    games: list[Played] = []
    by_id = {entrant.id: entrant for entrant in entrants}
    for number in range(1, rounds + 1):
        made = pair(games, number)
        for black, white in made.pairings:
            games.append(Played(number, black, white, result(by_id[black], by_id[white], rng)))
        if made.bye is not None:
            games.append(Played(number, made.bye, None, "bye"))
    return games


def quality(
    made: swiss.SwissRound, scores: dict[int, float], histories: dict[int, swiss.History]
) -> str:
    """The pairs across score groups, the groups of odd size, and the colours as due."""
    floats = sum(1 for black, white in made.pairings if scores[black] != scores[white])
    sizes: dict[float, int] = {}
    for player in (player for pair in made.pairings for player in pair):
        sizes[scores[player]] = sizes.get(scores[player], 0) + 1
    odd = sum(1 for size in sizes.values() if size % 2)
    content = sum(
        (swiss.due(histories[black].colours).wants in (None, "black"))
        + (swiss.due(histories[white].colours).wants in (None, "white"))
        for black, white in made.pairings
    )
    return f"{floats} floats ({odd} odd groups), {content}/{2 * len(made.pairings)} colours as due"


def bench_swiss(count: int, rounds: int, seeds: int, system: str) -> None:
    bar = parse_rank("3d")
    print(f"\n{system}: round {rounds + 1} of {count} players after {rounds} rounds")
    walls, cpus, scorings = [], [], []
    for seed in range(seeds):
        rng = random.Random(seed)
        entrants = players(count, rng)
        starts: dict[int, float] = {}
        if "McMahon" in system:
            starts = dict(start_scores(entrants, bar))

            def pair(games: list[Played], number: int) -> swiss.SwissRound:
                return pair_mcmahon(entrants, games, number, bar)  # noqa: B023
        else:

            def pair(games: list[Played], number: int) -> swiss.SwissRound:
                return swiss.pair_swiss(entrants, games, number)  # noqa: B023

        games = swiss_history(entrants, rounds, rng, pair)
        _, _, scoring = timed(lambda: swiss.swiss_scores(entrants, games))  # noqa: B023
        # The matchings it took: the calls of networkx's, one a try.
        with mock.patch.object(swiss, "best_pairs", wraps=best_pairs) as matchings:
            made, wall, cpu = timed(lambda: pair(games, rounds + 1))  # noqa: B023
        histories = swiss.histories([entrant.id for entrant in entrants], games)
        scores = {id: starts.get(id, 0.0) + history.points for id, history in histories.items()}
        walls.append(wall)
        cpus.append(cpu)
        scorings.append(scoring)
        print(
            f"   seed {seed}: {len(made.pairings)} pairs, bye {made.bye is not None}, "
            f"{matchings.call_count} matching(s); {quality(made, scores, histories)}; "
            f"{wall:.3f} s wall, {cpu:.3f} s CPU"
        )
    print(f"   pairing:      wall {spread(walls)}; CPU {spread(cpus)}  (target: within 2 s)")
    print(f"   swiss_scores: CPU {spread(scorings)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=5, help="repetitions (default 5)")
    arguments = parser.parse_args()
    print(machine())
    bench_arena(1000, arguments.seeds)
    bench_swiss(500, 5, arguments.seeds, "2. Swiss")
    bench_swiss(501, 5, arguments.seeds, "3. Swiss, odd")
    bench_swiss(500, 5, arguments.seeds, "4. McMahon (bar 3d)")
    bench_swiss(80, 5, arguments.seeds, "5. Swiss, every pair offered")


if __name__ == "__main__":
    main()
