"""What staff decided about an account, read by the apps that enforce it.

The flags are on the account's own row (``Account.muted_until`` and ``muted_for_good``,
``Account.engine``; a closed account is Django's ``is_active=False``), written by the
moderation app, which sits above every app that reads them: none of those imports it.

- A muted account (``muted``) says nothing in a chat and challenges nobody: the games'
  chat and the challenges refuse it with ``muted`` and the mute's ``until``; it creates
  no tournament. A closed account's sockets still open are muted for good.
- An account marked for engine use (``is_engine``, ``engine_ids``) plays no rated game:
  the games, the pools, the challenges and the tournaments refuse it with
  ``not_allowed`` (``ENGINE_REFUSAL``).
- The leaderboards list only the accounts in good standing (``in_good_standing``): not
  marked for engine use, not closed.

A playban (the moderation app's next area, ``moderation.services.playbans``) belongs
here the same way: its end on the account's row, read by the seeks, the pools and the
tournaments' joins.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext, gettext_noop

from accounts.models import Account

ENGINE_REFUSAL = gettext_noop("an account marked for engine use plays no rated game")
"""The refusal of a rated game to an account marked for engine use (``gettext`` it)."""


@dataclass(frozen=True)
class Mute:
    """An account's mute in force: until ``until``, or for good (``until`` None)."""

    until: datetime.datetime | None

    def until_json(self) -> str | None:
        """``until`` as the refusals carry it: ISO 8601, or None for good."""
        return None if self.until is None else self.until.isoformat()

    def words(self) -> str:
        """The refusal in the active language, saying until when (the server's time
        zone named)."""
        if self.until is None:
            return gettext("you are muted for good")
        shown = timezone.localtime(self.until)
        when = f"{formats.date_format(shown, 'SHORT_DATETIME_FORMAT')} {shown.tzname()}"
        return gettext("you are muted until %(until)s") % {"until": when}


def muted(user_id: int | None, *, now: datetime.datetime | None = None) -> Mute | None:
    """The mute of the account ``user_id`` in force at ``now`` (default: now), None when
    it may speak (and for a guest). A closed account is muted for good."""
    if user_id is None:
        return None
    found = (
        Account.objects.filter(user_id=user_id)
        .values_list("muted_until", "muted_for_good", "user__is_active")
        .first()
    )
    if found is None:
        return None
    until, for_good, active = found
    if for_good or not active:
        return Mute(None)
    if until is not None and until > (now or timezone.now()):
        return Mute(until)
    return None


def engine_ids(user_ids: Iterable[int | None]) -> set[int]:
    """Which of ``user_ids`` are marked for engine use (one query; none for no ids)."""
    return bots_and_engines(user_ids)[1]


def bots_and_engines(user_ids: Iterable[int | None]) -> tuple[set[int], set[int]]:
    """Which of ``user_ids`` are bots, and which are marked for engine use, in one query
    (the pools read both for a burst of seeks)."""
    wanted = {user_id for user_id in user_ids if user_id is not None}
    if not wanted:
        return set(), set()
    found = Account.objects.filter(user_id__in=wanted).filter(Q(is_bot=True) | Q(engine=True))
    rows = list(found.values_list("user_id", "is_bot", "engine"))
    return (
        {user_id for user_id, bot, _ in rows if bot},
        {user_id for user_id, _, engine in rows if engine},
    )


def is_engine(user_id: int | None) -> bool:
    """Whether the account ``user_id`` is marked for engine use (False for a guest)."""
    return user_id is not None and user_id in engine_ids([user_id])


def engine_of(user: Any) -> bool:
    """Whether the account ``user`` (a user) is marked for engine use: its row as read with
    it (``accounts.selectors.account_named`` reads it), else one query."""
    try:
        return bool(user.account.engine)
    except Account.DoesNotExist:
        return False


def in_good_standing(field: str) -> Q:
    """A filter on ``field``, a path to an account (``user`` of a model with a foreign key
    to it): the rows of accounts neither marked for engine use nor closed."""
    return ~Q(**{f"{field}__account__engine": True}) & Q(**{f"{field}__is_active": True})
