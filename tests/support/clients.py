"""Clients of a real server, as browsers and bots reach it: HTTP with cookies, websockets.

Shared by the tests that start real daphne processes (tests/site/test_daphne.py,
tests/site/test_faults.py, tests/site/test_websocket_flow.py) and the benchmarks that do
(bench/load.py, bench/flood.py): a ``Browser`` keeps its cookies and posts forms with
their CSRF token; ``open_socket`` opens a game's websocket with that browser's session.
The websocket client is the ``websockets`` library: autobahn, which comes with daphne,
cannot run on asyncio in a process where channels.testing made txaio choose Twisted.
Like tests/support/daphne.py it imports no Django and no pytest.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import http.cookiejar
import json
import secrets
import select
import socket
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
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

    def post_json(self, path: str, body: Any) -> Any:
        """The JSON answer to ``POST path`` with a JSON ``body`` (the CSRF cookie must be
        set: ``get`` a page first). Raises urllib.error.HTTPError for an error status."""
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-CSRFToken": self.cookie("csrftoken")},
        )
        with self.opener.open(request, timeout=TIMEOUT) as response:
            return json.loads(response.read())

    def import_sgf(self, text: str) -> str:
        """Import one SGF record through ``POST /games/import/`` (multipart): its game id."""
        self.get("/games/import/")
        boundary = secrets.token_hex(16)
        fields = (
            ("csrfmiddlewaretoken", "", self.cookie("csrftoken")),
            ("sgf", '; filename="game.sgf"\r\nContent-Type: application/x-go-sgf', text),
        )
        body = "".join(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"{extra}\r\n\r\n'
            f"{value}\r\n"
            for name, extra, value in fields
        )
        request = urllib.request.Request(
            self.base + "/games/import/",
            data=(body + f"--{boundary}--\r\n").encode(),
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        with self.opener.open(request, timeout=2 * TIMEOUT) as response:
            return str(response.geturl()).rstrip("/").split("/")[-1]

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


@dataclass
class Upload:
    """What ``upload`` got back: the answer, and how much of the body was sent before it."""

    status: int
    headers: dict[str, str]
    body: bytes
    sent: int


UPLOAD_PIECE = 64 * 1024


def upload(
    base: str,
    path: str,
    size: int,
    *,
    head: bytes = b"",
    tail: bytes = b"",
    chunked: bool = False,
    headers: dict[str, str] | None = None,
) -> Upload:
    """``POST path`` with a body of ``size`` bytes (``head``, ``x`` repeated, ``tail``),
    declared by ``Content-Length`` or sent chunked (64 KiB a chunk, and no length said),
    from a client that reads while it sends, as browsers and curl do: it stops sending as
    soon as the answer begins or the server closes, then reads the answer. Header names
    of the answer are lowercased. The connection is the client's own (not the opener's)."""
    parts = urllib.parse.urlsplit(base)
    lines = [f"POST {path} HTTP/1.1", f"Host: {parts.netloc}"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    lines.append("Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}")
    with socket.create_connection((parts.hostname, parts.port or 80), timeout=TIMEOUT) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        sent = _send_until_answered(sock, _pieces(size, head, tail, chunked))
        response = http.client.HTTPResponse(sock)
        response.begin()
        body = response.read()
        answer = {name.lower(): value for name, value in response.getheaders()}
        return Upload(response.status, answer, body, sent)


def _pieces(size: int, head: bytes, tail: bytes, chunked: bool) -> Iterator[bytes]:
    filler = size - len(head) - len(tail)
    assert filler >= 0, "the head and tail are longer than the body"
    body = (
        head,
        *([b"x" * UPLOAD_PIECE] * (filler // UPLOAD_PIECE)),
        b"x" * (filler % UPLOAD_PIECE),
        tail,
    )
    for piece in body:
        if piece:
            yield f"{len(piece):x}\r\n".encode() + piece + b"\r\n" if chunked else piece
    if chunked:
        yield b"0\r\n\r\n"


def _send_until_answered(sock: socket.socket, pieces: Iterator[bytes]) -> int:
    """Send ``pieces`` until they are all sent, the server answers or it closes: the bytes
    sent (chunked framing included)."""
    sent = 0
    pending = b""
    while True:
        pending = pending or next(pieces, b"")
        if not pending:
            return sent
        readable, writable, _ = select.select([sock], [sock], [], TIMEOUT)
        if readable or not writable:
            return sent
        try:
            written = sock.send(pending)
        except OSError:  # closed by the server (a broken pipe, a reset)
            return sent
        sent += written
        pending = pending[written:]


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


async def play(black: Socket, white: Socket, points: list[list[int]]) -> None:
    """Play ``points`` from ply 0, Black first and then in turn (no pass in between), each
    seen as ``moved`` by both players' sockets. Other messages are skipped: a presence
    ``state`` relayed from another process can come before a move."""
    for ply, point in enumerate(points):
        await (black if ply % 2 == 0 else white).send({"type": "play", "ply": ply, "point": point})
        for player in (black, white):
            event = await player.receive_until("moved")
            assert (event["move"]["ply"], event["move"]["point"]) == (ply + 1, point)


async def open_socket(browser: Browser | str, game_id: str, **options: Any) -> Socket:
    """The game's websocket on the browser's server, with its session cookie and origin
    (a spectator without cookies: pass the server's base URL). ``options`` go to
    ``websockets.connect``."""
    return await _open(browser, f"/ws/games/{game_id}/", **options)


async def open_lobby(browser: Browser | str, **options: Any) -> Socket:
    """The lobby's websocket (``/ws/lobby/``: the open games, the pools' seeks) on the
    browser's server, with its session cookie and origin."""
    return await _open(browser, "/ws/lobby/", **options)


