"""``WS /ws/bot/``: a bot's stream of challenges and games (a token only, no session).

Server to bot: ``{"type": "challenge", "game_id", "kind", "size", "komi", "color" (the
bot's), "clock", "rated", "from"}`` for each new challenge; ``{"type":
"challenge_cancelled", "game_id"}`` when one was declined or not answered in time; and
on connect, the pending challenges and ``{"type": "game", "game_id", "kind", "size",
"color", "status"}`` for every game it sits in that is not over. Bot to server:
``{"type": "accepts", "kinds": [...], "sizes": [...], "clocks": [...]}`` (what the
bridge plays, shown on /players/bots/).
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils.translation import gettext

from accounts import selectors as accounts
from bots import services
from games import limits
from games.realtime.sockets import database, parse_message
from games.services.errors import GameError
from games.workers import clockwatch

MESSAGE_TYPES = ("accepts",)


def _accepts(message: dict[str, Any]) -> dict[str, list[Any]] | None:
    """What an ``accepts`` message says the bot plays; None for fields of the wrong shape."""
    accepts = {}
    for key in ("kinds", "sizes", "clocks"):
        value = message.get(key, [])
        if not isinstance(value, list) or len(value) > 50:
            return None
        accepts[key] = [item for item in value if isinstance(item, str | int)]
    return accepts


class BotConsumer(AsyncJsonWebsocketConsumer):
    """One bridge's socket."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        # Refused before accept: no token is HTTP 401, a token of no bot 403.
        if self.scope.get("auth_token") is None:
            await self.close(code=limits.REFUSE_UNAUTHORIZED)
            return
        if not await database_sync_to_async(accounts.is_bot)(user):
            await self.close()
            return
        self.user_id: int = user.pk
        self.group = services.bot_group(self.user_id)
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        await database_sync_to_async(services.bot_connected)(
            user_id=self.user_id, process=clockwatch.PROCESS_NAME, channel_name=self.channel_name
        )
        for message in await database_sync_to_async(services.bot_games)(user_id=self.user_id):
            await self.send_json(message)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await database_sync_to_async(services.bot_disconnected)(channel_name=self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            accepts = _accepts(parse_message(text_data or "", MESSAGE_TYPES))
            if accepts is None:
                raise GameError(
                    "bad_request", gettext("kinds, sizes and clocks are lists of at most 50")
                )
            await database(services.set_accepts, user_id=self.user_id, accepts=accepts)
        except GameError as error:
            await self.send_json({"type": "error", "code": error.code, "message": error.message})

    async def bot_message(self, event: dict[str, Any]) -> None:
        """A message for the bot, from ``services.tell_bot``."""
        await self.send_json(event["message"])
