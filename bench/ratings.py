"""Ratings: what a rated game's end costs, a long history's profile, a recompute.

A benchmark, not a test: it prints figures (README, "Ratings"). On a fresh SQLite file of
its own (or the PostgreSQL database DATABASE_URL names, which it fills: give it an empty
one), in this process:

1. The CPU of ending a game by resignation, rated against casual (two accounts, two moves
   each game, the same service; the process's CPU time of the call, median and mean).
2. A player with 5,000 rated games (among 100,000 between 1,000 accounts): the profile
   page and its JSON, through Django's test client (wall time, median of 20).
3. ``recompute_ratings`` over those 100,000 games: once writing every game's changes,
   then again on the untouched database (which changes nothing).

    .venv/bin/python bench/ratings.py            # about 3 minutes on SQLite
    .venv/bin/python bench/ratings.py --quick    # 10,000 games, 1,000 for the player
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def setup() -> Path | None:
    """Django on a fresh SQLite file (unless DATABASE_URL is set), migrated."""
    database = None
    if not os.environ.get("DATABASE_URL"):
        database = Path(tempfile.gettempdir()) / f"bench-ratings-{os.getpid()}.sqlite3"
        os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "othello_site.settings")
    os.environ.setdefault("RATE_LIMITS", "off")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("SECRET_KEY", "bench-ratings-" + os.urandom(16).hex())
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return database


def ending_cost(games: int) -> None:
    from django.contrib.auth.models import User

    from accounts.players import Player
    from gamerules.clock import TimeControl
    from games import selectors
    from games.services import lobby, play

    control = TimeControl.fischer(main_time=300, increment=3)
    people = [
        Player(session_key=f"s{n}", user_id=User.objects.create_user(f"end{n}").pk)
        for n in range(2)
    ]
    black, white = people

    def one(rated: bool) -> float:
        game = lobby.create_game(
            player=black,
            new=lobby.NewGame(
                kind="othello", size=8, color="black", name="a", time_control=control, rated=rated
            ),
        )
        lobby.join_game(player=white, game_id=game.public_id, name="b")
        for ply, mover in enumerate((black, white)):
            game.refresh_from_db()
            point = selectors.position_of(game).legal_moves()[0]
            play.play(player=mover, game_id=game.public_id, ply=ply, point=list(point))
        start = time.process_time()
        play.resign(player=white, game_id=game.public_id)
        return (time.process_time() - start) * 1000

    for rated in (True, False):  # warm up both paths
        one(rated)
    rated_ms, casual_ms = [], []
    for _ in range(games):
        rated_ms.append(one(True))
        casual_ms.append(one(False))
    print(f"1. ending a game by resignation, CPU ms ({games} of each, interleaved):")
    for name, values in (("rated", rated_ms), ("casual", casual_ms)):
        median, mean = statistics.median(values), statistics.mean(values)
        print(f"   {name:7} median {median:.2f}  mean {mean:.2f}")
    extra = statistics.mean(rated_ms) - statistics.mean(casual_ms)
    print(f"   extra for a rated game: {extra:.2f} ms (mean)")


def fill(games: int, star_games: int, players: int) -> str:
    """``games`` finished rated Othello 8x8 blitz games between ``players`` accounts, of
    which ``star_games`` are the star's; returns the star's username."""
    from django.contrib.auth.models import User

    from gamerules.clock import TimeControl
    from games.models import Game

    chooser = random.Random(1)
    users = User.objects.bulk_create([User(username=f"p{n}") for n in range(players)])
    star = users[0]
    control = TimeControl.fischer(main_time=300, increment=3).to_json()
    moment = datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)
    batch: list[Game] = []
    star_left = star_games
    for number in range(games):
        if star_left and chooser.random() < star_left / (games - number):
            pair = [star, chooser.choice(users[1:])]
            star_left -= 1
        else:
            pair = chooser.sample(users[1:], 2)
        chooser.shuffle(pair)
        moment += datetime.timedelta(minutes=chooser.randint(1, 20))
        batch.append(
            Game(
                kind="othello",
                size=8,
                creator_color="black",
                snapshot={},
                to_move="black",
                status=Game.Status.FINISHED,
                result=chooser.choice(("B+10", "W+4", "B+R", "W+T", "Draw")),
                ply=60,
                rated=True,
                time_control=control,
                black_user=pair[0],
                black_name=pair[0].username,
                white_user=pair[1],
                white_name=pair[1].username,
                finished_at=moment,
            )
        )
        if len(batch) == 5000:
            Game.objects.bulk_create(batch)
            batch = []
    Game.objects.bulk_create(batch)
    return star.username


def timed(call: Callable[[], object], repeat: int = 1) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="10,000 games, a short run")
    options = parser.parse_args()
    games, star_games, endings = (10_000, 1_000, 50) if options.quick else (100_000, 5_000, 200)
    database = setup()
    try:
        from django.db import connection
        from django.test import Client

        from players import ratings

        print(f"database: {connection.vendor}")
        ending_cost(endings)

        start = time.perf_counter()
        star = fill(games, star_games, 1_000)
        print(f"(stored {games:,} rated games in {time.perf_counter() - start:.1f} s)")

        first = timed(ratings.recompute)[0]
        again = timed(ratings.recompute)[0]
        print(f"3. recompute_ratings over {games:,} games:")
        print(f"   first (writes every change): {first / 1000:.1f} s")
        print(f"   again, untouched database:   {again / 1000:.1f} s")

        client = Client()
        print(f"2. a player with {star_games:,} rated games, wall ms (median of 20):")
        for name, url in (("profile page", f"/players/{star}/"), ("JSON", f"/players/{star}.json")):
            assert client.get(url).status_code == 200
            times = timed(lambda url=url: client.get(url), repeat=20)
            print(f"   {name:13} median {statistics.median(times):.1f}  max {max(times):.1f}")
    finally:
        if database is not None:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{database}{suffix}").unlink(missing_ok=True)


if __name__ == "__main__":
    main()
