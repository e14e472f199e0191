"""The game socket of a site with tournaments: the games' consumer, answering also
``{"type": "berserk"}`` (an arena's player halving its own clock before its first move,
``services.berserk``). Routed here (``tournaments.routing``) so that games knows nothing
of tournaments."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from games.realtime import consumers
from tournaments import services


class GameConsumer(consumers.GameConsumer):
    """One browser watching one game, a tournament's or not."""

    more_messages: ClassVar[Mapping[str, Callable[..., object]]] = {"berserk": services.berserk}


MORE_MESSAGE_TYPES = tuple(GameConsumer.more_messages)
"""What this socket answers beyond the games' ``MESSAGE_TYPES`` (docs/api/websocket.md)."""
