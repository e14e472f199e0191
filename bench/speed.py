"""The move path against the floor: the game server next to a bare Channels relay (a
benchmark, not a test).

    .venv/bin/python bench/speed.py            # everything, about 4 minutes
    .venv/bin/python bench/speed.py --quick    # fewer games and moves
    .venv/bin/python bench/speed.py --only embedded

For each stack, the floor (bench/floor/floor.py: an AsyncJsonWebsocketConsumer that
group_sends what it receives, nothing else) and then this server, each in a daphne
process of its own on the same channel layer (the floor's docstring says which), get
the same load: GAMES games at once, MOVES moves each, both players of every game
answering at once. Latency is from one player sending its move (``play``) to the other
receiving it (``moved``); CPU per move
is the server process's CPU time (user + system, /proc) over the moves; moves/s over
the whole round. Stacks: the embedded default (SQLite, the in-memory layer, one
process); PostgreSQL + Redis (a fresh database on 127.0.0.1:5432, Redis database 7),
one process; and the same with two processes (the server only, for throughput: each
game's players on different processes).

Then, on the embedded default: how a move's cost grows with the game (one 19x19 Go game
played to move 300: the ``moved`` text's size and the server's CPU per move around move
10 and around move 300), and what an idle socket costs (1,000 spectators connected:
the process's resident memory before and after).

The ratios (this server / the floor) are the last lines printed. Needs the websocket
client (`websockets`), which either README command installs; the PostgreSQL + Redis
stacks need those servers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from tests.support.clients import Browser, Follower, seat_two
from tests.support.daphne import ROOT, Daphne, environment, running
from tests.support.processes import fresh_database

POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
REDIS = "redis://127.0.0.1:6379/7"
FLOOR = ROOT / "bench" / "floor"
SEATING = 8
TICK_HZ = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK_HZ


def machine_busy_seconds() -> float:
    """CPU time every core of this machine has spent busy so far (/proc/stat: all but
    idle and iowait)."""
    ticks = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / TICK_HZ


def rss_kb(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS"))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


@dataclass
class Round:
    """One load round's measures."""

    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    machine: float = 0.0  # the whole machine's busy CPU time over the round
    client: float = 0.0  # this bench's own (the players' sockets)

    def line(self, name: str) -> str:
        ms = [1000 * value for value in self.latencies]
        return (
            f"  {name:<12} p50 {percentile(ms, 0.5):6.1f} ms  p99 {percentile(ms, 0.99):6.1f} ms  "
            f"CPU {1000 * self.cpu / max(self.moves, 1):5.2f} ms/move  "
            f"{self.moves / self.seconds:7,.0f} moves/s  ({self.moves} moves)"
        )

    def cores(self) -> str:
        """Where the machine's CPU went over the round, in cores busy on average."""
        share = [value / self.seconds for value in (self.machine, self.cpu, self.client)]
        rest = max(0.0, share[0] - share[1] - share[2])  # /proc's ticks are coarse
        return (
            f"  cores busy {share[0]:.2f} of {os.cpu_count()}: server {share[1]:.2f}, "
            f"the bench's clients {share[2]:.2f}, the rest {rest:.2f} (database, Redis, system)"
        )


# The floor's load: two sockets a game, each answering the other's message at once.


async def relay_game(base: str, name: str, moves: int, result: Round, start: asyncio.Event) -> None:
    uri = base.replace("http://", "ws://") + f"/ws/relay/{name}/"
    sockets = [await connect(uri, origin=Origin(base), max_queue=None) for _ in range(2)]
    sent: dict[int, float] = {}
    done = asyncio.Event()

    async def read(me: int, socket: ClientConnection) -> None:
        async for raw in socket:
            message = json.loads(raw)
            ply = message["ply"]
            if message["from"] != me:
                result.latencies.append(time.monotonic() - sent[ply])
                result.moves += 1
                if ply + 1 >= moves:
                    done.set()
                    return
                sent[ply + 1] = time.monotonic()
                await socket.send(json.dumps({"ply": ply + 1, "from": me}))

    readers = [asyncio.create_task(read(me, socket)) for me, socket in enumerate(sockets)]
    await start.wait()
    sent[0] = time.monotonic()
    await sockets[0].send(json.dumps({"ply": 0, "from": 0}))
    await done.wait()
    for reader in readers:
        reader.cancel()
    for socket in sockets:
        await socket.close()


