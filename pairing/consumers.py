"""The lobby's websocket, ``WS /ws/lobby/``: the open games, the pools, and seeks.

A socket opened with ``?tournament=<id>`` (a tournament's page) also hears that
tournament's ``standings`` (broadcast.tournament_group), whatever else it hears. The
live app serves this route with a subclass that answers the tournaments' messages
(``more_messages``: the tournament's chat) and hears their events (``game_ready``).

Server to client: ``lobby`` {games, playing, seeking} on connect and whenever it changes
(``pairing.lobby.broadcast_lobby``; the pools' counts at most once a second, from the pairing
loop); then, if the session seeks, ``seeking``.
Client to server: ``seek`` {kind, size, clock and its settings, rated, range}, answered
``seeking`` {seek}; ``cancel_seek``, answered ``seek_cancelled``. When paired, every lobby
socket of the session gets ``paired`` {game_id}. Errors: ``{"type": "error", "code",
"message", "field"}`` with ``bad_request`` (the field named), ``login_required`` (a rated
seek from a guest), ``playban`` (any seek from a playbanned account, with ``until``),
``not_allowed`` (a rated seek from an account marked for engine use), ``unavailable``
(the database cannot be reached), ``rate_limited``.

A socket opened without a session gets one, so that its seek, the seat it is paired
into and the socket share it (a browser's page always gave it one before). The seeks a
process's sockets receive while it stores others are stored together (``_Seeks``), and
``paired`` reaches every lobby socket as one event a wave, each socket sending its client
its own session's game.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any, ClassVar

from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.languages import of_scope
from accounts.players import Player, spoken_name
from accounts.refusals import Refusal
from broadcast import account_group, tournament_group
from games.realtime.sockets import (
    CLOSE_TRY_AGAIN_LATER,
    DirectDispatchConsumer,
    database,
    parse_message,
)
from games.services.errors import GameError
from games.workers import clockwatch
from notifications import services as notifications
from pairing import lobby as lobbies
from pairing import services
from pairing.selectors import lobby_sockets, seek_json
from pairing.services import PairingError, SeekRequest

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
    return player, *_now(player, of_scope(scope))


def _now(player: Player, language: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    seek = services.seek_of(player=player)
    return lobbies.lobby_json(language), seek_json(seek) if seek is not None else None


def _request(scope: Any, player: Player, message: dict[str, Any]) -> SeekRequest:
    """The ``seek`` message of a socket as the service takes it (in the database thread:
    the session may be read from the database)."""
    user = scope.get("user")
    account = user if user is not None and user.is_authenticated else None
    name = spoken_name(scope["session"], user)
    return SeekRequest(player, account, name, message, timezone.now(), of_scope(scope))


def _seek_many(
    asked: list[tuple[Any, Player, dict[str, Any]]],
) -> list[tuple[dict[str, Any], bool] | PairingError]:
    """Each request's ``seek`` for ``seeking`` and whether its session has other lobby
    sockets (counted once the seeks are stored: a socket that opens later finds the seek
    when it opens), or its PairingError."""
    made = services.seek_many([_request(*request) for request in asked])
    stored = [seek for seek in made if not isinstance(seek, PairingError)]
    sockets = lobby_sockets(seek.session_key for seek in stored)
    answers: list[tuple[dict[str, Any], bool] | PairingError] = []
    for (scope, _, _), seek in zip(asked, made, strict=True):
        if isinstance(seek, PairingError):
            answers.append(seek)
        else:
            with translation.override(of_scope(scope)):  # each seeker's own words
                answers.append((seek_json(seek), sockets.get(seek.session_key, 0) > 1))
    return answers


class _Seeks:
    """The seeks of one event loop's lobby sockets (one process), stored together.

    A seek is one transaction of three queries, each a wait for PostgreSQL and then for
    the interpreter's lock, which the event loop holds while it is busy: with a thousand
    sockets seeking at once they queued for ten seconds on the database thread. So a seek
    that arrives while others are being stored waits for them to be done, and then goes
    with every seek that came meanwhile, in one transaction (``services.seek_many``). A
    lone seek goes at once."""

    def __init__(self) -> None:
        self.waiting: list[tuple[tuple[Any, Player, dict[str, Any]], asyncio.Future[Any]]] = []
        self.storing: asyncio.Task[None] | None = None

    async def seek(
        self, scope: Any, player: Player, message: dict[str, Any]
    ) -> tuple[dict[str, Any], bool]:
        """The ``seek`` of ``seeking`` for ``player``'s message, and whether the session
        has other lobby sockets; raises PairingError, or GameError("unavailable") when the
        database cannot be reached."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        # Retrieved even when the socket stopped waiting for it (it closed meanwhile).
        future.add_done_callback(lambda done: done.cancelled() or done.exception())
        self.waiting.append(((scope, player, message), future))
        if self.storing is None:
            self.storing = loop.create_task(self._store())
        answer: tuple[dict[str, Any], bool] = await asyncio.shield(future)
        return answer

    async def _store(self) -> None:
        try:
            while self.waiting:
                batch, self.waiting = self.waiting, []
                made: list[Any]
                try:
                    made = await database(_seek_many, [asked for asked, _ in batch])
                except GameError as error:  # unavailable: each seeker is told
                    made = [GameError(error.code, error.message) for _ in batch]
                except Exception as error:
                    made = [error] * len(batch)  # a bug: each seeker's consumer raises it
                for (_, future), answer in zip(batch, made, strict=True):
                    if future.done():
                        continue
                    if isinstance(answer, Exception):
                        future.set_exception(answer)
                    else:
                        future.set_result(answer)
        finally:
            self.storing = None


