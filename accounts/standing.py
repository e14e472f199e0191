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

- A playbanned account (``playbanned``: moderation.services.playbans, for games it let
  end without its move or left to time out) seeks no game, joins no pool and no
  tournament until its playban ends: the pools (``seekers``) and the tournaments' joins
  refuse it with ``playban`` and the playban's ``until``. Its challenges, its joining a
  friend's game and its pairings in a tournament it is already in go on.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils import formats, timezone
from django.utils.timesince import timeuntil
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


PLAYBAN_REASONS = {
    "no_move": gettext_noop("you let games end without making your first move"),
    "left": gettext_noop("you left a game you had started"),
}
"""Why an account is playbanned, by ``Account.playban_reason`` (``gettext`` it)."""


@dataclass(frozen=True)
class Playban:
    """An account's playban in force: until ``until``, for ``reason`` (a key of
    ``PLAYBAN_REASONS``)."""

    until: datetime.datetime
    reason: str

    def until_json(self) -> str:
        """``until`` as the refusals carry it: ISO 8601."""
        return self.until.isoformat()

    def words(self, *, now: datetime.datetime | None = None) -> str:
        """The refusal in the active language: until when (the server's time zone named),
        how long that is from ``now`` (default: now), and why."""
        shown = timezone.localtime(self.until)
        when = f"{formats.time_format(shown, 'TIME_FORMAT')} {shown.tzname()}"
        why = PLAYBAN_REASONS.get(self.reason, PLAYBAN_REASONS["no_move"])
        return gettext(
            "you cannot seek a game, join a pool or join a tournament until %(until)s "
            "(in %(left)s): %(why)s"
        ) % {
            "until": when,
            "left": timeuntil(self.until, now or timezone.now()),
            "why": gettext(why),
        }


def playbanned(user_id: int | None, *, now: datetime.datetime | None = None) -> Playban | None:
    """The playban of the account ``user_id`` in force at ``now`` (default: now), None
    when it may seek (and for a guest)."""
    if user_id is None:
        return None
    return seekers([user_id], now=now).playbans.get(user_id)


@dataclass(frozen=True)
class Seekers:
    """Of some accounts, those the pools treat apart: the ``bots`` (they never seek), those
    marked for engine use (``engines``: no rated seek), and the ``playbans`` in force (no
    seek at all), by account."""

    bots: set[int]
    engines: set[int]
    playbans: dict[int, Playban]


def seekers(user_ids: Iterable[int | None], *, now: datetime.datetime | None = None) -> Seekers:
    """Which of ``user_ids`` are bots, which are marked for engine use, and which are
    playbanned at ``now`` (default: now), in one query (the pools read them for a burst
    of seeks; none for no ids)."""
    wanted = {user_id for user_id in user_ids if user_id is not None}
    if not wanted:
        return Seekers(set(), set(), {})
    now = now or timezone.now()
    found = Account.objects.filter(user_id__in=wanted).filter(
        Q(is_bot=True) | Q(engine=True) | Q(playban_until__gt=now)
    )
    rows = list(found.values_list("user_id", "is_bot", "engine", "playban_until", "playban_reason"))
    return Seekers(
        bots={user_id for user_id, bot, *_ in rows if bot},
        engines={user_id for user_id, _, engine, *_ in rows if engine},
        playbans={
            user_id: Playban(until, reason)
            for user_id, _, _, until, reason in rows
            if until is not None and until > now
        },
    )


def engine_ids(user_ids: Iterable[int | None]) -> set[int]:
    """Which of ``user_ids`` are marked for engine use (one query; none for no ids)."""
    return seekers(user_ids).engines


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
