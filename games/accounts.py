"""What the games know of an account besides its seats: whether it is a bot.

The bots app owns that fact (its ``BotAccount`` rows) and hands this module the query of
every bot account's id (``register_bot_accounts``, from its ``AppConfig.ready()``): the
games app, and the players and pairing apps above it, ask here (``bot_ids``, ``is_bot``,
or ``bot_filter`` inside a query of their own) without importing the bots app. Until an
app registers, no account is a bot.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from games.models import Game

BotAccounts = Callable[[], QuerySet[Any]]
"""The ids of every bot account, as a query (``values_list(..., flat=True)``): used as a
subquery, never read whole."""

_bot_accounts: BotAccounts | None = None


def register_bot_accounts(query: BotAccounts) -> None:
    """Answer "which accounts are bots" with ``query`` from now on."""
    global _bot_accounts
    _bot_accounts = query


def bot_filter(field: str, *, bots: bool = True) -> Q:
    """A filter on ``field`` (an account id, e.g. ``user_id``): the rows of bots, or with
    ``bots=False`` of everyone else (people, and rows without an account)."""
    if _bot_accounts is None:
        return Q(pk__in=[]) if bots else Q()
    inside = Q(**{f"{field}__in": _bot_accounts()})
    return inside if bots else ~inside


def bot_ids(user_ids: Iterable[int | None]) -> set[int]:
    """Which of ``user_ids`` are bots (one query; none for no ids)."""
    wanted = [user_id for user_id in user_ids if user_id is not None]
    if not wanted or _bot_accounts is None:
        return set()
    accounts = get_user_model().objects.filter(Q(pk__in=wanted) & bot_filter("pk"))
    return set(accounts.values_list("pk", flat=True))


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
