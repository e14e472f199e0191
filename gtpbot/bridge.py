"""The bridge's event loop: the bot's stream, one task and one engine per game.

As lichess-bot and gtp2ogs: it listens on ``/ws/bot/``, answers each challenge (joins
the ones it supports with ``POST /games/<id>/join/``, declines the others with ``POST
/games/<id>/decline/``), and plays each game on its own ``/ws/games/<id>/`` socket with
its own engine process. Every socket reconnects with backoff; the server says on
connect which games the bot is in, and each game's ``state`` carries its moves, so a
dropped connection or a restarted bridge picks every game up where it stands: the
engine is brought to the position by replaying the moves (``clear_board``, ``play``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection, connect

from gameengine.gtp import EngineError, GtpEngine, GtpError
from gtpbot import coords

logger = logging.getLogger("gtpbot")

MAX_BACKOFF = 30.0
GENMOVE_TIMEOUT = 60.0
OVER = ("finished", "aborted")


@dataclass(frozen=True)
class Config:
    """What the bridge is told on its command line."""

    url: str
    token: str
    engine: Sequence[str]
    kinds: Sequence[str] = ("othello", "go")
    sizes: Sequence[int] = ()
    clocks: Sequence[str] = ()
    othello_top_row_one: bool = True

    @property
    def ws_base(self) -> str:
        parts = urllib.parse.urlsplit(self.url)
        scheme = "wss" if parts.scheme == "https" else "ws"
        return f"{scheme}://{parts.netloc}"

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    @property
    def origin(self) -> str:
        parts = urllib.parse.urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def post(config: Config, path: str) -> int:
    """POST ``path`` with the token; the HTTP status (a redirect is not followed)."""
    request = urllib.request.Request(
        config.url.rstrip("/") + path, data=b"", headers=config.headers, method="POST"
    )
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


async def _backoff(delay: float) -> float:
    await asyncio.sleep(delay * (0.5 + random.random()))
    return min(delay * 2, MAX_BACKOFF)


class Bridge:
    """The bot: ``run`` forever (until cancelled)."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.games: dict[str, asyncio.Task[None]] = {}

    async def run(self) -> None:
        delay = 1.0
        while True:
            try:
                async with connect(
                    f"{self.config.ws_base}/ws/bot/",
                    additional_headers=self.config.headers,
                    origin=self.config.origin,  # type: ignore[arg-type]
                ) as socket:
                    delay = 1.0
                    logger.info("connected to %s", self.config.url)
                    await socket.send(json.dumps(self._accepts()))
                    async for raw in socket:
                        await self.on_message(json.loads(raw))
            except (OSError, websockets.WebSocketException) as error:
                logger.warning("bot stream lost (%s); reconnecting", error)
            delay = await _backoff(delay)

    def _accepts(self) -> dict[str, Any]:
        return {
            "type": "accepts",
            "kinds": list(self.config.kinds),
            "sizes": list(self.config.sizes),
            "clocks": list(self.config.clocks),
        }

    async def on_message(self, message: dict[str, Any]) -> None:
        """A message of the bot's stream."""
        kind = message.get("type")
        game_id = str(message.get("game_id", ""))
        if kind == "challenge":
            why_not = coords.supported(
                message, kinds=self.config.kinds, sizes=self.config.sizes, clocks=self.config.clocks
            )
            if why_not is not None:
                logger.info("declining %s: %s", game_id, why_not)
                await asyncio.to_thread(post, self.config, f"/games/{game_id}/decline/")
                return
            status = await asyncio.to_thread(post, self.config, f"/games/{game_id}/join/")
            logger.info("accepted %s (HTTP %d)", game_id, status)
            self.play(game_id)
        elif kind == "game":
            self.play(game_id)

    def play(self, game_id: str) -> None:
        """Play ``game_id`` unless a task already does."""
        task = self.games.get(game_id)
        if task is None or task.done():
            self.games[game_id] = asyncio.create_task(GamePlayer(self.config, game_id).run())


