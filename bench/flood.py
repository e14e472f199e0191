"""A websocket flood against one daphne process (a benchmark, not a test): memory and the
latency of a normal game played meanwhile.

    .venv/bin/python bench/flood.py                       # 4 sockets, 15 s
    .venv/bin/python bench/flood.py --quick               # 2 sockets, 5 s
    .venv/bin/python bench/flood.py --baseline ../before  # the same, first on another checkout

One daphne process on the embedded default (a fresh SQLite file, the in-memory channel
layer), started as production starts it. A normal 8x8 Othello game is played on it
throughout by two players, one move every PACE seconds, each move timed from sending
``play`` to the mover's own ``moved`` (a finished game is followed by a new one). After
QUIET seconds of that alone, SOCKETS spectator sockets (no cookie, no seat) send
``{"type": "sync"}`` as fast as they can for SECONDS seconds, each reading and discarding
what it is sent, and opening a new socket at once whenever the server closes one: the
flood lasts the whole time, however the server defends itself. Then AFTER quiet seconds.

Printed: the process's resident memory (VmRSS) before, at its peak during the flood and
after it; what the flooders sent and got back (answers, ``rate_limited`` errors, closes
by code); the normal game's move latency p50 / p95 / max before and during the flood, and
their ratio. ``--baseline DIR`` runs the same first with the server of another checkout
(e.g. ``git worktree add ../before <commit>``), so both are measured in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import secrets
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The repository root, for the helpers the tests use (tests/support/: daphne, clients).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from websockets.exceptions import ConnectionClosed

from tests.support.clients import Socket, flood_process, open_socket, seat_two
from tests.support.daphne import ROOT, Daphne, environment, migrate

PACE = 0.05  # seconds between the normal game's moves
QUIET = 6.0
AFTER = 5.0
SAMPLE = 0.1  # seconds between memory samples


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` in MB (from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class MemoryWatch:
    """Samples a process's VmRSS in a thread; ``mark(phase)`` starts a new phase."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.phase = "before"
        self.samples: dict[str, list[float]] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stop.wait(SAMPLE):
            with suppress(OSError):
                self.samples.setdefault(self.phase, []).append(rss_mb(self.pid))

    def __enter__(self) -> MemoryWatch:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


@dataclass
class Player:
    """One seat's socket; a reader task keeps the latest G."""

    socket: Socket
    game: dict[str, Any] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None

    async def read(self) -> None:
        with suppress(ConnectionClosed):
            while True:
                message = await self.socket.receive(timeout=3600)
                if message["type"] in ("state", "moved"):
                    self.game = message["game"]
                    self.changed.set()

    async def until(self, ply: int, timeout: float = 30) -> None:
        """Wait until this socket has seen the game at ``ply`` or later."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.game.get("ply", -1) < ply:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.001, deadline - loop.time()))


class NormalGame:
    """Two players moving at PACE; latencies recorded by phase."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.phase = "before"
        self.latencies: dict[str, list[float]] = {}
        self.stopped = False

    async def seat(self) -> list[Player]:
        game_id, black, white = await asyncio.to_thread(seat_two, self.base, self.base)
        players = [Player(await open_socket(browser, game_id)) for browser in (black, white)]
        for player in players:
            player.reader = asyncio.create_task(player.read())
            await player.until(0)
        return players

    async def run(self) -> None:
        players = await self.seat()
        while not self.stopped:
            game = players[0].game
            if game["status"] != "active":
                for player in players:
                    await player.socket.close()
                players = await self.seat()
                continue
            mover = next(p for p in players if p.game["you"] == game["to_move"])
            ply = game["ply"]
            began = time.monotonic()
            await mover.socket.send({"type": "play", "ply": ply, "point": game["legal"][0]})
            await mover.until(ply + 1)
            self.latencies.setdefault(self.phase, []).append(time.monotonic() - began)
            for player in players:
                await player.until(mover.game["ply"])
            await asyncio.sleep(PACE)
        for player in players:
            await player.socket.close()


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def measure(server: Daphne, sockets: int, seconds: float) -> None:
    assert server.process is not None
    with MemoryWatch(server.process.pid) as memory:
        normal = NormalGame(server.url)
        playing = asyncio.create_task(normal.run())
        await asyncio.sleep(QUIET)
        target, _, _ = await asyncio.to_thread(seat_two, server.url, server.url)
        memory.phase = normal.phase = "during"
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            flood = await asyncio.get_running_loop().run_in_executor(
                pool, flood_process, server.url, target, sockets, seconds
            )
        memory.phase = normal.phase = "after"
        await asyncio.sleep(AFTER)
        normal.stopped = True
        await asyncio.wait_for(playing, 60)
    before, during, after = (
        memory.samples.get(p, [float("nan")]) for p in ("before", "during", "after")
    )
    print(
        f"  memory (VmRSS): before {statistics.median(before):.0f} MB, "
        f"peak during {max(during):.0f} MB (+{max(during) - statistics.median(before):.0f}), "
        f"after {after[-1]:.0f} MB"
    )
    answers = ", ".join(f"{count:,} {kind}" for kind, count in flood["answers"].most_common())
    closes = ", ".join(f"{count} x {code}" for code, count in flood["closes"].most_common())
    print(f"  {sockets} flooding sockets sent {flood['sent']:,} messages in {seconds:g} s")
    print(f"    got back: {answers or 'nothing'}; closed: {closes or 'never'}")
    quiet = [1000 * x for x in normal.latencies.get("before", [])]
    loud = [1000 * x for x in normal.latencies.get("during", [])]
    print(
        f"  normal game, move latency before the flood: p50 {percentile(quiet, 0.5):.1f} ms, "
        f"p95 {percentile(quiet, 0.95):.1f} ms ({len(quiet)} moves)"
    )
    print(
        f"  normal game, move latency during the flood: p50 {percentile(loud, 0.5):.1f} ms, "
        f"p95 {percentile(loud, 0.95):.1f} ms, max {max(loud, default=float('nan')):.0f} ms "
        f"({len(loud)} moves)"
    )
    print(
        f"  ratio during / before: p50 {percentile(loud, 0.5) / percentile(quiet, 0.5):.1f}x, "
        f"p95 {percentile(loud, 0.95) / percentile(quiet, 0.95):.1f}x"
    )


def run(root: Path, sockets: int, seconds: float) -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-flood-"))
    env = environment(
        {
            "DATABASE_URL": f"sqlite:///{work / 'db.sqlite3'}",
            "REDIS_URL": None,
            "SECRET_KEY": secrets.token_urlsafe(32),
            "DEBUG": "0",
            "PYTEST_VERSION": None,
            "PYTHONPATH": str(root),
        }
    )
    migrate(env, cwd=root)
    server = Daphne(env, work / "daphne.log", cwd=root)
    with server:
        print(f"server from {root} (pid {server.process.pid if server.process else '?'})")
        asyncio.run(measure(server, sockets, seconds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=None, help="flooding sockets (4)")
    parser.add_argument("--seconds", type=float, default=None, help="flood duration (15)")
    parser.add_argument("--quick", action="store_true", help="2 sockets, 5 s")
    parser.add_argument("--baseline", type=Path, help="another checkout to measure first")
    args = parser.parse_args()
    sockets = args.sockets or (2 if args.quick else 4)
    seconds = args.seconds or (5.0 if args.quick else 15.0)
    os.environ.pop("RATE_LIMITS", None)
    if args.baseline:
        run(args.baseline.resolve(), sockets, seconds)
    run(ROOT, sockets, seconds)


if __name__ == "__main__":
    main()
