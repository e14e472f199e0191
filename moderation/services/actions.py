"""A staff member's action on an account: ``act``, one transaction with its log entry.

The account's row is locked first, so that two staff acting at once on one account are
applied one after the other, each with its entry (``Action``), in the order they
committed. Every action but ``lift_playban`` closes the account's open reports; every
one but ``dismiss`` tells their reporters (``report_closed``, in each reporter's
language).

What each action changes is a flag on the account's own row, read by the apps that
enforce it (accounts.standing), and what must stop at once:

- ``mute`` (``hours``, or for good) and ``unmute``: ``Account.muted_until`` and
  ``muted_for_good``;
- ``mark_engine``: ``Account.engine``; the account's rated seeks withdrawn, its waiting
  rated games (open ones and challenges, from it or to it) called off, and it withdrawn
  from the rated tournaments not finished; ``unmark_engine`` lifts the mark;
- ``close``: Django's ``is_active`` false (no login, no session, no token); its seeks
  withdrawn, its waiting games and the challenges to it called off, its games in
  progress resigned (the games' resign), and it withdrawn from every tournament not
  finished;
- ``dismiss``: nothing but the reports closed;
- ``lift_playban``: the playban in force ends (``Account.playban_until``; the playban
  kept, marked lifted: moderation.services.playbans); the reports stay open, as it
  decides nothing about them.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from contextlib import suppress
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from accounts import selectors as accounts
from accounts.models import Account
from accounts.players import Player
from games.models import Game
from games.services import lobby, play
from games.services.errors import GameError
from moderation.models import TEXT_MAX, Action, Report
from moderation.services import playbans
from moderation.services.errors import ModerationError
from notifications import services as notifications
from notifications.models import Kind
from pairing import services as pairing
from tournaments import services as tournaments
from tournaments.models import Entry, Tournament

HOURS_MAX = 24 * 365
"""A mute for hours lasts at most this many (a year); longer is for good."""

THANKS = gettext_noop("Staff acted on your report of %(name)s. Thank you.")
"""The ``report_closed`` notification's words."""


@transaction.atomic
def act(
    *,
    staff_id: int,
    username: Any,
    action: Any,
    reason: Any,
    hours: Any = None,
    now: datetime.datetime | None = None,
) -> Action:
    """Staff member ``staff_id`` does ``action`` (one of ``Action.Kind``) to the account
    ``username`` for ``reason`` (required, trimmed, at most ``TEXT_MAX`` characters);
    a ``mute`` lasts ``hours`` (1 to ``HOURS_MAX``; None or "" for good). The log's
    entry, written at ``now`` (default: once the account's row is locked).

    Raises ModerationError: not_found (no such account, naming ``username``),
    bad_request naming the field at fault (``username``: the staff member's own;
    ``action``; ``reason``: blank, not text or too long; ``hours``)."""
    account = accounts.account_named(username) if isinstance(username, str) else None
    if account is None:
        raise ModerationError("not_found", gettext("there is no such player"), field="username")
    if account.pk == staff_id:
        raise ModerationError(
            "bad_request", gettext("staff do not act on their own account"), field="username"
        )
    if action not in Action.Kind.values:
        raise ModerationError(
            "bad_request",
            gettext("action must be one of %(actions)s")
            % {"actions": ", ".join(Action.Kind.values)},
            field="action",
        )
    reason = _reason(reason)
    length = _hours(hours) if action == Action.Kind.MUTE else None
    user = get_user_model().objects.select_for_update().get(pk=account.pk)
    row = Account.objects.select_for_update().get_or_create(user=user)[0]
    now = now or timezone.now()
    until = now + datetime.timedelta(hours=length) if length is not None else None
    EFFECTS[action](user, row, until, now)
    entry = Action.objects.create(
        at=now, staff_id=staff_id, account=user, action=action, reason=reason, until=until
    )
    if action != Action.Kind.LIFT_PLAYBAN:
        _close_reports(entry, tell=action != Action.Kind.DISMISS)
    return entry


def _reason(reason: Any) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise ModerationError(
            "bad_request", gettext("reason: say why (the log keeps it)"), field="reason"
        )
    if len(reason.strip()) > TEXT_MAX:
        raise ModerationError(
            "bad_request",
            gettext("reason must be at most %(max)d characters") % {"max": TEXT_MAX},
            field="reason",
        )
    return reason.strip()


def _hours(hours: Any) -> int | None:
    """A mute's length in whole hours; None (for good) when none is given."""
    if hours is None or hours == "":
        return None
    if isinstance(hours, str) and hours.strip().isdigit():
        hours = int(hours)
    if not isinstance(hours, int) or isinstance(hours, bool) or not 1 <= hours <= HOURS_MAX:
        raise ModerationError(
            "bad_request",
            gettext("hours must be a whole number from 1 to %(max)d, or none for good")
            % {"max": HOURS_MAX},
            field="hours",
        )
    return hours