@dataclass
class GamePlayer:
    """One game: its socket, its engine, what the engine has been told."""

    config: Config
    game_id: str
    engine: GtpEngine | None = None
    told: list[tuple[str, str]] = field(default_factory=list)
    moves: list[dict[str, Any]] = field(default_factory=list)
    top_row_one: bool = True
    asked_ply: int = -1
    marks: int = 0

    async def run(self) -> None:
        self.top_row_one = self.config.othello_top_row_one
        delay = 1.0
        try:
            while True:
                try:
                    if await self._session():
                        return
                    delay = 1.0
                except (OSError, websockets.WebSocketException) as error:
                    logger.warning("game %s: connection lost (%s)", self.game_id, error)
                except Exception:
                    # An engine that failed in a way nobody foresaw: start again from the
                    # game's state rather than leave the game unplayed.
                    logger.exception("game %s: failed; starting again", self.game_id)
                    await asyncio.to_thread(self._drop_engine)
                delay = await _backoff(delay)
        finally:
            if self.engine is not None:
                await asyncio.to_thread(self.engine.close)

    async def _session(self) -> bool:
        """One connection to the game; True once the game is over (or not ours)."""
        self.asked_ply = -1
        async with connect(
            f"{self.config.ws_base}/ws/games/{self.game_id}/",
            additional_headers=self.config.headers,
            origin=self.config.origin,  # type: ignore[arg-type]
        ) as socket:
            async for raw in socket:
                message = json.loads(raw)
                game = message.get("game")
                if message.get("type") == "error":
                    await self._on_error(socket, message)
                    continue
                if not isinstance(game, dict):
                    continue
                if "moves" in game:
                    self.moves = list(game["moves"])
                elif (
                    message.get("type") == "moved" and message["move"]["ply"] == len(self.moves) + 1
                ):
                    self.moves.append(message["move"])
                if len(self.moves) != game["ply"]:
                    await socket.send(json.dumps({"type": "sync"}))
                    continue
                if game["status"] in OVER or (game["you"] is None and game["status"] != "waiting"):
                    logger.info("game %s: %s %s", self.game_id, game["status"], game["result"])
                    return True
                await self._act(socket, game)
        return False

    async def _on_error(self, socket: ClientConnection, message: dict[str, Any]) -> None:
        logger.warning("game %s: %s", self.game_id, message.get("message"))
        if message.get("code") in ("stale", "illegal_move", "not_your_turn"):
            self.asked_ply = -1
            await socket.send(json.dumps({"type": "sync"}))

    async def _act(self, socket: ClientConnection, game: dict[str, Any]) -> None:
        you = game["you"]
        logger.debug(
            "game %s: %s at ply %d, %s to move",
            self.game_id,
            game["status"],
            game["ply"],
            game["to_move"],
        )
        if game["status"] == "scoring":
            await self._count(socket, game)
            return
        self.marks = 0
        if game["status"] != "active" or game["to_move"] != you or self.asked_ply == game["ply"]:
            return
        self.asked_ply = game["ply"]
        answer = await asyncio.to_thread(self._genmove, game)
        if answer is None:
            return
        if answer.lower() == "resign":
            reply: dict[str, Any] = {"type": "resign"}
        elif answer.lower() == "pass":
            reply = {"type": "pass", "ply": game["ply"]}
        else:
            point = self._point(answer, game)
            if point is None or list(point) not in game["legal"]:
                logger.warning("game %s: engine said %s, not legal here", self.game_id, answer)
                if not game["legal"]:
                    reply = {"type": "pass", "ply": game["ply"]}
                else:
                    reply = {"type": "play", "ply": game["ply"], "point": game["legal"][0]}
            else:
                reply = {"type": "play", "ply": game["ply"], "point": list(point)}
        logger.info("game %s: move %d: %s", self.game_id, game["ply"] + 1, answer)
        await socket.send(json.dumps(reply))

    def _point(self, vertex: str, game: dict[str, Any]) -> tuple[int, int] | None:
        try:
            return coords.to_point(
                vertex, kind=game["kind"], size=game["size"], top_row_one=self.top_row_one
            )
        except ValueError:
            return None

    # The engine (these run on a thread)

    def _genmove(self, game: dict[str, Any]) -> str | None:
        you = game["you"]
        for attempt in range(2):
            try:
                self._sync(game)
                left = coords.time_left(game.get("clock"), you)
                if left is not None:
                    with contextlib.suppress(GtpError):
                        self._send(left)
                answer = self._send(f"genmove {you}", timeout=self._think_time(game))
                # The engine played its move on its own board: it has been told it.
                point = self._point(answer, game)
                if point is not None:
                    vertex = coords.to_vertex(
                        point, kind=game["kind"], size=game["size"], top_row_one=self.top_row_one
                    )
                    self.told.append((you, vertex))
                elif answer.lower() == "pass":
                    self.told.append((you, "pass"))
                return answer
            except EngineError as error:
                logger.warning("game %s: engine failed (%s); restarting", self.game_id, error)
                self._drop_engine()
                if attempt:
                    return "pass" if game["kind"] == "go" else None
        return None

    def _think_time(self, game: dict[str, Any]) -> float:
        clock = game.get("clock")
        if not clock or clock.get("system") == "correspondence":
            return GENMOVE_TIMEOUT
        remaining: float = clock[game["you"]]["remaining_ms"] / 1000
        return max(1.0, min(GENMOVE_TIMEOUT, remaining - 1))

    def _send(self, command: str, *, timeout: float | None = None) -> str:
        if self.engine is None or not self.engine.alive:
            self.engine = GtpEngine(self.config.engine, timeout=30)
            self.told = []
        return self.engine.send(command, timeout=timeout)

    def _drop_engine(self) -> None:
        if self.engine is not None:
            self.engine.close()
        self.engine = None
        self.told = []

    def _sync(self, game: dict[str, Any]) -> None:
        """Bring the engine to the game's position: the moves it lacks, or all of them
        from a cleared board when it was told something else (an undo, a new engine)."""
        wanted = [
            command for move in self.moves if (command := self._command(move, game)) is not None
        ]
        if self.engine is None or not self.engine.alive or self.told != wanted[: len(self.told)]:
            self._reset(game)
        for color, vertex in wanted[len(self.told) :]:
            try:
                self._send(f"play {color} {vertex}")
            except GtpError:
                if vertex == "pass":
                    pass  # an Othello engine that knows no passes: genmove names the colour
                elif game["kind"] == "othello" and not self.told:
                    # The engine reads Othello's rows the other way up: turn and replay.
                    self.top_row_one = not self.top_row_one
                    self._reset(game)
                    return self._sync(game)
                else:
                    raise
            self.told.append((color, vertex))
        return None

    def _reset(self, game: dict[str, Any]) -> None:
        self.told = []
        self._send(f"boardsize {game['size']}")
        self._send("clear_board")
        if game["kind"] == "go" and game.get("komi") is not None:
            self._send(f"komi {game['komi']}")
        settings = coords.time_settings(game.get("clock"))
        if settings is not None:
            with contextlib.suppress(GtpError):
                self._send(settings)

    def _command(self, move: dict[str, Any], game: dict[str, Any]) -> tuple[str, str] | None:
        if move["action"] == "place":
            vertex = coords.to_vertex(
                move["point"], kind=game["kind"], size=game["size"], top_row_one=self.top_row_one
            )
            return move["color"], vertex
        if move["action"] == "pass":
            return move["color"], "pass"
        return None

    # Go's count

    async def _count(self, socket: ClientConnection, game: dict[str, Any]) -> None:
        """Mark the engine's dead stones (until the marking first matches, at most a few
        marks), then accept the marking when it is the engine's own."""
        dead = await asyncio.to_thread(self._dead_stones, game)
        if dead is None:
            return
        marked = {tuple(point) for point in game["dead"] or []}
        if dead == marked:
            self.marks = -1  # matched once: from now on only accept
            if not game["accepted"][game["you"]]:
                await socket.send(json.dumps({"type": "accept", "marking": game["marking"]}))
            return
        if 0 <= self.marks < 2 * game["size"]:
            self.marks += 1
            point = sorted(dead ^ marked)[0]
            await socket.send(
                json.dumps({"type": "mark", "point": list(point), "marking": game["marking"]})
            )

    def _dead_stones(self, game: dict[str, Any]) -> set[tuple[int, int]] | None:
        try:
            self._sync(game)
            answer = self._send("final_status_list dead")
        except (EngineError, GtpError) as error:
            logger.warning("game %s: no dead stones from the engine (%s)", self.game_id, error)
            return None
        points = (self._point(vertex, game) for vertex in coords.vertices(answer))
        return {point for point in points if point is not None}