async def relay_round(base: str, pid: int, games: int, moves: int) -> Round:
    result = Round()
    start = asyncio.Event()
    tasks = [
        asyncio.create_task(relay_game(base, f"g{number}", moves, result, start))
        for number in range(games)
    ]
    await asyncio.sleep(1)  # every socket open
    cpu, began = cpu_seconds(pid), time.monotonic()
    start.set()
    await asyncio.gather(*tasks)
    result.seconds, result.cpu = time.monotonic() - began, cpu_seconds(pid) - cpu
    return result


# The server's load: 8x8 Othello, each player playing the first legal point at once.


async def server_game(
    game_id: str, players: list[Follower], moves: int, result: Round, start: asyncio.Event
) -> None:
    await start.wait()
    sent: dict[int, float] = {}

    async def play(player: Follower) -> None:
        while True:
            game = player.game
            if game["status"] != "active" or game["ply"] >= moves:
                return
            if game["to_move"] == game["you"] and game["ply"] not in sent:
                sent[game["ply"]] = time.monotonic()
                await player.play_first_legal()
            ply = game["ply"]
            await player.until(lambda p, at=ply: p.game["ply"] > at, timeout=120)

    def received(player: Follower, message: dict[str, Any], size: int) -> None:
        if message["type"] != "moved":
            return
        move = message["move"]
        if move["color"] != player.game["you"] and move["action"] == "place":
            began = sent.get(move["ply"] - 1)
            if began is not None:
                result.latencies.append(time.monotonic() - began)
                result.moves += 1

    for player in players:
        player.on_message = received
    await asyncio.gather(*(play(player) for player in players))


async def server_round(
    bases: list[str], pids: list[int], games: int, moves: int, profile: Path | None
) -> Round:
    tables = await seat_games(bases, games)
    return await play_round(tables, pids, moves, profile)


Table = tuple[str, list[Follower]]


async def seat_games(bases: list[str], games: int) -> list[Table]:
    """``games`` 8x8 Othello games over HTTP, both players' sockets open: (id, players)."""
    seating = asyncio.Semaphore(SEATING)
    seated = await asyncio.gather(*(seat(bases, number, seating) for number in range(games)))
    return [
        (game_id, [await Follower.open(browser, game_id) for browser in browsers])
        for game_id, browsers in seated
    ]


