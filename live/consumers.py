"""The live game's sockets (routed by ``live.routing``).

The game's websocket: decode a message, call one service, send.

Client to server: `play` {ply, point}, `pass` {ply}, `resign`, `sync`, `claim` (the
opponent left), and in Go's scoring phase `mark` {point, marking?}, `accept` {marking?},
`resume` {marking?}; `berserk` (an arena's player halving its own clock before its first
move: the tournaments' service).
Server to client: `state` on connect and on `sync`, `moved` after every stored
move, `state` after every other change (a join, a mark, an accept, a resume;
both sent once the service's transaction commits, see `live.events`), and
`error` {code, message} to the sender only (a `muted`
chat line's with its `until`). The seat
comes from the session and the account in the scope, never from a message.

When the database cannot be reached, a message is answered `unavailable` (the service's
transaction rolled back: nothing was written) and a new socket is closed with 1013 (try
again later). The message limit (`rate_limited`, close 4429) is applied before a message
gets here, where daphne reads it (`othello_site.websocket_flow`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ClassVar

from django.utils.translation import gettext

from accounts import selectors as accounts
from accounts.players import Player, spoken_name
from games import selectors
from games.realtime.events import group_name
from games.realtime.sockets import (
    CLOSE_TRY_AGAIN_LATER,
    DirectDispatchConsumer,
    database,
    parse_message,
)
from games.services import play, presence, scoring, table
from games.services.errors import GameError
from games.workers import clockwatch
from live import events, state
from pairing import consumers as lobby
from tournaments import services as tournaments
from tournaments.services import TournamentError

CLOSE_UNKNOWN_GAME = 4404
MESSAGE_TYPES = (
    "play",
    "pass",
    "resign",
    "sync",
    "mark",
    "accept",
    "resume",
    "claim",
    "chat",
    "undo",
    "undo_accept",
    "undo_decline",
    "rematch",
    "berserk",
)
BLOCKS_READ_EVERY = 10.0
"""Seconds a socket trusts its reader's blocks before reading them again (a block made
during a game hides the blocked account's lines within this)."""


def _perform(message: dict[str, Any], *, player: Player, game_id: str, scope: Any) -> None:
    """The one service call a message other than `sync` asks for (``scope``: the socket's,
    whose session and account name a spectator in the chat)."""
    get = message.get
    ids = {"player": player, "game_id": game_id}
    calls: dict[str, Callable[[], object]] = {
        "play": lambda: play.play(**ids, ply=get("ply"), point=get("point")),
        "pass": lambda: play.pass_turn(**ids, ply=get("ply")),
        "resign": lambda: play.resign(**ids),
        "mark": lambda: scoring.mark(**ids, point=get("point"), marking=get("marking")),
        "accept": lambda: scoring.accept(**ids, marking=get("marking")),
        "resume": lambda: scoring.resume(**ids, marking=get("marking")),
        "claim": lambda: presence.claim(**ids),
        "chat": lambda: table.say(**ids, name=_spoken_name(scope), text=get("text")),
        "undo": lambda: table.ask_undo(**ids, ply=get("ply")),
        "undo_accept": lambda: table.accept_undo(**ids, ply=get("ply")),
        "undo_decline": lambda: table.decline_undo(**ids, ply=get("ply")),
        "rematch": lambda: table.offer_rematch(**ids),
        "berserk": lambda: tournaments.berserk(**ids),
    }
    calls[message["type"]]()


def _spoken_name(scope: Any) -> str:
    """The sender's name for the chat (a player's is their seat's, in the service). Reads
    the session and the accounts: in the database thread."""
    return spoken_name(scope.get("session"), scope.get("user"))


def _chat_history(game_id: str, blocked: set[int]) -> dict[str, Any]:
    """The chat so far, without the lines of the accounts the reader blocks."""
    said = table.chat_history(game_id)
    messages = [selectors.chat_json(message) for message in said if message.user_id not in blocked]
    return {"type": "chat_history", "messages": messages}


