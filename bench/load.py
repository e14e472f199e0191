"""Concurrent games through two daphne processes on PostgreSQL and Redis (a benchmark,
not a test): does every websocket client receive every move of its game?

    .venv/bin/python bench/load.py                  # 100 then 200 games, about 3 minutes
    .venv/bin/python bench/load.py --quick          # 20 games, 24 moves: under a minute
    .venv/bin/python bench/load.py --games 50 --moves 20 --spectators
    .venv/bin/python bench/load.py --layer-defaults # channels-redis's default limits

It creates a fresh database ``bench_load_<random>`` on the PostgreSQL at 127.0.0.1:5432
(user postgres), migrates it, flushes Redis database 5 on 127.0.0.1:6379, and starts
two daphne processes on free loopback ports. Each round creates its N games over HTTP
as a browser does (the CSRF cookie from ``GET /``, ``POST /games/new/``, a second
session ``POST /games/<id>/join/``), connects Black to the first daphne and White to
the second (a spectator too with ``--spectators``, on either), then plays K moves in
every game at once: 8x8 Othello, each player playing the first of G's ``legal``
whenever a ``moved`` or ``state`` event says it is their turn.

Afterwards the database says how far each game went, and every client must have
received every ``moved`` event of its game, ply 1, 2, ... in order. Printed per round:
games, clients, moves played (automatic passes included), events expected and
received, lost events, moves/s, p50/p95 latency from sending ``play`` to receiving
one's own ``moved``, the games that stalled (fewer than K moves when every client had
given up waiting), and what the channel layer's limits are measured against: the
longest list of undelivered messages in Redis (``capacity``) and the Redis connections
of both servers' pools (``max_connections``), sampled while every socket connects at
once, while the games play and while every socket closes at once. Errors in the
servers' logs are counted too; any loss, stall or error makes the exit status 1.
Everything is bounded: a client waits at most STALL seconds for its next event, a
round at most ROUND seconds. The database is dropped and Redis database 5 flushed at
the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import redis
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

# The repository root, for the daphne helpers the tests use (tests/support/daphne.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.clients import Browser, seat_two
from tests.support.daphne import ROOT, Daphne, DaphneError, environment, running
from tests.support.processes import fresh_database

POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
REDIS = "redis://127.0.0.1:6379/5"
HTTP_TIMEOUT = 30  # one HTTP request or websocket handshake
HTTP_WORKERS = 8  # browsers creating and joining games at once
STALL = 30  # seconds a client waits for its next event before giving up
ROUND = 150  # seconds a round's play may take at most
OPEN_FILES = 8192


# Services and servers


def raise_open_files_limit() -> None:
    """Each client holds a socket, each server one per client: 1,200 for 200 games."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = OPEN_FILES if hard == resource.RLIM_INFINITY else min(OPEN_FILES, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


@contextmanager
def flushed_redis() -> Iterator[str]:
    """Redis database 5, empty before and after (only that database is flushed)."""
    client = redis.Redis.from_url(REDIS)
    client.flushdb()
    try:
        yield REDIS
    finally:
        client.flushdb()
        client.close()


class RedisWatch:
    """Samples Redis during a round, in a thread: the longest list of undelivered messages
    (channels-redis keeps one per daphne process, ``asgispecific.<process>!``, shared by
    all its consumers and cut at ``capacity``) and the connections open on our database
    number. A pool never closes an idle connection, so these are the high-water mark of
    both processes' pools: the most commands that were in flight at once, which
    ``max_connections`` limits per process."""

    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(url)
        self.database = str(self.client.connection_pool.connection_kwargs.get("db", 0))
        self.stop = threading.Event()
        self.backlog = 0
        self.phase = "connecting"
        self.connections: dict[str, int] = {}  # the most seen in each phase
        self.thread = threading.Thread(target=self.sample, daemon=True)

    def sample(self) -> None:
        while not self.stop.wait(0.1):
            keys = list(self.client.scan_iter(match="asgispecific.*", count=1000))
            backlog = max((self.client.zcard(key) for key in keys), default=0)
            connections = sum(
                1 for entry in self.client.client_list() if str(entry.get("db")) == self.database
            )
            self.backlog = max(self.backlog, backlog)
            connections -= 1  # not this one
            self.connections[self.phase] = max(self.connections.get(self.phase, 0), connections)

    def __enter__(self) -> RedisWatch:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        self.client.close()


LAYER_DEFAULTS = """\
from othello_site.settings import *  # noqa: F403

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [os.environ["REDIS_URL"]]},  # noqa: F405
    }
}
"""