_seeks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Seeks] = weakref.WeakKeyDictionary()


def _seeks_here() -> _Seeks:
    loop = asyncio.get_running_loop()
    if loop not in _seeks:
        _seeks[loop] = _Seeks()
    return _seeks[loop]


def _followed_tournament(query: list[bytes]) -> int | None:
    """The tournament a socket's query follows (``tournament=<id>``), None for none or an
    id that is not a number."""
    for part in query:
        name, _, value = part.partition(b"=")
        if name == b"tournament" and value.isdigit() and len(value) < 19:
            return int(value)
    return None


class LobbyConsumer(DirectDispatchConsumer):
    """One home page: the lobby, live, and its session's seek; for an account, its
    notifications (on every page: a socket opened with ``?bell=1``, as the header's bell
    opens it, hears only those, and keeps no seek).

    An app above serves the route with a subclass that answers message types of its own
    on any lobby socket, a bell's too (``more_messages``, handled by ``receive_more``):
    the tournaments' chat (live.consumers)."""

    more_messages: ClassVar[tuple[str, ...]] = ()

    async def connect(self) -> None:
        await self.accept()
        user = self.scope.get("user")
        self.account = user.pk if user is not None and user.is_authenticated else None
        if self.account is not None:
            await self.channel_layer.group_add(account_group(self.account), self.channel_name)
        query = self.scope.get("query_string", b"").split(b"&")
        self.tournament = _followed_tournament(query)
        self.followed = None if self.tournament is None else tournament_group(self.tournament)
        if self.followed is not None:
            await self.channel_layer.group_add(self.followed, self.channel_name)
        self.bell_only = b"bell=1" in query
        if self.bell_only:
            return
        self.language = of_scope(self.scope)
        await self.channel_layer.group_add(lobbies.LOBBY_GROUP, self.channel_name)
        try:
            self.player, lobby, seek = await database(_open, self.scope, self.channel_name)
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
        if getattr(self, "account", None) is not None:
            await self.channel_layer.group_discard(account_group(self.account), self.channel_name)
        if getattr(self, "followed", None) is not None:
            await self.channel_layer.group_discard(self.followed, self.channel_name)
        if getattr(self, "bell_only", False):
            return
        await self.channel_layer.group_discard(lobbies.LOBBY_GROUP, self.channel_name)
        if not hasattr(self, "group"):
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        try:
            await database(services.socket_closed, channel_name=self.channel_name)
        except GameError:
            _closed_later.add(self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            if text_data is None:
                raise GameError("bad_request", gettext("binary frames are not accepted"))
            message = parse_message(text_data, (*MESSAGE_TYPES, *self.more_messages))
            if message["type"] in self.more_messages:
                await self.receive_more(message)
                return
            if self.bell_only:
                raise GameError("bad_request", gettext("this socket hears notifications only"))
            if message["type"] == "seek":
                seek, tabs = await _seeks_here().seek(self.scope, self.player, message)
                self.sought: dict[str, Any] | None = message
                await self._to_session({"type": "seeking", "seek": seek}, others=tabs)
            else:
                self.sought = None
                await database(services.cancel_seek, player=self.player)
                await self._to_session({"type": "seek_cancelled"})
        except Refusal as error:  # the game's, pairing's (a mute's or a playban's ``until``)
            await self.send_json(
                {
                    "type": "error",
                    "code": error.code,
                    "message": error.message,
                    "field": error.field,
                    **error.details,
                }
            )

    async def receive_more(self, message: dict[str, Any]) -> None:
        """A message of ``more_messages`` (a subclass's); raises GameError to refuse it."""
        raise NotImplementedError

    async def _to_session(self, message: dict[str, Any], *, others: bool = True) -> None:
        """Answer this socket, and tell the session's other lobby sockets (its other tabs)
        unless it is known to have none (``others`` False: a thousand seeks at once are
        then not a thousand messages through Redis back to their own sockets)."""
        await self.send_json(message)
        if not others:
            return
        await self.channel_layer.group_send(
            self.group, {"type": "pairing.news", "message": message, "skip": self.channel_name}
        )

    async def pairing_news(self, event: dict[str, Any]) -> None:
        """The session's seek changed in another of its tabs."""
        if event["skip"] != self.channel_name:
            self.sought = None  # the seek this socket made, if any, was replaced or cancelled
            await self.send_json(event["message"])

    async def pairing_forgotten(self, event: dict[str, Any]) -> None:
        """Another process's wave took this process for dead (its heartbeat was late: a
        stalled loop) and forgot its sockets and the session's seek. The socket counts
        again, and the one that made the seek makes it again: the client sees `seeking`."""
        player = getattr(self, "player", None)
        if player is None:
            return
        try:
            await database(
                services.socket_opened,
                session_key=player.session_key,
                channel_name=self.channel_name,
                process=clockwatch.PROCESS_NAME,
            )
            sought = getattr(self, "sought", None)
            if sought is None:
                return
            seek, tabs = await _seeks_here().seek(self.scope, player, sought)
        except Refusal:
            self.sought = None
            await self._to_session({"type": "seek_cancelled"})
            return
        await self._to_session({"type": "seeking", "seek": seek}, others=tabs)

    async def pairing_paired(self, event: dict[str, Any]) -> None:
        """Sessions were paired, perhaps this one: its game (``services.pair_many``)."""
        player = getattr(self, "player", None)  # None: the socket could not open
        if player is None or player.session_key is None:
            return
        text = services.paired_text(event, player.session_key)
        if text is not None:
            self.sought = None
            await self.send(text_data=text)

    async def layer_rejoined(self, event: dict[str, Any]) -> None:
        """The channel layer lost this socket's groups for a while (a Redis restart): what
        was sent meanwhile reached nobody, so the client gets the lobby and its seek as
        they are now (a seek paired meanwhile: the session's game is on its home page)."""
        if self.bell_only:
            return
        try:
            lobby, seek = await database(_now, self.player)
        except GameError:
            return  # the database is down too: the client reconnects later
        await self.send_json(lobby)
        if seek is not None:
            await self.send_json({"type": "seeking", "seek": seek})

    async def account_notification(self, event: dict[str, Any]) -> None:
        """Something happened for this socket's account (notifications.services.notify):
        ``{"type": "notification", "notification": N, "unread": n}``, N's text in the
        socket's language."""
        await self.send_json(
            {
                "type": "notification",
                "notification": notifications.socket_json(event["notification"]),
                "unread": event["unread"],
            }
        )

    async def account_unread(self, event: dict[str, Any]) -> None:
        """Some of the account's notifications were marked read (another tab, say):
        ``{"type": "unread", "unread": n}``."""
        await self.send_json({"type": "unread", "unread": event["unread"]})

    async def account_challenges(self, event: dict[str, Any]) -> None:
        """The challenges waiting for the account's answer changed (one made, declined,
        accepted, expired or called off: challenges.services): ``{"type": "challenges",
        "incoming": n}``; the header's inbox reads them again."""
        await self.send_json({"type": "challenges", "incoming": event["incoming"]})

    async def tournament_standings(self, event: dict[str, Any]) -> None:
        """The followed tournament changed (a pairing, a result, its start or end):
        ``{"type": "standings", "tournament": T}``, built once by its sender."""
        await self.send(text_data=event["whole"])

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        """The lobby changed, from `pairing.lobby.broadcast_lobby`: in the socket's language."""
        language = getattr(self, "language", None)
        await self.send(text_data=event.get("languages", {}).get(language, event["whole"]))