class GameConsumer(DirectDispatchConsumer):
    """One browser (player or spectator) watching one game, a tournament's or not."""

    sent_at = 0
    """When the game last changed, as this socket's client has it (``_seen``)."""

    async def connect(self) -> None:
        self.game_id: str = self.scope["url_route"]["kwargs"]["game_id"]
        self.player = Player.of(self.scope.get("session"), self.scope.get("user"))
        # Accepted first: a close code only reaches a client whose handshake succeeded.
        await self.accept()
        try:
            # Looked up before joining: an id that is no game never reaches the channel
            # layer (nor can one that is no valid group name).
            if await self._state() is None:
                await self.close(code=CLOSE_UNKNOWN_GAME)
                return
            self.group = group_name(self.game_id)
            await self.channel_layer.group_add(self.group, self.channel_name)
            # A player's socket makes the seat online (everyone is told, by `state`).
            self.seated = await database(
                presence.connected,
                player=self.player,
                game_id=self.game_id,
                process=clockwatch.PROCESS_NAME,
                channel_name=self.channel_name,
            )
            # Read again once in the group, so that no move can fall between state and
            # events; then the chat so far.
            await self.send_json({"type": "state", "game": await self._state()})
            blocked = await self._blocked()
            await self.send_json(await database(_chat_history, self.game_id, blocked))
        except GameError:
            await self.close(code=CLOSE_TRY_AGAIN_LATER)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if getattr(self, "seated", None):
            try:
                await database(presence.disconnected, channel_name=self.channel_name)
            except GameError:
                # The database is down: the clock watch retries until it is back.
                clockwatch.disconnect_later(self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None:
            await self._send_error(
                GameError("bad_request", gettext("binary frames are not accepted"))
            )
            return
        try:
            message = parse_message(text_data, MESSAGE_TYPES)
            if message["type"] == "sync":
                await self.send_json({"type": "state", "game": await self._state()})
                return
            await database(
                _perform, message, player=self.player, game_id=self.game_id, scope=self.scope
            )
        except GameError as error:
            await self._send_error(error)

    async def game_moved(self, event: dict[str, Any]) -> None:
        """The moves one call stored (a move and its automatic pass), from
        `events.send_moved`: a ``moved`` each, in ply order (the client keeps the later of
        two with one ply)."""
        self._seen(event["at"])
        for text in events.personal(event, self._you(event)):
            await self.send(text_data=text)

    async def game_state(self, event: dict[str, Any]) -> None:
        """A changed game without a move (a join, an abort, Go's count, a seat online or
        offline), from `events.send_state`; dropped when the client has a later state."""
        if event.get("skip") == self.channel_name:
            return  # this socket's own arrival: its client got the state on connect
        if self._seen(event["at"]):
            for text in events.personal(event, self._you(event)):
                await self.send(text_data=text)

    async def layer_rejoined(self, event: dict[str, Any]) -> None:
        """The channel layer lost this socket's group for a while (a Redis restart): events
        sent meanwhile reached nobody, so the client gets the game as it is now."""
        state = await self._state_or_none()
        if state is not None:
            await self.send_json({"type": "state", "game": state})

    async def game_undone(self, event: dict[str, Any]) -> None:
        """The last move taken back, from `events.send_undone`; dropped when the client
        has a later state."""
        if self._seen(event["at"]):
            for text in events.personal(event, self._you(event)):
                await self.send(text_data=text)

    def _seen(self, at: int) -> bool:
        """Whether the game as it was ``at`` (``live.state.changed_at``) is not older than
        what this socket's client has; if so, the client has it from now on. (An event
        queued while the socket sent its state on connect, or sent by another process
        before a later one arrived, is older.)"""
        if at < self.sent_at:
            return False
        self.sent_at = at
        return True

    async def game_chat(self, event: dict[str, Any]) -> None:
        """A chat message, from `games.realtime.events.broadcast_chat`; not sent to a
        reader who blocks its author."""
        author = event.get("author")
        if author is not None and self.player.user_id is not None:
            try:
                if author in await self._blocked():
                    return
            except GameError:
                pass  # the database is down: the blocks last read stand
        await self.send(text_data=event["whole"])

    async def _blocked(self) -> set[int]:
        """The accounts this socket's reader blocks, read again every
        ``BLOCKS_READ_EVERY`` seconds."""
        now = time.monotonic()
        read_at, blocked = getattr(self, "blocks_read", (None, set()))
        if self.player.user_id is None:
            return set()
        if read_at is None or now - read_at >= BLOCKS_READ_EVERY:
            blocked = await database(accounts.blocked_ids, self.player.user_id)
            self.blocks_read = (now, blocked)
        return blocked

    async def game_rematch(self, event: dict[str, Any]) -> None:
        """The rematch has begun: its id, from `games.realtime.events.broadcast_rematch`."""
        await self.send(text_data=event["whole"])

    async def game_analysis(self, event: dict[str, Any]) -> None:
        """The review's progress, from `games.realtime.events.broadcast_analysis`."""
        await self.send(text_data=event["whole"])

    def _you(self, event: dict[str, Any]) -> str | None:
        token = self.player.token
        seats = event["seats"].items()
        return next((color for color, held in seats if token and held == token), None)

    async def _state(self) -> dict[str, Any] | None:
        """G as the database has it now, for this socket's client (which has it from then
        on); None for no such game."""
        read = await database(state.dated_state_for, self.game_id, you=self.player)
        if read is None:
            return None
        game, self.sent_at = read
        return game

    async def _state_or_none(self) -> dict[str, Any] | None:
        try:
            return await self._state()
        except GameError:
            return None  # the database is down too: the client will sync

    async def _send_error(self, error: GameError) -> None:
        await self.send_json(
            {"type": "error", "code": error.code, "message": error.message, **error.details}
        )


class LobbyConsumer(lobby.LobbyConsumer):
    """One page's lobby socket: the lobby (the home page), an account's notifications
    (every page), a tournament's standings and chat (its page): pairing's consumer,
    answering also ``{"type": "chat", "text"}`` on a socket that follows a tournament
    (``?tournament=<id>``: ``tournaments.services.say``, at the game chat's rate), and
    telling every socket of an account ``game_ready`` when a tournament pairs it."""

    more_messages: ClassVar[tuple[str, ...]] = ("chat",)

    async def receive_more(self, message: dict[str, Any]) -> None:
        """``chat``: a line in the followed tournament's chat (``tournaments.services.say``,
        at the game chat's rate)."""
        if self.tournament is None:
            raise GameError("bad_request", gettext("chat is for a tournament's page"))
        try:
            await database(
                tournaments.say,
                user_id=self.account,
                tournament_id=self.tournament,
                text=message.get("text"),
            )
        except TournamentError as error:
            # A tournament that is not there: the socket's query is at fault.
            code = "bad_request" if error.code == "not_found" else error.code
            raise GameError(code, error.message, field=error.field) from None

    async def tournament_chat(self, event: dict[str, Any]) -> None:
        """A line of the followed tournament's chat (``tournaments.services.say``), built
        once by its sender: ``{"type": "chat", "username", "text", "at"}``."""
        await self.send(text_data=event["whole"])

    async def account_game_ready(self, event: dict[str, Any]) -> None:
        """A tournament paired this socket's account: the page opens the game."""
        await self.send_json(
            {"type": "game_ready", "game": event["game"], "tournament": event["tournament"]}
        )