# The effects, each given the account (locked), its row (locked), a mute's end and the
# time of the action


def _mute(user: Any, row: Account, until: datetime.datetime | None, now: datetime.datetime) -> None:
    row.muted_until = until
    row.muted_for_good = until is None
    row.save(update_fields=["muted_until", "muted_for_good"])


def _unmute(
    user: Any, row: Account, until: datetime.datetime | None, now: datetime.datetime
) -> None:
    row.muted_until = None
    row.muted_for_good = False
    row.save(update_fields=["muted_until", "muted_for_good"])


def _mark_engine(
    user: Any, row: Account, until: datetime.datetime | None, now: datetime.datetime
) -> None:
    row.engine = True
    row.save(update_fields=["engine"])
    pairing.withdraw_seeks(user_id=user.pk, rated_only=True)
    _call_off_waiting(user.pk, rated_only=True)
    _withdraw(user.pk, rated_only=True)


def _unmark_engine(
    user: Any, row: Account, until: datetime.datetime | None, now: datetime.datetime
) -> None:
    row.engine = False
    row.save(update_fields=["engine"])


def _close(
    user: Any, row: Account, until: datetime.datetime | None, now: datetime.datetime
) -> None:
    user.is_active = False
    user.save(update_fields=["is_active"])
    pairing.withdraw_seeks(user_id=user.pk)
    _call_off_waiting(user.pk)
    _resign_playing(user.pk)
    _withdraw(user.pk)


def _dismiss(
    user: Any, row: Account, until: datetime.datetime | None, now: datetime.datetime
) -> None:
    """Nothing changes but the reports, closed."""


def _lift_playban(
    user: Any, row: Account, until: datetime.datetime | None, now: datetime.datetime
) -> None:
    playbans.lift(row, now)


EFFECTS = {
    Action.Kind.MUTE: _mute,
    Action.Kind.UNMUTE: _unmute,
    Action.Kind.MARK_ENGINE: _mark_engine,
    Action.Kind.UNMARK_ENGINE: _unmark_engine,
    Action.Kind.CLOSE: _close,
    Action.Kind.DISMISS: _dismiss,
    Action.Kind.LIFT_PLAYBAN: _lift_playban,
}


def _seated(user_id: int) -> Q:
    return Q(black_user_id=user_id) | Q(white_user_id=user_id)


def _call_off_waiting(user_id: int, *, rated_only: bool = False) -> None:
    """The account's games waiting for an opponent, and the challenges to it, called off
    (only the rated ones with ``rated_only``)."""
    waiting = Game.objects.filter(
        _seated(user_id) | Q(reserved_for_id=user_id), status=Game.Status.WAITING
    )
    if rated_only:
        waiting = waiting.filter(rated=True)
    for game_id in waiting.values_list("public_id", flat=True):
        # A game that started or ended meanwhile is left: what is in progress is resigned.
        with suppress(GameError):
            lobby.abort_as_admin(game_id=game_id)


def _resign_playing(user_id: int) -> None:
    """The account's games in progress (played or being counted) resigned by it."""
    playing = Game.objects.filter(
        _seated(user_id), status__in=(Game.Status.ACTIVE, Game.Status.SCORING)
    )
    for game_id in playing.values_list("public_id", flat=True):
        # A game that ended meanwhile is left (one whose clock ran out is flagged instead).
        with suppress(GameError):
            play.resign(player=Player(user_id=user_id), game_id=game_id)


def _withdraw(user_id: int, *, rated_only: bool = False) -> None:
    """The account out of the tournaments not finished (only the rated ones with
    ``rated_only``)."""
    entries = Entry.objects.filter(user_id=user_id, withdrawn=False).exclude(
        tournament__status=Tournament.Status.FINISHED
    )
    if rated_only:
        entries = entries.filter(tournament__rated=True)
    for tournament_id in entries.values_list("tournament_id", flat=True):
        tournaments.withdraw(user_id=user_id, tournament_id=tournament_id)


def report_closed_text(params: Mapping[str, Any]) -> str:
    """A ``report_closed`` notification's words, in the active language."""
    return gettext(THANKS) % {"name": params["name"]}


def _close_reports(entry: Action, *, tell: bool) -> None:
    """The account's open reports closed by ``entry``; with ``tell``, their reporters
    notified (``report_closed``, one notification each)."""
    open_reports = Report.objects.filter(account_id=entry.account_id, closed_at__isnull=True)
    reporters = sorted(set(open_reports.values_list("reporter_id", flat=True)))
    open_reports.update(closed_at=entry.at, closed_by=entry)
    if not tell or not reporters:
        return
    name = entry.account.get_username()
    notifications.notify_many(
        user_ids=reporters,
        kind=Kind.REPORT_CLOSED,
        params={"name": name},
        url=entry.account.get_absolute_url(),
        subject=f"account:{entry.account_id}",
        now=entry.at,
    )