@contextmanager
def two_servers(database: str, redis_url: str, *, layer_defaults: bool) -> Iterator[Servers]:
    """Two daphne processes on one database and one Redis."""
    logs = Path(tempfile.mkdtemp(prefix="bench-load-"))
    env = environment(
        {
            "DATABASE_URL": database,
            "REDIS_URL": redis_url,
            "SECRET_KEY": secrets.token_urlsafe(32),
            "DEBUG": "0",
            "PYTEST_VERSION": None,
            # Every game is created from this one address (games.limits).
            "RATE_LIMITS": "off",
        }
    )
    if layer_defaults:
        (logs / "bench_layer_defaults.py").write_text(LAYER_DEFAULTS)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(logs), env.get("PYTHONPATH")]))
        env["DJANGO_SETTINGS_MODULE"] = "bench_layer_defaults"
    servers = Servers(logs=logs, layer=layer_config(env))
    daphnes = [
        Daphne(
            env,
            logs / f"daphne-{number}.log",
            start_timeout=HTTP_TIMEOUT,
            stop_timeout=HTTP_TIMEOUT,
        )
        for number in (1, 2)
    ]
    servers.bases.extend(daphne.url for daphne in daphnes)
    try:
        with running(daphnes):
            yield servers
    except DaphneError as error:
        raise SystemExit(str(error)) from None


@dataclass
class Servers:
    logs: Path
    layer: str  # the channel layer's limits as the servers see them
    bases: list[str] = field(default_factory=list)

    def log_sizes(self) -> dict[Path, int]:
        return {path: path.stat().st_size for path in self.logs.glob("*.log")}

    def problems(self, since: dict[Path, int]) -> Counter[str]:
        """The servers' errors since ``since``: ERROR lines by message, and channels-redis's
        "over capacity" (dropped messages) and redis-py's "Too many connections"."""
        found: Counter[str] = Counter()
        for path in self.logs.glob("*.log"):
            with path.open("rb") as log:
                log.seek(since.get(path, 0))
                text = log.read().decode(errors="replace")
            for line in text.splitlines():
                if " ERROR " in line:
                    found[line.split(" ERROR ", 1)[1].strip()[:100]] += 1
                elif "over capacity" in line:
                    found["channels over capacity (messages dropped)"] += 1
                elif "Too many connections" in line:
                    found["Too many connections"] += 1
        return found


def layer_config(env: dict[str, str]) -> str:
    """The channel layer's limits under ``env``, read from Django's settings as daphne will."""
    code = (
        "import json; from django.conf import settings; "
        "config = settings.CHANNEL_LAYERS['default']['CONFIG']; "
        "print(json.dumps({**config, 'hosts': [{k: v for k, v in config['hosts'][0].items() "
        "if k != 'address'}] if isinstance(config['hosts'][0], dict) else '(defaults)'}))"
    )
    env = {"DJANGO_SETTINGS_MODULE": "othello_site.settings", **env}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    ).stdout.strip()


# Clients (websockets)


