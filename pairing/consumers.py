"""The lobby's websocket, ``WS /ws/lobby/``: the open games, the pools, and seeks.

Server to client: ``lobby`` {games, playing, seeking} on connect and whenever it changes
(games.events.broadcast_lobby; the pools' counts at most once a second, from the pairing
loop); then, if the session seeks, ``seeking``.
Client to server: ``seek`` {kind, size, clock and its settings, rated, range}, answered
``seeking`` {seek}; ``cancel_seek``, answered ``seek_cancelled``. When paired, every lobby
socket of the session gets ``paired`` {game_id}. Errors: ``{"type": "error", "code",
"message", "field"}`` with ``bad_request`` (the field named), ``login_required`` (a rated
seek from a guest), ``unavailable`` (the database cannot be reached), ``rate_limited``.

A socket opened without a session gets one, so that its seek, the seat it is paired
into and the socket share it (a browser's page always gave it one before).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games import clockwatch, events, guests, selectors
from games.consumers import CLOSE_TRY_AGAIN_LATER, _database, _DirectDispatch, parse_message
from games.services import GameError, Player
from pairing import services
from pairing.selectors import seek_json
from pairing.services import PairingError

MESSAGE_TYPES = ("seek", "cancel_seek")

_closed_later: set[str] = set()


def closed_later() -> set[str]:
    """The lobby sockets that closed while the database could not be reached: the pairing
    loop forgets them once it is back (or their seeks would live on)."""
    return _closed_later


def _open(scope: Any, channel_name: str) -> tuple[Player, dict[str, Any], dict[str, Any] | None]:
    """The socket's Player (a session made if it had none), the lobby message, and the
    session's seek (as `seeking`'s ``seek``) if it has one."""
    session = scope["session"]
    if session.session_key is None:
        session.save()
    player = Player.of(session, scope.get("user"))
    services.socket_opened(
        session_key=session.session_key, channel_name=channel_name, process=clockwatch.PROCESS_NAME
    )
    return player, *_now(player)


def _now(player: Player) -> tuple[dict[str, Any], dict[str, Any] | None]:
    seek = services.seek_of(player=player)
    return selectors.lobby_json(), seek_json(seek) if seek is not None else None


def _seek(scope: Any, player: Player, message: dict[str, Any]) -> dict[str, Any]:
    user = scope.get("user")
    account = user if user is not None and user.is_authenticated else None
    remembered = scope["session"].get(guests.NAME_KEY)
    name = account.get_username() if account is not None else str(remembered or "Guest")
    seek = services.seek(
        player=player, user=account, name=name, message=message, now=timezone.now()
    )
    return seek_json(seek)


class LobbyConsumer(_DirectDispatch):
    """One home page: the lobby, live, and its session's seek."""

    async def connect(self) -> None:
        await self.accept()
        await self.channel_layer.group_add(events.LOBBY_GROUP, self.channel_name)
        try:
            self.player, lobby, seek = await _database(_open, self.scope, self.channel_name)
        except GameError:
            await self.close(code=CLOSE_TRY_AGAIN_LATER)
            return
        assert self.player.session_key is not None
        self.group = services.seeker_group(self.player.session_key)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send_json(lobby)
        if seek is not None:
            await self.send_json({"type": "seeking", "seek": seek})

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(events.LOBBY_GROUP, self.channel_name)
        if not hasattr(self, "group"):
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        try:
            await _database(services.socket_closed, channel_name=self.channel_name)
        except GameError:
            _closed_later.add(self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            if text_data is None:
                raise GameError("bad_request", "binary frames are not accepted")
            message = parse_message(text_data, MESSAGE_TYPES)
            if message["type"] == "seek":
                seek = await _database(_seek, self.scope, self.player, message)
                await self._to_session({"type": "seeking", "seek": seek})
            else:
                await _database(services.cancel_seek, player=self.player)
                await self._to_session({"type": "seek_cancelled"})
        except (GameError, PairingError) as error:
            field = getattr(error, "field", None)
            await self.send_json(
                {"type": "error", "code": error.code, "message": error.message, "field": field}
            )

    async def _to_session(self, message: dict[str, Any]) -> None:
        """Answer this socket, and tell the session's other lobby sockets (its other tabs)."""
        await self.send_json(message)
        await self.channel_layer.group_send(
            self.group, {"type": "pairing.news", "message": message, "skip": self.channel_name}
        )

    async def pairing_news(self, event: dict[str, Any]) -> None:
        """The session's seek changed in another of its tabs."""
        if event["skip"] != self.channel_name:
            await self.send_json(event["message"])

    async def pairing_paired(self, event: dict[str, Any]) -> None:
        """The session's seek was paired: its game, from `services.pair`."""
        await self.send(text_data=event["whole"])

    async def layer_rejoined(self, event: dict[str, Any]) -> None:
        """The channel layer lost this socket's groups for a while (a Redis restart): what
        was sent meanwhile reached nobody, so the client gets the lobby and its seek as
        they are now (a seek paired meanwhile: the session's game is on its home page)."""
        try:
            lobby, seek = await _database(_now, self.player)
        except GameError:
            return  # the database is down too: the client reconnects later
        await self.send_json(lobby)
        if seek is not None:
            await self.send_json({"type": "seeking", "seek": seek})

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        """The lobby changed, from `events.broadcast_lobby`."""
        await self.send(text_data=event["whole"])
