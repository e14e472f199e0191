"""Beyond one process: two real daphne servers on PostgreSQL and Redis serve one game.

Each player takes a seat over HTTP on a different daphne and plays over a real websocket;
each sees the other's moves live, relayed by Redis, and either server can serve either
player. The client is the `websockets` library (a test dependency): autobahn, which
comes with daphne, cannot run on asyncio in a process where channels.testing has made
txaio choose Twisted. The test
builds a fresh database, migrates it, starts both servers, and stops and drops
everything at the end. It needs DATABASE_URL and REDIS_URL (skipped, with the reason
printed, when either is unset).
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import os
import secrets
import urllib.parse
import urllib.request
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from tests.daphne import Daphne, environment, migrate, running

pytestmark = pytest.mark.services

# Only bounds how long a broken setup or a lost message is waited for before failing.
TIMEOUT = 20
# 4x4 Othello; after White's a1 Black has no move and the server passes for Black.
LINE = [[0, 1], [0, 2], [2, 3], [0, 0]]


@pytest.fixture
def database_url() -> Iterator[str]:
    """A fresh, migrated PostgreSQL database on DATABASE_URL's server, dropped afterwards."""
    import psycopg

    server = os.environ["DATABASE_URL"]
    name = f"othello_daphne_{secrets.token_hex(4)}"
    with psycopg.connect(server, dbname="postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = urllib.parse.urlsplit(server)._replace(path=f"/{name}").geturl()
    try:
        migrate(environment({"DATABASE_URL": url}))
        yield url
    finally:
        with psycopg.connect(server, dbname="postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def two_servers(database_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two daphne processes on one database and one Redis: their base URLs."""
    env = environment({"DATABASE_URL": database_url})
    servers = [
        Daphne(env, tmp_path / f"daphne-{number}.log", start_timeout=TIMEOUT, stop_timeout=TIMEOUT)
        for number in (1, 2)
    ]
    with running(servers):
        yield servers[0].url, servers[1].url


class Browser:
    """One person's browser against one server: a cookie jar, forms with their CSRF token."""

    def __init__(self, base: str, cookies: http.cookiejar.CookieJar | None = None) -> None:
        self.base = base
        self.cookies = cookies if cookies is not None else http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def on(self, base: str) -> Browser:
        """The same browser (its cookies) talking to another server."""
        return Browser(base, self.cookies)

    def cookie(self, name: str) -> str:
        return next(cookie.value for cookie in self.cookies if cookie.name == name)

    def get(self, path: str) -> Any:
        return self.opener.open(self.base + path, timeout=TIMEOUT)

    def post(self, path: str, fields: dict[str, Any]) -> str:
        """Submit a form found on ``path``'s page; returns the path redirected to."""
        data = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": self.cookie("csrftoken")})
        with self.opener.open(self.base + path, data.encode(), timeout=TIMEOUT) as response:
            assert response.status == 200
            return urllib.parse.urlsplit(response.geturl()).path

    def state(self, game_id: str) -> dict[str, Any]:
        with self.get(f"/games/{game_id}/state.json") as response:
            result: dict[str, Any] = json.load(response)
            return result


class Socket:
    """A real websocket client (the `websockets` library): send JSON, receive JSON."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection

    async def send(self, message: dict[str, Any]) -> None:
        await self.connection.send(json.dumps(message))

    async def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(
            await asyncio.wait_for(self.connection.recv(), TIMEOUT)
        )
        return message


@asynccontextmanager
async def websocket(browser: Browser, game_id: str) -> AsyncIterator[Socket]:
    """The game's websocket on the browser's server, with its session cookie and origin."""
    uri = browser.base.replace("http://", "ws://", 1) + f"/ws/games/{game_id}/"
    async with connect(
        uri,
        origin=Origin(browser.base),
        additional_headers={"Cookie": f"sessionid={browser.cookie('sessionid')}"},
        open_timeout=TIMEOUT,
    ) as connection:
        yield Socket(connection)


def take_seats(first: str, second: str) -> tuple[str, Browser, Browser]:
    """Ann creates a 4x4 Othello game on the first server, Bob joins on the second."""
    ann, bob = Browser(first), Browser(second)
    ann.get("/").close()
    game_path = ann.post(
        "/games/new/", {"kind": "othello", "size": 4, "color": "black", "name": "Ann"}
    )
    game_id = game_path.strip("/").split("/")[-1]
    bob.get(game_path).close()
    assert bob.post(f"/games/{game_id}/join/", {"name": "Bob"}) == game_path
    return game_id, ann, bob


async def test_two_daphne_processes_serve_one_game_live(two_servers: tuple[str, str]) -> None:
    game_id, ann, bob = await asyncio.to_thread(take_seats, *two_servers)
    async with websocket(ann, game_id) as ann_ws, websocket(bob, game_id) as bob_ws:
        for ws, you in ((ann_ws, "black"), (bob_ws, "white")):
            first = await ws.receive()
            assert (first["type"], first["game"]["you"], first["game"]["status"]) == (
                "state",
                you,
                "active",
            )

        for ply, point in enumerate(LINE):
            mover = ann_ws if ply % 2 == 0 else bob_ws
            await mover.send({"type": "play", "ply": ply, "point": point})
            for ws in (ann_ws, bob_ws):
                event = await ws.receive()
                assert event["type"] == "moved"
                assert (event["move"]["ply"], event["move"]["point"]) == (ply + 1, point)
        for ws in (ann_ws, bob_ws):
            event = await ws.receive()
            assert (event["move"]["ply"], event["move"]["action"]) == (5, "pass")

        # Errors stay with their sender on its own server.
        await ann_ws.send({"type": "play", "ply": 4, "point": [3, 3]})
        assert (await ann_ws.receive())["code"] == "stale"

        await ann_ws.send({"type": "resign"})
        for ws in (ann_ws, bob_ws):
            event = await ws.receive()
            assert event["move"]["action"] == "resign"
            assert (event["game"]["status"], event["game"]["result"]) == ("finished", "W+R")

    # The database is the truth: each server shows the same game, and a player who
    # moves to the other server keeps the seat.
    assert ann.state(game_id) == {**bob.state(game_id), "you": "black"}
    async with websocket(ann.on(bob.base), game_id) as ws:
        state = (await ws.receive())["game"]
        assert (state["you"], state["ply"], state["result"]) == ("black", 6, "W+R")
