"""What the games know of an account besides its seats: whether it is a bot.

The bots app owns that fact (its ``BotAccount`` rows) and hands this module the one
query that answers it (``register_bot_ids``, from its ``AppConfig.ready()``): the games
app, and the players and pairing apps above it, ask here without importing the bots
app. Until an app registers, no account is a bot.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from games.models import Game

BotIds = Callable[[list[int]], set[int]]
"""Which of these account ids are bots: one query."""


def _no_bots(user_ids: list[int]) -> set[int]:
    return set()


_bot_ids: BotIds = _no_bots


def register_bot_ids(query: BotIds) -> None:
    """Answer "which of these accounts are bots" with ``query`` from now on."""
    global _bot_ids
    _bot_ids = query


def bot_ids(user_ids: Iterable[int | None]) -> set[int]:
    """Which of ``user_ids`` are bots (one query; none for no ids)."""
    wanted = [user_id for user_id in user_ids if user_id is not None]
    if not wanted:
        return set()
    return _bot_ids(wanted)


def is_bot(user: Any) -> bool:
    """True if ``user`` (an account, an id, or anonymous/None) is a bot account."""
    user_id = user if isinstance(user, int) else getattr(user, "pk", None)
    return user_id is not None and user_id in bot_ids([user_id])


_seated: dict[int, bool] = {}


def seat_bots(game: Game) -> dict[str, bool]:
    """G's ``bots``: ``{"black": bool, "white": bool}``, whether each seat is a bot.

    Remembered per process: an account that sits in a game can never become a bot
    (the bots app makes only an account without games a bot), nor stop being one, so
    the answer never changes, and G costs no query for it after the first.
    """
    seats = {color: getattr(game, f"{color}_user_id") for color in ("black", "white")}
    unknown = [
        user_id for user_id in seats.values() if user_id is not None and user_id not in _seated
    ]
    if unknown:
        bots = bot_ids(unknown)
        _seated.update({user_id: user_id in bots for user_id in unknown})
    return {color: user_id is not None and _seated[user_id] for color, user_id in seats.items()}
