"""Forms that do one thing however often they are sent (docs/api/README.md, "One name per
player"): a double click, a resent request. A form carries a one-time token
(``FORM_TOKEN``, made by ``{% form_token %}`` or by the page's script); the first POST
with it does the work and keeps what it made, and any later POST with the same token from
the same visitor answers with that, changing nothing. A POST without a token (a script, a
bot) is done every time, as before.

The token is kept in the transaction of the work itself, so that two POSTs racing with one
token never both do it: the second waits on the first's row, then reads its outcome. A
refused request (the work raised) keeps nothing: the form may be sent again.
"""

from __future__ import annotations

import datetime
import re
import secrets
from collections.abc import Callable

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Submission
from accounts.players import Player

FORM_TOKEN = "form_token"
"""The forms' field holding the token."""

KEPT = datetime.timedelta(days=1)
"""How long a token's outcome is kept: a form resent later than this is new."""

_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")


class TokenError(ValueError):
    """A token that is not one (the field's value is malformed), or one another visitor
    sent."""


def new_token() -> str:
    """A fresh token for a form (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def checked(token: object) -> str | None:
    """``token`` as a form sent it: None when absent or empty (no token: the work is done
    every time); raises TokenError when it is not 16 to 64 URL-safe characters."""
    if token in (None, ""):
        return None
    if not isinstance(token, str) or not _SHAPE.fullmatch(token):
        raise TokenError(gettext("form_token must be 16 to 64 letters, digits, - or _"))
    return token


@transaction.atomic
def once(token: str | None, *, player: Player, work: Callable[[], str]) -> str:
    """``work()``'s outcome (a string, e.g. a game's id), done once per ``token``: a
    token already used by ``player`` answers the first outcome without doing anything.
    Raises TokenError for a token another visitor used, and whatever ``work`` raises
    (then the token is not used)."""
    if token is None:
        return work()
    owner = player.token or ""
    try:
        with transaction.atomic():
            Submission.objects.create(token=token, owner=owner)
    except IntegrityError:
        first = Submission.objects.get(token=token)
        if first.owner != owner or not first.outcome:
            raise TokenError(gettext("this form was sent by someone else")) from None
        return first.outcome
    outcome = work()
    Submission.objects.filter(token=token).update(outcome=outcome)
    Submission.objects.filter(created_at__lt=timezone.now() - KEPT).delete()
    return outcome
