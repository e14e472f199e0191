"""Puzzles: the time to mine a finished game, and next.json with 100,000 puzzles stored.

A benchmark, not a test: it prints figures (docs/benchmarks.md, "Puzzles"). On a fresh
SQLite file of its own (or the PostgreSQL database DATABASE_URL names, which it fills:
give it an empty one), in this process:

1. Mining: GAMES finished 8x8 Othello games are stored (the engine against itself at
   level 4, the first 8 moves at random, so that they differ), then each is mined with
   ``puzzles.services.mine_game`` as ``manage.py mine_puzzles`` and the background worker
   do: the CPU time of each (mean, max) and the puzzles found.
2. ``GET /puzzles/next.json?kind=othello`` through Django's test client with 100,000
   puzzles stored (ratings spread around 1500), for a guest and for an account that
   answered 1,000 of them: wall time, median and max of 50.

    .venv/bin/python bench/puzzles.py            # 100 games (minutes on a loaded machine)
    .venv/bin/python bench/puzzles.py --quick    # 10 games, 20,000 puzzles
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def setup() -> Path | None:
    """Django on a fresh SQLite file (unless DATABASE_URL is set), migrated."""
    database = None
    if not os.environ.get("DATABASE_URL"):
        database = Path(tempfile.gettempdir()) / f"bench-puzzles-{os.getpid()}.sqlite3"
        os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "othello_site.settings")
    os.environ.setdefault("RATE_LIMITS", "off")
    os.environ.setdefault("PUZZLE_MINING", "off")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("SECRET_KEY", "bench-puzzles-" + os.urandom(16).hex())
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return database


def store_games(count: int, seed: int) -> list[int]:
    """``count`` finished 8x8 Othello games of the engine's self-play, stored; their ids."""
    from django.utils import timezone

    from gamerules.base import Move
    from games.models import Game
    from games.models import Move as StoredMove
    from puzzles.mining import self_play

    ids = []
    for number in range(count):
        start, moves = self_play(8, level=4, seed=seed + number)
        position = start
        for _, point in moves:
            position = position.passed() if point is None else position.play(Move.place(point))[0]
        black, white = position.bitboards()
        margin = black.bit_count() - white.bit_count()
        game = Game.objects.create(
            kind="othello",
            size=8,
            status=Game.Status.FINISHED,
            creator_color="black",
            to_move=position.to_move.value,
            snapshot=position.to_snapshot(),
            ply=len(moves),
            result="Draw" if not margin else f"{'B' if margin > 0 else 'W'}+{abs(margin)}",
            finished_at=timezone.now(),
        )
        StoredMove.objects.bulk_create(
            StoredMove(
                game=game,
                ply=ply,
                color="black" if ply % 2 else "white",
                action="pass" if point is None else "place",
                row=None if point is None else point[0],
                col=None if point is None else point[1],
            )
            for ply, point in moves
        )
        ids.append(game.pk)
    return ids


def mining(count: int, seed: int) -> None:
    from puzzles import services
    from puzzles.models import Puzzle

    began = time.monotonic()
    ids = store_games(count, seed)
    print(f"stored {count} self-play games in {time.monotonic() - began:.0f} s")
    seconds = []
    for game_id in ids:
        cpu = time.process_time()
        services.mine_game(game_id=game_id)
        seconds.append(time.process_time() - cpu)
    print(
        f"mining a game, CPU: mean {statistics.mean(seconds):.2f} s, "
        f"median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s; "
        f"{Puzzle.objects.count()} puzzles from {count} games"
    )


def next_json(puzzles: int, answered: int) -> None:
    from django.contrib.auth.models import User
    from django.test import Client

    from puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating

    rng = random.Random(7)
    rows = ["." * 8] * 8
    batch = []
    for number in range(puzzles - Puzzle.objects.count()):
        batch.append(
            Puzzle(
                kind="othello",
                size=8,
                position=f"bench {number}",
                rows=rows,
                to_play="black",
                solution_row=0,
                solution_col=0,
                value=2,
                rating=rng.gauss(1500, 300),
            )
        )
        if len(batch) == 5000:
            Puzzle.objects.bulk_create(batch)
            batch = []
    Puzzle.objects.bulk_create(batch)
    user = User.objects.create_user("bench-solver", password="bench-pass-1")
    PuzzleRating.objects.create(account=user, rating=1500, attempts=answered)
    near = Puzzle.objects.filter(rating__gte=1400).order_by("rating")[:answered]
    PuzzleAttempt.objects.bulk_create(
        PuzzleAttempt(account=user, puzzle=puzzle, correct=True, rating_after=1500)
        for puzzle in near
    )
    for who, client in (("guest", Client()), ("account", Client())):
        if who == "account":
            client.force_login(user)
        client.get("/puzzles/next.json?kind=othello")
        times = []
        for _ in range(50):
            began = time.perf_counter()
            answer = client.get("/puzzles/next.json?kind=othello")
            times.append((time.perf_counter() - began) * 1000)
            assert answer.status_code == 200, answer.content
        print(
            f"next.json, {who} ({Puzzle.objects.count()} puzzles"
            f"{f', {answered} answered' if who == 'account' else ''}): "
            f"median {statistics.median(times):.1f} ms, max {max(times):.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    database = setup()
    try:
        mining(options.games or (10 if options.quick else 100), options.seed)
        next_json(20_000 if options.quick else 100_000, 1000)
    finally:
        if database is not None:
            database.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
