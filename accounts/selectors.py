"""Reads of accounts that every app above asks: whether an account is a bot, and whether
a name is an account's."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q


def bot_filter(field: str, *, bots: bool = True) -> Q:
    """A filter on ``field``, a path to an account (e.g. ``user`` of a model with a
    foreign key to it, or ``pk`` on the accounts): the rows of bots, or with
    ``bots=False`` of everyone else (people, and rows without an account)."""
    path = "account__is_bot" if field == "pk" else f"{field}__account__is_bot"
    inside = Q(**{path: True})
    return inside if bots else ~inside


def bot_ids(user_ids: Iterable[int | None]) -> set[int]:
    """Which of ``user_ids`` are bots (one query; none for no ids)."""
    wanted = {user_id for user_id in user_ids if user_id is not None}
    if not wanted:
        return set()
    bots = get_user_model().objects.filter(bot_filter("pk"), pk__in=wanted)
    return set(bots.values_list("pk", flat=True))


def is_bot(user: Any) -> bool:
    """True if ``user`` (an account, an id, or anonymous/None) is a bot account."""
    user_id = user if isinstance(user, int) else getattr(user, "pk", None)
    return user_id is not None and user_id in bot_ids([user_id])


def is_username(name: str) -> bool:
    """Whether ``name`` (trimmed, in any case) is an account's username: a guest may not
    sit down under it."""
    name = name.strip()
    return bool(name) and get_user_model().objects.filter(username__iexact=name).exists()


def username_of(user_id: int) -> str:
    """The username of the account ``user_id`` (which exists)."""
    return str(get_user_model().objects.values_list("username", flat=True).get(pk=user_id))


def account_named(username: str, *, any_case: bool = False) -> Any:
    """The account named ``username`` (exactly, or with ``any_case`` in any case: no two
    accounts differ only in case), None when there is none."""
    lookup = "username__iexact" if any_case else "username"
    return get_user_model().objects.filter(**{lookup: username}).first()