@dataclass
class Client:
    """One websocket of one game: a player (``you`` a colour) or a spectator."""

    game_id: str
    base: str
    session: str | None
    moves: int  # K: stop playing at this ply
    connection: ClientConnection | None = None
    state: dict[str, Any] = field(default_factory=dict)
    you: str | None = None
    received: list[int] = field(default_factory=list)  # the plies of the `moved` events
    errors: list[str] = field(default_factory=list)
    sent_at: dict[int, float] = field(default_factory=dict)  # ply sent -> monotonic time
    latencies: list[float] = field(default_factory=list)
    last_event: float = 0.0
    gave_up: bool = False
    failure: str = ""  # why it gave up

    async def open(self) -> None:
        headers = {"Cookie": f"sessionid={self.session}"} if self.session else {}
        self.connection = await connect(
            self.base.replace("http://", "ws://", 1) + f"/ws/games/{self.game_id}/",
            origin=Origin(self.base),
            additional_headers=headers,
            open_timeout=HTTP_TIMEOUT,
            max_queue=None,
        )
        first = json.loads(await asyncio.wait_for(self.connection.recv(), HTTP_TIMEOUT))
        if first["type"] != "state":
            raise RuntimeError(f"first message {first['type']}, not state")
        self.state = first["game"]
        self.you = self.state["you"]

    def done(self) -> bool:
        """Seen every event up to the game's ply, and the game is over or at K moves."""
        ply = self.state["ply"]
        caught_up = ply == 0 or (bool(self.received) and self.received[-1] >= ply)
        return caught_up and (ply >= self.moves or self.state["status"] != "active")

    async def move_if_mine(self) -> None:
        state = self.state
        if (
            self.you is not None
            and state["status"] == "active"
            and state["to_move"] == self.you
            and state["ply"] < self.moves
            and state["ply"] not in self.sent_at
            and state["legal"]
        ):
            assert self.connection is not None
            self.sent_at[state["ply"]] = time.monotonic()
            message = {"type": "play", "ply": state["ply"], "point": state["legal"][0]}
            await self.connection.send(json.dumps(message))

    async def play(self, start: asyncio.Event, deadline: float) -> None:
        await start.wait()
        if self.connection is None:
            return
        try:
            await self.move_if_mine()
            while not self.done():
                await self.next_event(deadline)
        except Exception as error:  # a timeout, or the connection closed
            self.gave_up = True
            self.failure = f"{type(error).__name__}: {error}"[:120]

    async def next_event(self, deadline: float) -> None:
        assert self.connection is not None
        wait = min(STALL, deadline - time.monotonic())
        if wait <= 0:
            raise TimeoutError("the round is over")
        raw = await asyncio.wait_for(self.connection.recv(), wait)
        now = time.monotonic()
        message = json.loads(raw)
        if message["type"] == "error":
            self.errors.append(message["code"])
            return
        self.last_event = now
        self.state = message["game"]
        if message["type"] == "moved":
            move = message["move"]
            self.received.append(move["ply"])
            sent = self.sent_at.get(move["ply"] - 1)
            if move["color"] == self.you and sent is not None and move["action"] == "place":
                self.latencies.append(now - sent)
        await self.move_if_mine()

    async def close(self) -> None:
        if self.connection is not None:
            with suppress(Exception):
                await asyncio.wait_for(self.connection.close(), 5)


# One round


@dataclass
class Result:
    games: int
    clients: int
    moves: int
    passes: int
    expected: int
    received: int
    lost: int
    disordered: int
    errors: int
    seconds: float
    latencies: list[float]
    stalled: int
    gave_up: int
    seating: float  # creating and joining the games over HTTP
    connecting: float  # opening every socket at once
    problems: Counter[str]
    backlog: int
    connections: dict[str, int]
    failures: Counter[str]