@contextmanager
def profiled(directory: Path | None, pids: list[int], name: str) -> Iterator[None]:
    """py-spy sampling the processes ``pids`` while the block runs, into ``directory``
    (``--profile``; None: nothing): one file of collapsed stacks a process,
    ``<name>-<pid>.txt``, for ``bench/profile.py``."""
    if directory is None:
        yield
        return
    spies = [
        subprocess.Popen(
            [
                str(Path(sys.executable).with_name("py-spy")),
                *("record", "--pid", str(pid), "--rate", "250", "--format", "raw"),
                # Not paused at each sample: paused, a server with a dozen threads
                # (the database's pool, the background loops) ran at half its speed.
                "--nonblocking",
                *("--output", str(directory / f"{name}-{pid}.txt"), "--threads"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for pid in pids
    ]
    time.sleep(1)  # attached before the load starts
    try:
        yield
    finally:
        for spy in spies:
            spy.send_signal(signal.SIGINT)
            spy.wait(timeout=60)


async def play_round(
    tables: list[Table], pids: list[int], moves: int, profile: Path | None
) -> Round:
    """Every game of ``tables`` played at once to ``moves`` moves; the sockets closed
    (the servers ``pids`` profiled into ``profile``, when given)."""
    with profiled(profile, pids, f"round-{len(tables)}x{moves}"):
        return await _play_round(tables, pids, moves)


async def _play_round(tables: list[Table], pids: list[int], moves: int) -> Round:
    result = Round()
    start = asyncio.Event()
    tasks = [
        asyncio.create_task(server_game(game_id, players, moves, result, start))
        for game_id, players in tables
    ]
    await asyncio.sleep(1)
    cpu, began = sum(cpu_seconds(pid) for pid in pids), time.monotonic()
    machine, client = machine_busy_seconds(), cpu_seconds(os.getpid())
    start.set()
    await asyncio.gather(*tasks)
    result.seconds = time.monotonic() - began
    result.cpu = sum(cpu_seconds(pid) for pid in pids) - cpu
    result.machine = machine_busy_seconds() - machine
    result.client = cpu_seconds(os.getpid()) - client
    for _, players in tables:
        for player in players:
            await player.close()
    return result


async def seat(
    bases: list[str], number: int, seating: asyncio.Semaphore
) -> tuple[str, list[Browser]]:
    async with seating:
        first, second = bases[number % len(bases)], bases[-1 - number % len(bases)]
        game_id, black, white = await asyncio.to_thread(seat_two, first, second)
        return game_id, [black, white]


# The cost of a long game, and of idle sockets


async def growth(base: str, pid: int) -> list[str]:
    """One 19x19 Go game to move 300: ``moved`` size and CPU per move at 10 and 300."""
    game_id, black, white = await asyncio.to_thread(seat_two, base, base, kind="go", size=19)
    players = [await Follower.open(browser, game_id) for browser in (black, white)]
    sizes: dict[int, int] = {}

    def measured(player: Follower, message: dict[str, Any], size: int) -> None:
        if message["type"] == "moved":
            sizes[message["move"]["ply"]] = size

    players[0].on_message = measured
    chooser = random.Random(1)
    cpu: dict[int, float] = {}
    for ply in range(300):
        if ply in (5, 25, 280):
            cpu[ply] = cpu_seconds(pid)
        mover = next(p for p in players if p.game["you"] == p.game["to_move"])
        legal = mover.game["legal"]
        await mover.socket.send({"type": "play", "ply": ply, "point": chooser.choice(legal)})
        await asyncio.gather(*(p.at_ply(ply + 1) for p in players))
    cpu[300] = cpu_seconds(pid)
    for player in players:
        await player.close()
    early = 1000 * (cpu[25] - cpu[5]) / 20
    late = 1000 * (cpu[300] - cpu[280]) / 20
    return [
        f"  moved at ply 10: {sizes.get(10, 0):,} bytes; at ply 300: {sizes.get(300, 0):,} bytes "
        f"({sizes.get(300, 0) / max(sizes.get(10, 1), 1):.2f}x)",
        f"  CPU per move, plies 5-25: {early:.2f} ms; plies 280-300: {late:.2f} ms "
        f"({late / max(early, 1e-9):.2f}x)",
    ]


async def idle_sockets(base: str, pid: int, count: int) -> str:
    game_id, _, _ = await asyncio.to_thread(seat_two, base, base)
    await asyncio.sleep(1)
    before = rss_kb(pid)
    uri = base.replace("http://", "ws://") + f"/ws/games/{game_id}/"
    sockets = []
    for _ in range(count // 50):
        sockets += await asyncio.gather(
            *(connect(uri, origin=Origin(base), open_timeout=60) for _ in range(50))
        )
    await asyncio.sleep(2)
    after = rss_kb(pid)
    for socket in sockets:
        await socket.close()
    return (
        f"  {count} idle sockets: {before / 1024:.0f} -> {after / 1024:.0f} MB, "
        f"{(after - before) / count:.1f} KB a socket"
    )


# Stacks


@contextmanager
def embedded_stack(work: Path) -> Iterator[dict[str, str | None]]:
    yield {"DATABASE_URL": f"sqlite:///{work / 'db.sqlite3'}", "REDIS_URL": None}


@contextmanager
def shared_stack(work: Path) -> Iterator[dict[str, str | None]]:
    import redis

    client = redis.Redis.from_url(REDIS)
    client.flushdb()
    with fresh_database(POSTGRES, "bench_speed") as url:
        yield {"DATABASE_URL": url, "REDIS_URL": REDIS}
    client.flushdb()


def servers(
    work: Path, overrides: dict[str, str | None], count: int, *, floor: bool
) -> list[Daphne]:
    env = environment(
        {
            **overrides,
            "SECRET_KEY": secrets.token_urlsafe(40),
            "DEBUG": "0",
            "PYTEST_VERSION": None,
            "RATE_LIMITS": "off",
            "PYTHONPATH": str(ROOT),
        }
    )
    name = "floor" if floor else "server"
    return [
        Daphne(
            env,
            work / f"{name}-{number}.log",
            cwd=FLOOR if floor else ROOT,
            application="floor:application" if floor else "othello_site.asgi:application",
        )
        for number in range(count)
    ]


def measure_stack(
    label: str, stack: Callable[[Path], Any], args: argparse.Namespace, extras: bool
) -> list[str]:
    work = Path(tempfile.mkdtemp(prefix="bench-speed-"))
    summary = []
    with stack(work) as overrides:
        (floor,) = servers(work, overrides, 1, floor=True)
        with running([floor]):
            assert floor.process is not None
            pid = floor.process.pid
            with profiled(args.profile, [pid], f"floor-{args.games}x{args.moves}"):
                relay = asyncio.run(relay_round(floor.url, pid, args.games, args.moves))
        print(relay.line(f"{label}: floor"))
        migrate_once = servers(work, overrides, 1, floor=False)[0]
        migrate_once.migrate()
        (server,) = servers(work, overrides, 1, floor=False)
        with running([server]):
            assert server.process is not None
            game = asyncio.run(
                server_round(
                    [server.url], [server.process.pid], args.games, args.moves, args.profile
                )
            )
            print(game.line(f"{label}: server"))
            print(game.cores())
            if extras and not args.no_extras:
                print("\n".join(asyncio.run(growth(server.url, server.process.pid))))
                print(asyncio.run(idle_sockets(server.url, server.process.pid, args.idle)))
        summary.append(ratio_line(label, relay, game))
        if label.startswith("PostgreSQL"):
            pair = servers(work, overrides, 2, floor=False)
            with running(pair):
                pids = [server.process.pid for server in pair if server.process]
                both = asyncio.run(
                    server_round(
                        [s.url for s in pair], pids, args.games * 2, args.moves, args.profile
                    )
                )
            print(both.line("two server processes"))
            print(both.cores())
            summary.append(
                f"  two processes on PostgreSQL + Redis: {both.moves / both.seconds:,.0f} moves/s"
            )
    return summary


def ratio_line(label: str, floor: Round, game: Round) -> str:
    def ratio(values: list[float], fraction: float) -> float:
        return percentile(values, fraction) / percentile(floor.latencies, fraction)

    p50, p99 = ratio(game.latencies, 0.5), ratio(game.latencies, 0.99)
    return (
        f"  {label}: p50 {p50:.1f}x, p99 {p99:.1f}x, "
        f"CPU per move {game.cpu / game.moves / (floor.cpu / floor.moves):.1f}x, "
        f"moves/s {game.moves / game.seconds:,.0f} / {floor.moves / floor.seconds:,.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="10 games of 20 moves, 200 idle")
    parser.add_argument("--only", choices=["embedded", "shared"])
    parser.add_argument(
        "--no-extras", action="store_true", help="without the 19x19 game and the idle sockets"
    )
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="DIR",
        help="py-spy samples of the floor and the server over each round into DIR "
        "(bench/profile.py reads them)",
    )
    args = parser.parse_args()
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    if args.quick:
        args.games, args.moves, args.idle = 10, 20, 200
    summary = []
    if args.only != "shared":
        summary += measure_stack("embedded default", embedded_stack, args, extras=True)
    if args.only != "embedded":
        summary += measure_stack("PostgreSQL + Redis", shared_stack, args, extras=False)
    print(f"this server / the floor, {args.games} games of {args.moves} moves:")
    print("\n".join(summary))


if __name__ == "__main__":
    main()
