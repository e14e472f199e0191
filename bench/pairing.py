"""Pairing under load (a benchmark, not a test): two rounds, figures printed.

    .venv/bin/python bench/pairing.py                # 1,000 casual seekers, then 200 rated
    .venv/bin/python bench/pairing.py --seekers 200  # a smaller first round

1. Casual seekers in one pool, over two daphne processes on PostgreSQL and Redis: a fresh
   database ``bench_pairing_<random>`` on 127.0.0.1:5432 (dropped at the end) and Redis
   database 12 on 127.0.0.1:6379 (its keys expire; nothing is flushed). Every seeker opens
   a lobby socket (half on each process, no cookie: the socket gets a session), and once
   all are open, all send the same ``seek`` at once. Printed: how many were paired, how
   many twice, the time from each one's ``seek`` to its ``paired`` (p50, p95, max, and how
   many beyond 3 s), the games the database holds, the servers' CPU over the round, and
   the waves the servers logged (games made, wall and CPU time).
2. Rated seekers with spread ratings (normal, mean 1500, sd 350; fixed seed), all arriving
   at once, through the pure matching (``pairing.matching.pairs``) in waves one second
   apart as their windows widen: the mean rating difference of the pairs against the best
   possible (the sorted ratings paired as neighbours), the largest, and the waves it took.
   Through the matching alone: round 1's seekers are guests, who count 1500 on the
   servers (``pairing.services.ratings_of``).
3. One wave of as many seeks as round 1 (one pool, all stored before it), in this
   process with no sockets nor Redis, on SQLite (a temporary file) and on PostgreSQL (a
   fresh database): the games made, the wave's wall and CPU time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import psycopg
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import broadcast
from pairing.matching import Seeker, pairs
from pairing.pools import POOLS
from tests.support.daphne import Daphne, environment, migrate, running
from tests.support.processes import django_on, fresh_database

POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
REDIS = "redis://127.0.0.1:6379/12"
SEEK = POOLS[1].seek(rated=False)  # Othello 8x8, 3+2 Fischer
WAIT = 180  # seconds a seeker waits for `paired` at most
OPENING = 50  # sockets opening at once
WAVE_LINE = re.compile(r"pairing wave: (\d+) games in (\d+) ms \((\d+) ms CPU\)")


def raise_open_files_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 8192 if hard == resource.RLIM_INFINITY else min(8192, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def cpu_seconds(pid: int) -> float:
    """User + system CPU of the process ``pid`` so far (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def open_lobby(base: str) -> ClientConnection:
    return await connect(
        base.replace("http://", "ws://", 1) + "/ws/lobby/",
        origin=Origin(base),
        open_timeout=WAIT,
        max_queue=None,
    )


async def seeker(socket: ClientConnection, start: asyncio.Event) -> tuple[float, list[str], float]:
    """Wait for the lobby message and ``start``, seek, and wait for ``paired``: the time
    from sending ``seek`` to ``paired``, the game ids paired (then 0.5 s more, to see a
    second ``paired`` that should never come), and the time from ``seek`` to ``seeking``
    (the seek stored)."""
    while json.loads(await socket.recv())["type"] != "lobby":
        pass
    await start.wait()
    sent = time.perf_counter()
    await socket.send(json.dumps(SEEK))
    games: list[str] = []
    elapsed = stored = float("inf")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while True:
        left = deadline - loop.time()
        if left <= 0:
            return elapsed, games, stored
        try:
            message = json.loads(await asyncio.wait_for(socket.recv(), left))
        except TimeoutError:
            return elapsed, games, stored
        if message["type"] == "seeking" and stored == float("inf"):
            stored = time.perf_counter() - sent
        elif message["type"] == "paired":
            if not games:
                elapsed = time.perf_counter() - sent
                deadline = loop.time() + 0.5
            games.append(message["game_id"])
        elif message["type"] == "error":
            print("error:", message)


async def casual_round(
    bases: list[str], count: int, pids: list[int]
) -> tuple[list[tuple[float, list[str], float]], list[float], float]:
    """Each seeker's figures (``seeker``), and the servers' CPU and the wall time from the
    seeks to the last ``paired`` (and the half second after it)."""
    sockets: list[ClientConnection] = []
    for batch in range(0, count, OPENING):
        numbers = range(batch, min(count, batch + OPENING))
        sockets += await asyncio.gather(*(open_lobby(bases[n % 2]) for n in numbers))
    start = asyncio.Event()
    tasks = [asyncio.create_task(seeker(socket, start)) for socket in sockets]
    await asyncio.sleep(1)  # every lobby message read
    before = [cpu_seconds(pid) for pid in pids]
    started = time.perf_counter()
    start.set()
    results = await asyncio.gather(*tasks)
    wall = time.perf_counter() - started
    cpu = [cpu_seconds(pid) - was for pid, was in zip(pids, before, strict=True)]
    await asyncio.gather(*(socket.close() for socket in sockets))
    return results, cpu, wall


def percentile(ordered: list[float], fraction: float) -> float:
    return ordered[max(0, int(len(ordered) * fraction) - 1)]


def first_round(count: int) -> None:
    print(f"Round 1: {count} casual seekers in one pool, over two daphne processes")
    logs = Path(tempfile.mkdtemp(prefix="bench-pairing-"))
    with fresh_database(POSTGRES, "bench_pairing") as database:
        env = environment(
            {
                "DATABASE_URL": database,
                "REDIS_URL": REDIS,
                "SECRET_KEY": secrets.token_urlsafe(32),
                "DEBUG": "0",
                "PYTEST_VERSION": None,
                "RATE_LIMITS": "off",
            }
        )
        daphnes = [
            Daphne(env, logs / f"daphne-{number}.log", start_timeout=30, stop_timeout=30)
            for number in (1, 2)
        ]
        with running(daphnes):
            pids = [daphne.process.pid for daphne in daphnes if daphne.process is not None]
            before = [cpu_seconds(pid) for pid in pids]
            started = time.perf_counter()
            results, seeking_cpu, seeking_wall = asyncio.run(
                casual_round([daphne.url for daphne in daphnes], count, pids)
            )
            wall = time.perf_counter() - started
            cpu = [cpu_seconds(pid) - was for pid, was in zip(pids, before, strict=True)]
        with psycopg.connect(database) as connection:
            games = connection.execute("SELECT count(*) FROM games_game").fetchone()
    times = sorted(elapsed for elapsed, _, _ in results)
    paired = [elapsed for elapsed in times if elapsed != float("inf")]
    twice = sum(1 for _, ids, _ in results if len(ids) > 1)
    per_game = Counter(ids[0] for _, ids, _ in results if ids)
    stored = sorted(seconds for _, _, seconds in results if seconds != float("inf"))
    print(f"  paired {len(paired)} of {count}; paired twice: {twice}")
    print(f"  games with two seekers: {sum(1 for n in per_game.values() if n == 2)}")
    print(f"  games in the database: {games[0] if games else '?'}")
    if paired:
        p95 = percentile(paired, 0.95)
        print(
            f"  seek -> paired: p50 {statistics.median(paired):.2f} s, p95 {p95:.2f} s,"
            f" max {paired[-1]:.2f} s; beyond 3 s: {sum(1 for t in times if t > 3)}"
        )
    if stored:
        print(
            f"  seek -> seeking (stored): p50 {statistics.median(stored):.2f} s,"
            f" p95 {percentile(stored, 0.95):.2f} s, max {stored[-1]:.2f} s"
            f" ({len(stored)} answered)"
        )
    print(f"  round {wall:.1f} s; servers' CPU {cpu[0]:.2f} s + {cpu[1]:.2f} s")
    print(
        f"  from the seeks to the last paired (+0.5 s): {seeking_wall:.1f} s;"
        f" servers' CPU {seeking_cpu[0]:.2f} s + {seeking_cpu[1]:.2f} s"
    )
    for number in (1, 2):
        for line in (logs / f"daphne-{number}.log").read_text().splitlines():
            found = WAVE_LINE.search(line)
            if found:
                made, ms, cpu_ms = found.groups()
                print(f"  daphne {number}: a wave made {made} games in {ms} ms ({cpu_ms} ms CPU)")
            elif "ERROR" in line or "Traceback" in line:
                print(f"  daphne {number}: {line}")


def second_round(count: int, seed: int = 20) -> None:
    print(f"Round 2: {count} rated seekers, ratings ~ N(1500, 350), through the matching")
    rng = random.Random(seed)
    ratings = [rng.gauss(1500, 350) for _ in range(count)]
    waiting = {
        str(n): Seeker(str(n), "othello8-blitz-rated", rating, None, 0.0, f"s{n}", n)
        for n, rating in enumerate(ratings)
    }
    made: list[tuple[float, float]] = []
    waves = 0
    cpu = 0.0
    while waiting:
        seconds = float(waves)
        current = [
            Seeker(s.id, s.pool, s.rating, s.range, seconds, s.session, s.account)
            for s in waiting.values()
        ]
        started = time.process_time()
        answer = pairs(current)
        cpu += time.process_time() - started
        for first, second in answer:
            made.append((waiting.pop(first).rating, waiting.pop(second).rating))
        waves += 1
        if waves > 600:
            break
    gaps = [abs(a - b) for a, b in made]
    ordered = sorted(ratings)
    best = [ordered[i + 1] - ordered[i] for i in range(0, count - 1, 2)]
    print(f"  paired {2 * len(made)} of {count} in {waves} waves (1 s apart)")
    print(
        f"  mean rating difference {statistics.mean(gaps):.1f}"
        f" (best possible, sorted neighbours: {statistics.mean(best):.1f});"
        f" largest {max(gaps):.1f} (best: {max(best):.1f})"
    )
    print(f"  the matching's CPU over the waves: {cpu * 1000:.1f} ms")


def third_round(count: int) -> None:
    print(f"Round 3: one wave of {count} seeks in one pool, in one process (no sockets)")
    for backend in ("sqlite", "postgresql"):
        command = [sys.executable, __file__, "--wave-in", backend, "--seekers", str(count)]
        subprocess.run(command, check=True)


def wave_in(backend: str, count: int) -> None:
    """Round 3 on ``backend`` (``sqlite``: a file in a temporary directory, or
    ``postgresql``: a fresh database), in this process."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="bench-pairing-") as directory:
            url = f"sqlite:///{directory}/wave.sqlite3"
            migrate(environment({"DATABASE_URL": url, "SECRET_KEY": "bench"}))
            timed_wave(backend, url, count)
    else:
        with fresh_database(POSTGRES, "bench_pairing_wave") as url:
            timed_wave(backend, url, count)


def timed_wave(backend: str, url: str, count: int) -> None:
    django_on(url)
    from django.utils import timezone

    from accounts.players import Player
    from pairing import services

    now = timezone.now()
    for n in range(count):
        session = f"bench-{n:05d}"
        services.socket_opened(session_key=session, channel_name=f"c{n}", process="bench")
        player = Player(session_key=session)
        services.seek(player=player, user=None, name="Guest", message=SEEK, now=now)
    with broadcast.outbox():
        started, cpu = time.perf_counter(), time.process_time()
        made = services.wave(process="bench") or []
        cpu, wall = time.process_time() - cpu, time.perf_counter() - started
    print(
        f"  {backend}: {len(made)} games in {wall * 1000:.0f} ms ({cpu * 1000:.0f} ms CPU,"
        f" {cpu * 1000 / max(1, len(made)):.2f} ms a pair)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seekers", type=int, default=1000)
    parser.add_argument("--rated", type=int, default=200)
    parser.add_argument("--wave-in", choices=("sqlite", "postgresql"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.wave_in:
        wave_in(options.wave_in, options.seekers)
        return
    raise_open_files_limit()
    first_round(options.seekers)
    second_round(options.rated)
    third_round(options.seekers)


if __name__ == "__main__":
    main()