async def run_round(
    servers: Servers, database: str, games: int, moves: int, *, spectators: bool
) -> Result:
    first, second = servers.bases
    logs = servers.log_sizes()
    began = time.monotonic()
    workers = asyncio.Semaphore(HTTP_WORKERS)

    async def seat() -> tuple[str, Browser, Browser]:
        async with workers:
            return await asyncio.to_thread(seat_two, first, second)

    seated = await asyncio.gather(*(seat() for _ in range(games)))
    seating = time.monotonic() - began
    clients: list[Client] = []
    for number, (game_id, black, white) in enumerate(seated):
        clients.append(Client(game_id, first, black.cookie("sessionid"), moves))
        clients.append(Client(game_id, second, white.cookie("sessionid"), moves))
        if spectators:
            clients.append(Client(game_id, servers.bases[number % 2], None, moves))

    async def open_one(client: Client) -> None:
        try:
            await client.open()
        except Exception as error:
            client.gave_up = True
            client.failure = f"connect: {type(error).__name__}: {error}"[:120]

    with RedisWatch(REDIS) as watch:
        try:
            # Every socket at once, as when every browser reconnects after a restart.
            await asyncio.gather(*(open_one(client) for client in clients))
            connecting = time.monotonic() - began - seating

            watch.phase = "playing"
            start = asyncio.Event()
            started = time.monotonic()
            players = [
                asyncio.create_task(client.play(start, started + ROUND)) for client in clients
            ]
            start.set()
            await asyncio.gather(*players)
        finally:
            watch.phase = "closing"
            await asyncio.gather(*(client.close() for client in clients))
            await asyncio.sleep(0.5)  # the servers' group_discard

    # The truth: how far each game went, from the database.
    ids = [game_id for game_id, _, _ in seated]
    with psycopg.connect(database) as connection:
        rows = connection.execute(
            "SELECT public_id, ply, status FROM games_game WHERE public_id = ANY(%s)", [ids]
        ).fetchall()
        played = connection.execute(
            "SELECT count(*), count(*) FILTER (WHERE m.action = 'pass') FROM games_move m "
            "JOIN games_game g ON m.game_id = g.id WHERE g.public_id = ANY(%s)",
            [ids],
        ).fetchone()
    final = {public_id: (ply, status) for public_id, ply, status in rows}
    expected = received = lost = disordered = 0
    for client in clients:
        ply = final[client.game_id][0]
        expected += ply
        received += len(client.received)
        lost += len(set(range(1, ply + 1)) - set(client.received))
        disordered += client.received != sorted(set(client.received))
    stalled = sum(1 for ply, status in final.values() if ply < moves and status == "active")
    last = max((client.last_event for client in clients), default=started)
    return Result(
        games=games,
        clients=len(clients),
        moves=played[0] if played else 0,
        passes=played[1] if played else 0,
        backlog=watch.backlog,
        connections=watch.connections,
        expected=expected,
        received=received,
        lost=lost,
        disordered=disordered,
        errors=sum(len(client.errors) for client in clients),
        seconds=max(last - started, 1e-9),
        latencies=[lat for client in clients for lat in client.latencies],
        stalled=stalled,
        gave_up=sum(client.gave_up for client in clients),
        seating=seating,
        connecting=connecting,
        problems=servers.problems(logs),
        failures=Counter(client.failure for client in clients if client.failure),
    )


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def report(result: Result) -> None:
    ms = [value * 1000 for value in result.latencies]
    print(
        f"games {result.games:>4}  clients {result.clients:>4}  moves played {result.moves:>5} "
        f"({result.passes} automatic passes)"
    )
    print(
        f"  games created and joined over HTTP in {result.seating:.1f} s, "
        f"every socket opened at once in {result.connecting:.1f} s"
    )
    print(
        f"  events expected {result.expected:>6}  received {result.received:>6}  "
        f"lost {result.lost}  out of order {result.disordered}  errors {result.errors}"
    )
    print(
        f"  {result.moves / result.seconds:,.0f} moves/s over {result.seconds:.1f} s  "
        f"latency p50 {percentile(ms, 0.5):.0f} ms  p95 {percentile(ms, 0.95):.0f} ms  "
        f"max {max(ms, default=float('nan')):.0f} ms"
    )
    stalled = "none" if not result.stalled else f"{result.stalled} of {result.games}"
    print(f"  games stalled: {stalled}  clients that gave up waiting: {result.gave_up}")
    connections = ", ".join(f"{count} {phase}" for phase, count in result.connections.items())
    print(f"  Redis: longest list of undelivered messages {result.backlog}")
    print(f"  Redis connections of both processes' pools (high-water mark) after: {connections}")
    for failure, count in result.failures.most_common(5):
        print(f"    {count} x {failure}")
    for problem, count in result.problems.most_common(5):
        print(f"  daphne logged {count} x {problem}")


async def run(args: argparse.Namespace) -> bool:
    ok = True
    with (
        fresh_database(POSTGRES, "bench_load") as database,
        flushed_redis() as redis_url,
        two_servers(database, redis_url, layer_defaults=args.layer_defaults) as servers,
    ):
        layer = "channels-redis defaults" if args.layer_defaults else "othello_site.settings"
        print(f"two daphne processes {' '.join(servers.bases)}; channel layer: {layer}")
        print(f"  {servers.layer}")
        print(f"{args.moves} moves per game (8x8 Othello), spectators: {args.spectators}")
        for games in args.games:
            result = await run_round(
                servers, database, games, args.moves, spectators=args.spectators
            )
            report(result)
            ok = ok and not (
                result.lost
                or result.disordered
                or result.stalled
                or result.gave_up
                or result.problems
            )
    if ok:
        shutil.rmtree(servers.logs, ignore_errors=True)
    else:
        print(f"the daphne logs are in {servers.logs}")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, nargs="+", default=None, help="games per round (default 100 200)"
    )
    parser.add_argument("--moves", type=int, default=None, help="moves per game (default 30)")
    parser.add_argument("--spectators", action="store_true", help="a spectator in every game")
    parser.add_argument("--quick", action="store_true", help="20 games, 24 moves")
    parser.add_argument(
        "--layer-defaults",
        action="store_true",
        help="run the servers with channels-redis's default limits, for comparison",
    )
    args = parser.parse_args()
    args.games = args.games or ([20] if args.quick else [100, 200])
    args.moves = args.moves or (24 if args.quick else 30)
    if any(games < 1 for games in args.games) or not 1 <= args.moves <= 64:
        parser.error("--games must be positive and --moves 1 to 64")
    raise_open_files_limit()
    ok = asyncio.run(run(args))
    print(
        "every client received every move in order, no server error"
        if ok
        else "FAILED: events lost, games stalled, clients cut off or server errors"
    )
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
