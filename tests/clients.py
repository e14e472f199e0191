"""Clients of a real server, as browsers and bots reach it: HTTP with cookies, websockets.

Shared by the tests that start real daphne processes (tests/server/test_daphne.py,
tests/server/test_faults.py, tests/server/test_flood.py) and the benchmarks that do
(bench/load.py, bench/flood.py): a ``Browser`` keeps its cookies and posts forms with
their CSRF token; ``open_socket`` opens a game's websocket with that browser's session.
The websocket client is the ``websockets`` library: autobahn, which comes with daphne,
cannot run on asyncio in a process where channels.testing made txaio choose Twisted.
Like tests/daphne.py it imports no Django and no pytest.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.cookiejar
import json
import urllib.parse
import urllib.request
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

TIMEOUT = 30


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
        """The value of the cookie ``name`` (StopIteration when there is none)."""
        return next(cookie.value or "" for cookie in self.cookies if cookie.name == name)

    def get(self, path: str) -> bytes:
        """The body of ``GET path`` (urllib.error.HTTPError for an error status)."""
        with self.opener.open(self.base + path, timeout=TIMEOUT) as response:
            body: bytes = response.read()
            return body

    def post(self, path: str, fields: dict[str, Any]) -> str:
        """Submit a form (the CSRF cookie must be set: ``get`` a page first); returns the
        path redirected to. Raises urllib.error.HTTPError for an error status."""
        data = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": self.cookie("csrftoken")})
        with self.opener.open(self.base + path, data.encode(), timeout=TIMEOUT) as response:
            url: str = response.geturl()
            return urllib.parse.urlsplit(url).path

    def state(self, game_id: str) -> dict[str, Any]:
        """G from ``state.json``."""
        result: dict[str, Any] = json.loads(self.get(f"/games/{game_id}/state.json"))
        return result

    def create(self, **fields: Any) -> str:
        """A new game (``kind``, ``size``, ``color``, ``name``...): its id."""
        self.get("/")
        path = self.post("/games/new/", fields)
        return path.strip("/").split("/")[-1]

    def join(self, game_id: str, name: str) -> None:
        """Take the free seat of ``game_id``."""
        self.get(f"/games/{game_id}/")
        self.post(f"/games/{game_id}/join/", {"name": name})


def seat_two(
    first: str, second: str, *, kind: str = "othello", size: int = 8, **options: Any
) -> tuple[str, Browser, Browser]:
    """Black creates a game on the server ``first`` (with the form's other ``options``: a
    clock...), White joins on ``second``: (game id, Black's browser, White's)."""
    black, white = Browser(first), Browser(second)
    game_id = black.create(kind=kind, size=size, color="black", name="Black", **options)
    white.join(game_id, "White")
    return game_id, black, white


class Socket:
    """A game's websocket: send and receive JSON."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection

    async def send(self, message: dict[str, Any]) -> None:
        await self.connection.send(json.dumps(message))

    async def receive(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message (TimeoutError after ``timeout`` seconds)."""
        message: dict[str, Any] = json.loads(
            await asyncio.wait_for(self.connection.recv(), timeout)
        )
        return message

    async def receive_until(self, kind: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message of type ``kind``, skipping others."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            message = await self.receive(max(0.0, deadline - loop.time()))
            if message["type"] == kind:
                return message

    async def close(self) -> None:
        await self.connection.close()


async def open_socket(browser: Browser | str, game_id: str, **options: Any) -> Socket:
    """The game's websocket on the browser's server, with its session cookie and origin
    (a spectator without cookies: pass the server's base URL). ``options`` go to
    ``websockets.connect``."""
    base = browser if isinstance(browser, str) else browser.base
    headers = {}
    if isinstance(browser, Browser):
        with contextlib.suppress(StopIteration):
            headers["Cookie"] = f"sessionid={browser.cookie('sessionid')}"
    connection = await connect(
        base.replace("http://", "ws://", 1) + f"/ws/games/{game_id}/",
        origin=Origin(base),
        additional_headers=headers,
        open_timeout=TIMEOUT,
        **options,
    )
    return Socket(connection)


class Follower:
    """A game's websocket read in the background: the latest G it was sent (by ``state``
    or ``moved``), the error codes, and the close code once the server closed it."""

    def __init__(self, socket: Socket) -> None:
        self.socket = socket
        self.game: dict[str, Any] = {}
        self.errors: list[str] = []
        self.closed: int | None = None
        self._news = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, browser: Browser | str, game_id: str) -> Follower:
        """Open the socket and wait for the first ``state``."""
        follower = cls(await open_socket(browser, game_id))
        await follower.until(lambda follower: bool(follower.game))
        return follower

    async def _read(self) -> None:
        try:
            while True:
                message = await self.socket.receive(timeout=24 * 3600)
                if message["type"] == "error":
                    self.errors.append(message["code"])
                elif "game" in message:
                    self.game = message["game"]
                self._news.set()
        except ConnectionClosed as closed:
            self.closed = closed.rcvd.code if closed.rcvd else 1006
            self._news.set()

    async def until(self, condition: Any, timeout: float = TIMEOUT) -> None:
        """Wait until ``condition(self)`` holds (TimeoutError after ``timeout`` s; an
        AssertionError when the socket closes first)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not condition(self):
            assert self.closed is None, f"the server closed the socket ({self.closed})"
            self._news.clear()
            await asyncio.wait_for(self._news.wait(), max(0.0, deadline - loop.time()))

    async def at_ply(self, ply: int, timeout: float = TIMEOUT) -> None:
        """Wait until this socket was sent the game at ``ply`` or later."""
        await self.until(lambda follower: follower.game.get("ply", -1) >= ply, timeout)

    async def error(self, timeout: float = TIMEOUT) -> str:
        """The code of the next error this socket is sent."""
        seen = len(self.errors)
        await self.until(lambda follower: len(follower.errors) > seen, timeout)
        return self.errors[seen]

    async def play_first_legal(self) -> int:
        """Send ``play`` on the first legal point of the game as last seen; its ply."""
        ply: int = self.game["ply"]
        await self.socket.send({"type": "play", "ply": ply, "point": self.game["legal"][0]})
        return ply

    async def close(self) -> None:
        self._reader.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.socket.close(), 5)
