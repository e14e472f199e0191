"""The outbox: the deliveries the notifications wrote, sent once each, by whichever
process claims them first (Zulip's queue workers; docs/architecture.md#design-notes,
"Notifications that are never lost nor doubled").

A process claims up to ``BATCH`` due deliveries at a time (``claim``: in one transaction,
rows locked with SKIP LOCKED on PostgreSQL, the whole database on SQLite), holding each
for ``LEASE`` (``leased_by``, ``leased_until``): another process takes one over only once
that has run out (its claimant died while sending). Each is then sent (``send``,
notifications.channels) and settled (``settle``): sent; or, failing, tried again after a
back-off (``RETRY_FIRST`` doubling to ``RETRY_MAX``) until the waits after its failed
tries add up to ``GIVE_UP_AFTER``: then given up, and marked so. A push service that
answers that the subscription is gone (404, 410), or an endpoint refused at the send, ends
the subscription and its deliveries; an e-mail to an account that no longer has a
verified address is given up at once.

An account is sent at most ``EMAILS_AN_HOUR`` e-mails within any hour
(``hold_emails_past_the_hour``, applied as they are claimed): the e-mails past that are
not claimed but wait, pending, until the hour allows (their ``next_try_at`` moved on, no
try counted), and are sent then; nothing is dropped, and the time spent waiting so is
never counted towards giving up.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from notifications.models import Delivery, PushSubscription

logger = logging.getLogger(__name__)

BATCH = 50
LEASE = datetime.timedelta(seconds=60)
RETRY_FIRST = datetime.timedelta(seconds=30)
RETRY_MAX = datetime.timedelta(hours=1)
GIVE_UP_AFTER = datetime.timedelta(days=1)
EMAILS_AN_HOUR = 20
"""How many notification e-mails an account is sent within any hour."""
HOUR = datetime.timedelta(hours=1)


class Gone(Exception):
    """The delivery can never be made: the push service says the subscription no longer
    exists (404 or 410), its endpoint is refused now (``notifications.endpoints``), or the
    account has no verified address to mail."""


def due(now: datetime.datetime) -> Q:
    """The deliveries to send now: pending, due, and held by nobody (or by a process whose
    lease ran out)."""
    return Q(status=Delivery.Status.PENDING, next_try_at__lte=now) & (
        Q(leased_until=None) | Q(leased_until__lt=now)
    )


@transaction.atomic
def claim(*, process: str, now: datetime.datetime | None = None, limit: int = BATCH) -> list[int]:
    """The ids of up to ``limit`` due deliveries, now held by ``process`` for ``LEASE``:
    no other process claims them meanwhile."""
    now = now or timezone.now()
    rows = Delivery.objects.filter(due(now)).order_by("next_try_at", "pk")
    if connection.features.has_select_for_update_skip_locked:
        rows = rows.select_for_update(skip_locked=True, of=("self",))
    found = list(rows.values_list("pk", "channel", "notification__user_id")[:limit])
    emails = [(pk, user_id) for pk, channel, user_id in found if channel == Delivery.Channel.EMAIL]
    held = hold_emails_past_the_hour(emails, now=now)
    ids = [pk for pk, _, _ in found if pk not in held]
    if ids:
        Delivery.objects.filter(pk__in=ids).update(leased_by=process, leased_until=now + LEASE)
    return ids


def hold_emails_past_the_hour(emails: list[tuple[int, int]], *, now: datetime.datetime) -> set[int]:
    """Of ``emails`` (due e-mail deliveries being claimed, as ``(delivery id, account
    id)``, in the order they are due, their rows locked), those that would give their
    account more than ``EMAILS_AN_HOUR`` e-mails within the hour before ``now``: each is
    left pending, due again when one of the hour's e-mails leaves the hour, with no try
    counted. Their ids.

    The hour's e-mails are those sent since ``now - HOUR`` and those being sent (held by
    a process's lease). The accounts' rows are locked meanwhile, so two processes (or
    two threads) claiming at once count each other's."""
    if not emails:
        return set()
    by_account: dict[int, list[int]] = {}
    for delivery_id, user_id in emails:
        by_account.setdefault(user_id, []).append(delivery_id)
    accounts = sorted(by_account)
    list(
        get_user_model()
        .objects.select_for_update(no_key=True)
        .filter(pk__in=accounts)
        .order_by("pk")
        .values_list("pk")
    )
    by_email = Delivery.objects.filter(
        channel=Delivery.Channel.EMAIL, notification__user_id__in=accounts
    )
    hour: dict[int, list[datetime.datetime]] = {user_id: [] for user_id in accounts}
    sent = by_email.filter(status=Delivery.Status.SENT, sent_at__gt=now - HOUR)
    for user_id, sent_at in sent.values_list("notification__user_id", "sent_at"):
        hour[user_id].append(sent_at)
    sending = by_email.filter(status=Delivery.Status.PENDING, leased_until__gt=now)
    for user_id in sending.values_list("notification__user_id", flat=True):
        hour[user_id].append(now)
    held: set[int] = set()
    for user_id, due_ids in by_account.items():
        room = max(0, EMAILS_AN_HOUR - len(hour[user_id]))
        if len(due_ids) <= room:
            continue
        # Those sent now join the hour; the rest are due when it has a place again.
        times = sorted([*hour[user_id], *[now] * room])
        frees_at = times[len(times) - EMAILS_AN_HOUR] + HOUR
        waiting = due_ids[room:]
        Delivery.objects.filter(pk__in=waiting).update(next_try_at=frees_at)
        held.update(waiting)
    return held


