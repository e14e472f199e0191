"""How late flags fall when many clocks run out at once (a benchmark, not a test).

    .venv/bin/python bench/flags.py                 # 200 games, embedded default, then
                                                    # two processes on PostgreSQL + Redis
    .venv/bin/python bench/flags.py --games 50 --embedded-only

N 8x8 Othello games with an absolute clock are created and joined over HTTP (RATE_LIMITS
off: one address creates them all), nobody connected to any of them; then every game's
deadline is set, straight in the database, to the same instant two seconds ahead, so that
every clock runs out at once (the worst case for the clock watch). Nobody has moved, so
the deadline is Black's first move's and each game is aborted (the same watch, the same
query, the same locked transactions as a timeout, which also stores a move). When every
game has ended, the lateness of each is the time it ended (``finished_at``, written in
the transaction that ends it) minus the deadline: printed as p50, p95 and max, with how
many games ended late by more than a second (the contract: within 1 s). Run on the
embedded default (one daphne, SQLite) and on two daphne processes on PostgreSQL (a fresh
database on 127.0.0.1:5432) and Redis (database 6 on 127.0.0.1:6379), both watching.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import secrets
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg

from tests.support.clients import seat_two
from tests.support.daphne import Daphne, environment, migrate, running
from tests.support.processes import fresh_database

POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
REDIS = "redis://127.0.0.1:6379/6"
AHEAD = 2.0  # seconds from setting the deadlines to the deadline
SEATING = 8  # browsers creating and joining at once


def seat_all(bases: list[str], games: int) -> list[str]:
    """Create and join ``games`` games with an absolute clock of an hour; their ids."""

    async def all_of_them() -> list[str]:
        limit = asyncio.Semaphore(SEATING)

        async def one(number: int) -> str:
            async with limit:
                first, second = bases[number % len(bases)], bases[-1 - number % len(bases)]
                game_id, _, _ = await asyncio.to_thread(
                    seat_two, first, second, clock="absolute", main_time=3600
                )
                return game_id

        return await asyncio.gather(*(one(number) for number in range(games)))

    return asyncio.run(all_of_them())


Query = Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]


def measure(bases: list[str], games: int, query: Query, placeholder: str) -> None:
    ids = seat_all(bases, games)
    deadline = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=AHEAD)
    # As Django writes a time in either database (SQLite compares them as text).
    written = deadline.strftime("%Y-%m-%d %H:%M:%S.%f") + ("+00:00" if placeholder == "%s" else "")
    query(f"UPDATE games_game SET deadline = {placeholder}", (written,))
    began = time.monotonic()
    while time.monotonic() - began < AHEAD + 60:
        [(active,)] = query("SELECT count(*) FROM games_game WHERE status = 'active'", ())
        if not active:
            break
        time.sleep(0.2)
    rows = query(
        "SELECT finished_at FROM games_game WHERE status IN ('finished', 'aborted')",
        (),
    )
    late = sorted(_seconds(ended) - deadline.timestamp() for (ended,) in rows)
    flagged = len(late)
    print(
        f"  {games} games, {flagged} ended (none with a move: "
        f"{query('SELECT count(*) FROM games_move', ())[0][0] == 0}), "
        f"{len(ids) - flagged} left"
    )
    if late:
        print(
            f"  lateness p50 {1000 * late[len(late) // 2]:.0f} ms, "
            f"p95 {1000 * late[int(0.95 * (len(late) - 1))]:.0f} ms, max {1000 * late[-1]:.0f} ms; "
            f"later than 1 s: {sum(value > 1 for value in late)}"
        )


def _seconds(value: Any) -> float:
    if isinstance(value, datetime.datetime):
        return value.timestamp()
    return datetime.datetime.fromisoformat(str(value)).replace(tzinfo=datetime.UTC).timestamp()


@contextmanager
def embedded() -> Iterator[tuple[list[str], Query, str]]:
    work = Path(tempfile.mkdtemp(prefix="bench-flags-"))
    database = work / "db.sqlite3"
    env = environment(
        {
            "DATABASE_URL": f"sqlite:///{database}",
            "REDIS_URL": None,
            "SECRET_KEY": secrets.token_urlsafe(40),
            "DEBUG": "0",
            "PYTEST_VERSION": None,
            "RATE_LIMITS": "off",
        }
    )
    migrate(env)

    def query(sql: str, parameters: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with sqlite3.connect(database, timeout=30) as connection:
            return connection.execute(sql, parameters).fetchall()

    server = Daphne(env, work / "daphne.log")
    with running([server]):
        yield [server.url], query, "?"


@contextmanager
def shared() -> Iterator[tuple[list[str], Query, str]]:
    work = Path(tempfile.mkdtemp(prefix="bench-flags-"))
    with fresh_database(POSTGRES, "bench_flags") as url:
        env = environment(
            {
                "DATABASE_URL": url,
                "REDIS_URL": REDIS,
                "SECRET_KEY": secrets.token_urlsafe(40),
                "DEBUG": "0",
                "PYTEST_VERSION": None,
                "RATE_LIMITS": "off",
            }
        )

        def query(sql: str, parameters: tuple[Any, ...]) -> list[tuple[Any, ...]]:
            with psycopg.connect(url, autocommit=True) as connection:
                cursor = connection.execute(sql, parameters)
                return cursor.fetchall() if cursor.description else []

        daphnes = [Daphne(env, work / f"daphne-{number}.log") for number in (1, 2)]
        with running(daphnes):
            yield [server.url for server in daphnes], query, "%s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--embedded-only", action="store_true")
    args = parser.parse_args()
    stacks = [("embedded default (SQLite, one process)", embedded)]
    if not args.embedded_only:
        stacks.append(("PostgreSQL + Redis, two processes", shared))
    for name, stack in stacks:
        print(name)
        with stack() as (bases, query, placeholder):
            measure(bases, args.games, query, placeholder)


if __name__ == "__main__":
    main()