async def _open(browser: Browser | str, path: str, **options: Any) -> Socket:
    base = browser if isinstance(browser, str) else browser.base
    headers = {}
    if isinstance(browser, Browser):
        with contextlib.suppress(StopIteration):
            headers["Cookie"] = f"sessionid={browser.cookie('sessionid')}"
    connection = await connect(
        base.replace("http://", "ws://", 1) + path,
        origin=Origin(base),
        additional_headers=headers,
        open_timeout=TIMEOUT,
        **options,
    )
    return Socket(connection)


class Follower:
    """A game's websocket read in the background: the latest G it was sent (by ``state``
    or ``moved``), the error codes, and the close code once the server closed it.
    ``on_message(follower, message, size)``, when set, sees each message as it arrives
    (``size``: its text's bytes)."""

    def __init__(self, socket: Socket) -> None:
        self.socket = socket
        self.game: dict[str, Any] = {}
        self.errors: list[str] = []
        self.closed: int | None = None
        self.on_message: Callable[[Follower, dict[str, Any], int], None] | None = None
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
            async for raw in self.socket.connection:
                message = json.loads(raw)
                if message["type"] == "error":
                    self.errors.append(message["code"])
                elif "game" in message:
                    self.game = message["game"]
                if self.on_message is not None:
                    self.on_message(self, message, len(raw))
                self._news.set()
            self.closed = self.socket.connection.close_code or 1000
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


@dataclass
class Flood:
    """Spectator sockets sending ``sync`` as fast as they can, each opening a new socket at
    once whenever the server closes it: what they sent, got back, and how they were
    closed. Run it in a process of its own (``flood_process``): in a client's own event
    loop it would slow that client, not the server."""

    base: str
    game_id: str
    sent: int = 0
    answers: Counter[str] = field(default_factory=Counter)
    closes: Counter[str] = field(default_factory=Counter)
    stopped: bool = False

    async def run(self, sockets: int, seconds: float) -> None:
        flooders = [asyncio.create_task(self.one()) for _ in range(sockets)]
        await asyncio.sleep(seconds)
        self.stopped = True
        await asyncio.wait(flooders, timeout=10)

    async def one(self) -> None:
        while not self.stopped:
            try:
                socket = await open_socket(self.base, self.game_id, max_queue=None)
            except Exception as error:
                self.closes[f"refused: {type(error).__name__}"] += 1
                await asyncio.sleep(0.1)
                continue
            reader = asyncio.create_task(self.drain(socket))
            try:
                while not self.stopped:
                    await socket.send({"type": "sync"})
                    self.sent += 1
                    if self.sent % 100 == 0:
                        # websockets' send does not yield while its buffer has room: the
                        # reader's and the other flooding sockets' turn.
                        await asyncio.sleep(0)
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else "no close frame"
                self.closes[str(code)] += 1
            reader.cancel()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(socket.close(), 2)

    async def drain(self, socket: Socket) -> None:
        with contextlib.suppress(ConnectionClosed, asyncio.CancelledError):
            while True:
                message = await socket.receive(timeout=3600)
                self.answers[message.get("code") or message["type"]] += 1


def flood_process(base: str, game_id: str, sockets: int, seconds: float) -> dict[str, Any]:
    """Flood the game ``game_id`` from this process with ``sockets`` sockets for
    ``seconds``: ``{"sent", "answers", "closes"}``."""
    flood = Flood(base, game_id)
    asyncio.run(flood.run(sockets, seconds))
    return {"sent": flood.sent, "answers": flood.answers, "closes": flood.closes}