def retry_after(attempts: int) -> datetime.timedelta:
    """The wait before the next try after ``attempts`` failed ones: ``RETRY_FIRST``,
    doubling, at most ``RETRY_MAX``."""
    return min(RETRY_MAX, RETRY_FIRST * 2 ** max(0, attempts - 1))


def failing_for(attempts: int) -> datetime.timedelta:
    """How long a delivery has been failing after ``attempts`` failed tries: the waits
    after them (``retry_after``) added up. A delivery that waited before its first try
    (for the hourly cap of e-mails, or a server that was down) is not given up for that.

    >>> failing_for(2)
    datetime.timedelta(seconds=90)
    """
    return sum((retry_after(number) for number in range(1, attempts + 1)), datetime.timedelta())


@transaction.atomic
def settle(
    delivery_id: int,
    *,
    process: str,
    error: str | None,
    gone: bool = False,
    now: datetime.datetime | None = None,
) -> str | None:
    """Record how sending ``delivery_id`` went (``error``: None when it was sent; ``gone``:
    it can never be made); its new status, or None when ``process`` no longer held it (its
    lease ran out and another process took it: nothing is recorded twice)."""
    now = now or timezone.now()
    delivery = (
        Delivery.objects.select_for_update()
        .filter(pk=delivery_id, leased_by=process, status=Delivery.Status.PENDING)
        .first()
    )
    if delivery is None:
        return None
    if gone and delivery.subscription_id is not None:
        PushSubscription.objects.filter(pk=delivery.subscription_id).delete()
        return Delivery.Status.GAVE_UP
    delivery.leased_by, delivery.leased_until = "", None
    if gone:
        delivery.status, delivery.last_error = Delivery.Status.GAVE_UP, (error or "gone")[:300]
    elif error is None:
        delivery.status, delivery.sent_at = Delivery.Status.SENT, now
        delivery.last_error = ""
    else:
        delivery.attempts += 1
        delivery.last_error = error[:300]
        delivery.next_try_at = now + retry_after(delivery.attempts)
        if failing_for(delivery.attempts) > GIVE_UP_AFTER:
            delivery.status = Delivery.Status.GAVE_UP
    delivery.save()
    return delivery.status


Sender = Callable[[Delivery], None]
"""Sends one delivery; raises ``Gone`` for one that can never be made (a subscription
that is gone, no verified address), any other exception for a failure worth trying
again."""


def deliver(*, process: str, send: Sender, now: datetime.datetime | None = None) -> int:
    """Claim the due deliveries and send each with ``send``, settling it. How many were
    claimed (a full batch: call again)."""
    ids = claim(process=process, now=now)
    for delivery in Delivery.objects.filter(pk__in=ids).select_related(
        "notification", "notification__user", "subscription"
    ):
        error, gone = None, False
        try:
            send(delivery)
        except Gone as reason:
            error, gone = str(reason) or "gone", True
        except Exception as failure:
            logger.warning("delivery %s failed: %s", delivery.pk, failure)
            error = f"{type(failure).__name__}: {failure}"
        settle(delivery.pk, process=process, error=error, gone=gone)
    return len(ids)
