"""The sockets of a site with tournaments, routed here (``tournaments.routing``) so that
games and pairing know nothing of tournaments:

- the game socket: the games' consumer, answering also ``{"type": "berserk"}`` (an
  arena's player halving its own clock before its first move, ``services.berserk``);
- the lobby socket: pairing's consumer, answering also ``{"type": "chat", "text"}`` on a
  socket that follows a tournament (``?tournament=<id>``: ``services.say``, at the game
  chat's rate), and telling every socket of an account ``game_ready`` when a tournament
  pairs it (``services._tell_paired``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from django.utils.translation import gettext

from games.realtime import consumers
from games.realtime.sockets import database
from games.services.errors import GameError
from pairing import consumers as lobby
from tournaments import services
from tournaments.services import TournamentError


class GameConsumer(consumers.GameConsumer):
    """One browser watching one game, a tournament's or not."""

    more_messages: ClassVar[Mapping[str, Callable[..., object]]] = {"berserk": services.berserk}


MORE_MESSAGE_TYPES = tuple(GameConsumer.more_messages)
"""What the game socket answers beyond the games' ``MESSAGE_TYPES`` (docs/api/websocket.md)."""


class LobbyConsumer(lobby.LobbyConsumer):
    """One page's lobby socket: the lobby (the home page), an account's notifications
    (every page), a tournament's standings and chat (its page)."""

    more_messages: ClassVar[tuple[str, ...]] = ("chat",)

    async def receive_more(self, message: dict[str, Any]) -> None:
        """``chat``: a line in the followed tournament's chat (``services.say``, at the
        game chat's rate)."""
        if self.tournament is None:
            raise GameError("bad_request", gettext("chat is for a tournament's page"))
        try:
            await database(
                services.say,
                user_id=self.account,
                tournament_id=self.tournament,
                text=message.get("text"),
            )
        except TournamentError as error:
            # A tournament that is not there: the socket's query is at fault.
            code = "bad_request" if error.code == "not_found" else error.code
            raise GameError(code, error.message, field=error.field) from None

    async def tournament_chat(self, event: dict[str, Any]) -> None:
        """A line of the followed tournament's chat (``services.say``), built once by its
        sender: ``{"type": "chat", "username", "text", "at"}``."""
        await self.send(text_data=event["whole"])

    async def account_game_ready(self, event: dict[str, Any]) -> None:
        """A tournament paired this socket's account: the page opens the game."""
        await self.send_json(
            {"type": "game_ready", "game": event["game"], "tournament": event["tournament"]}
        )


LOBBY_MESSAGE_TYPES = LobbyConsumer.more_messages
"""What the lobby socket answers beyond pairing's ``MESSAGE_TYPES``."""
