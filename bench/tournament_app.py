"""Tournament pairing through the app (a benchmark, not a test): figures printed.

``bench/tournaments.py`` times the pure pairing; this times what the loop does, the whole
of ``tournaments.services.advance`` (one transaction: the tournament locked, its facts
read, the pure pairing, the games made through games' services, the pairings stored, the
players notified), in this process, no sockets nor Redis, on SQLite (a temporary file)
and on PostgreSQL (a fresh database on 127.0.0.1:5432, dropped at the end).

1. An arena of 1,000 players (ratings normal, mean 1500, sd 350; fixed seed): its first
   wave (everyone free), then, after every game of the earlier waves has ended (results
   written to the games as finished, by the Elo expectation), its fourth wave, when the
   standings and last opponents weigh in. The target: within 1 s a wave. The standings
   sent to the tournament's pages after the commit (T built once) are timed apart.
2. A Swiss of 500 players: rounds 1 to 5 paired through the app, their results written,
   then round 6 timed. The target: within 2 s a round.

    .venv/bin/python bench/tournament_app.py
    .venv/bin/python bench/tournament_app.py --arena 200 --swiss 100   # smaller
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import broadcast
from tests.support.daphne import environment, migrate
from tests.support.processes import django_on, fresh_database

POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
START = datetime.datetime(2026, 11, 26, 18, 0, tzinfo=datetime.UTC)


def run_in(backend: str, arena: int, swiss: int) -> None:
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="bench-tournaments-") as directory:
            url = f"sqlite:///{directory}/tournaments.sqlite3"
            migrate(environment({"DATABASE_URL": url, "SECRET_KEY": "bench"}))
            timed(backend, url, arena, swiss)
    else:
        with fresh_database(POSTGRES, "bench_tournaments") as url:
            timed(backend, url, arena, swiss)


def timed(backend: str, url: str, arena: int, swiss: int) -> None:
    django_on(url)
    from django.contrib.auth import get_user_model

    from gamerules.clock import TimeControl
    from games.models import Game
    from players.models import Rating
    from tournaments import selectors, services
    from tournaments.models import Entry, Tournament, TournamentPairing

    rng = random.Random(7)
    model = get_user_model()
    creator = model.objects.create_user("creator")

    def field(count: int, prefix: str, found: Tournament) -> dict[int, float]:
        users = model.objects.bulk_create(model(username=f"{prefix}{n:04d}") for n in range(count))
        if users[0].pk is None:
            users = list(model.objects.filter(username__startswith=prefix).order_by("pk"))
        ratings = {user.pk: rng.gauss(1500, 350) for user in users}
        category = selectors.category_of(found)
        Rating.objects.bulk_create(
            Rating(user_id=pk, category=category, rating=rating) for pk, rating in ratings.items()
        )
        Entry.objects.bulk_create(
            Entry(tournament=found, user_id=pk, joined_at=START) for pk in ratings
        )
        return ratings

    def finish_all(found: Tournament, ratings: dict[int, float]) -> None:
        """Every game in progress ended, by the Elo expectation, 10 % draws."""
        playing = Game.objects.filter(
            tournament_pairing__tournament=found, status=Game.Status.ACTIVE
        ).values_list("pk", "black_user_id", "white_user_id")
        results: dict[str, list[int]] = {"B+R": [], "W+R": [], "Draw": []}
        for pk, black, white in playing:
            expected = 1 / (1 + 10 ** ((ratings[white] - ratings[black]) / 400))
            roll = rng.random()
            result = "Draw" if roll < 0.1 else "B+R" if rng.random() < expected else "W+R"
            results[result].append(pk)
        for result, pks in results.items():
            Game.objects.filter(pk__in=pks).update(
                status=Game.Status.FINISHED, result=result, finished_at=START
            )

    def advance(found: Tournament, now: datetime.datetime) -> tuple[int, float, float, str]:
        """The pairing's transaction timed; then the standings it tells the pages."""
        with broadcast.outbox(), services.standings_held() as told:
            started, cpu = time.perf_counter(), time.process_time()
            made = services.advance(tournament_id=found.pk, now=now, seed=1)
            timing = len(made), time.perf_counter() - started, time.process_time() - cpu
            started, cpu = time.perf_counter(), time.process_time()
            services.send_standings(told)
            told_wall, told_cpu = time.perf_counter() - started, time.process_time() - cpu
        told_text = (
            f"; then T to the pages {told_wall * 1000:.0f} ms ({told_cpu * 1000:.0f} ms CPU)"
        )
        return (*timing, told_text)

    control = TimeControl.fischer(main_time=180, increment=2)
    common = {"kind": "othello", "size": 8, "time_control": control, "rated": True}
    if arena:
        found = services.create(
            user_id=creator.pk,
            system="arena",
            name="bench arena",
            starts_at=START,
            duration=60,
            now=START,
            **common,
        )
        ratings = field(arena, "a", found)
        for wave in range(1, 5):
            now = START + datetime.timedelta(seconds=wave)
            made, wall, cpu, told = advance(found, now)
            if wave in (1, 4):
                print(
                    f"  {backend}: arena of {arena}, wave {wave}: {made} games in"
                    f" {wall * 1000:.0f} ms ({cpu * 1000:.0f} ms CPU){told}"
                )
            finish_all(found, ratings)
    if swiss:
        found = services.create(
            user_id=creator.pk,
            system="swiss",
            name="bench swiss",
            starts_at=START,
            rounds=6,
            now=START,
            **common,
        )
        ratings = field(swiss, "s", found)
        for number in range(1, 7):
            made, wall, cpu, told = advance(found, START)
            if number in (1, 6):
                byes = TournamentPairing.objects.filter(
                    tournament=found, round=number, game=None
                ).count()
                print(
                    f"  {backend}: Swiss of {swiss}, round {number}: {made} games"
                    f" ({byes} byes) in {wall * 1000:.0f} ms ({cpu * 1000:.0f} ms CPU){told}"
                )
            finish_all(found, ratings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arena", type=int, default=1000)
    parser.add_argument("--swiss", type=int, default=500)
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.backend:
        run_in(options.backend, options.arena, options.swiss)
        return
    print(
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, {platform.node()},"
        f" {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
    )
    for backend in ("sqlite", "postgresql"):
        command = [
            sys.executable,
            __file__,
            "--backend",
            backend,
            "--arena",
            str(options.arena),
            "--swiss",
            str(options.swiss),
        ]
        subprocess.run(command, check=True)


if __name__ == "__main__":
    main()
