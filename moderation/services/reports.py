"""Reporting an account: ``report``, one transaction.

An account reports another for a reason of ``Report.Reason``, with a text of at most
``TEXT_MAX`` characters, naming where it happened when it wants: a game (its public id)
the reported account played, or a line the reported account said in a game's chat (its
id; the game is then the line's). A second open report of the same account for the same
reason by the same reporter answers the first; a reporter makes at most ``DAILY_LIMIT``
reports within any day (the reporter's row held while counting, so two at once cannot
both pass).
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts import selectors as accounts
from accounts import services as account_services
from games.models import ChatMessage, Game
from moderation.models import TEXT_MAX, Report
from moderation.services.errors import ModerationError

DAILY_LIMIT = 10
"""How many reports one account may make within any day."""
DAY = datetime.timedelta(days=1)


@dataclass(frozen=True)
class Filed:
    """A report as filed: ``made`` is False when it was the reporter's open report of the
    same account for the same reason, answered again."""

    report: Report
    made: bool


@transaction.atomic
def report(
    *,
    reporter_id: int,
    username: Any,
    reason: Any,
    text: Any = "",
    game: Any = None,
    chat: Any = None,
    now: datetime.datetime | None = None,
) -> Filed:
    """The account ``reporter_id``'s report of the account ``username`` (in any case) for
    ``reason``, with ``text`` (trimmed), about ``game`` (a public id) or the chat line
    ``chat`` (an id), each optional (None or "").

    Raises ModerationError: bad_request naming the field at fault (``username``: not an
    account, or the reporter's own; ``reason``: not one of ``Report.Reason``; ``text``:
    not text, or longer than ``TEXT_MAX``; ``chat``: no such line, or one the account did
    not say; ``game``: no such game, one the account did not play, or not the game of the
    line ``chat`` names), rate_limited (``DAILY_LIMIT`` reports made within the day
    before ``now``).
    """
    account = _reported(reporter_id, username)
    if reason not in Report.Reason.values:
        raise ModerationError(
            "bad_request",
            gettext("reason must be one of %(reasons)s")
            % {"reasons": ", ".join(Report.Reason.values)},
            field="reason",
        )
    text = _text(text)
    line = _line(chat, account.pk)
    where = _game(game, account.pk, line)
    now = now or timezone.now()
    account_services.hold(reporter_id)
    first = Report.objects.filter(
        reporter_id=reporter_id, account=account, reason=reason, closed_at__isnull=True
    ).first()
    if first is not None:
        return Filed(first, made=False)
    _refuse_past_the_day(reporter_id, now)
    made = Report.objects.create(
        reporter_id=reporter_id,
        account=account,
        reason=reason,
        text=text,
        game=where,
        chat=line,
        created_at=now,
    )
    return Filed(made, made=True)


def _reported(reporter_id: int, username: Any) -> Any:
    found = accounts.account_named(username, any_case=True) if isinstance(username, str) else None
    if found is None:
        raise ModerationError("bad_request", gettext("there is no such player"), field="username")
    if found.pk == reporter_id:
        raise ModerationError(
            "bad_request", gettext("you cannot report yourself"), field="username"
        )
    return found


def _text(text: Any) -> str:
    if text is None:
        return ""
    if not isinstance(text, str) or len(text.strip()) > TEXT_MAX:
        raise ModerationError(
            "bad_request",
            gettext("text must be at most %(max)d characters") % {"max": TEXT_MAX},
            field="text",
        )
    return text.strip()


def _line(chat: Any, account_id: int) -> ChatMessage | None:
    """The chat line ``chat`` names, which ``account_id`` said; None for none named."""
    if chat is None or chat == "":
        return None
    line_id = chat if isinstance(chat, int) and not isinstance(chat, bool) else None
    if isinstance(chat, str) and chat.isdigit() and len(chat) < 19:
        line_id = int(chat)
    found = ChatMessage.objects.filter(pk=line_id, user_id=account_id).first()
    if line_id is None or found is None:
        raise ModerationError(
            "bad_request", gettext("chat must be a chat line of this player's"), field="chat"
        )
    return found


def _game(game: Any, account_id: int, line: ChatMessage | None) -> Game | None:
    """The game ``game`` names (a public id) or, for none, ``line``'s; it must be one that
    ``account_id`` played, or the game of ``line``."""
    if game is None or game == "":
        return None if line is None else Game.objects.get(pk=line.game_id)
    played = Q(black_user_id=account_id) | Q(white_user_id=account_id)
    if line is not None:
        played = Q(pk=line.game_id)
    found = Game.objects.filter(played, public_id=game).first() if isinstance(game, str) else None
    if found is None:
        message = gettext("game must be a game this player played")
        if line is not None:
            message = gettext("game must be the game of the chat line")
        raise ModerationError("bad_request", message, field="game")
    return found


def _refuse_past_the_day(reporter_id: int, now: datetime.datetime) -> None:
    """Raise ModerationError("rate_limited") when the account made ``DAILY_LIMIT`` reports
    within the day before ``now``, saying when the next one may be made."""
    made = list(
        Report.objects.filter(reporter_id=reporter_id, created_at__gt=now - DAY)
        .order_by("created_at")
        .values_list("created_at", flat=True)
    )
    if len(made) < DAILY_LIMIT:
        return
    frees_at = made[-DAILY_LIMIT] + DAY
    hours = max(1, math.ceil((frees_at - now).total_seconds() / 3600))
    raise ModerationError(
        "rate_limited",
        ngettext(
            "at most %(n)d reports a day: the next one in %(hours)d hour",
            "at most %(n)d reports a day: the next one in %(hours)d hours",
            hours,
        )
        % {"n": DAILY_LIMIT, "hours": hours},
    )
