"""The outbox: the deliveries the notifications wrote, sent once each, by whichever
process claims them first (Zulip's queue workers; DESIGN.md "Delivery is never lost and
never doubled").

A process claims up to ``BATCH`` due deliveries at a time (``claim``: in one transaction,
rows locked with SKIP LOCKED on PostgreSQL, the whole database on SQLite), holding each
for ``LEASE`` (``leased_by``, ``leased_until``): another process takes one over only once
that has run out (its claimant died while sending). Each is then sent (``send``,
notifications.channels) and settled (``settle``): sent; or, failing, tried again after a
back-off (``RETRY_FIRST`` doubling to ``RETRY_MAX``) until ``GIVE_UP_AFTER`` has passed
since it was written: then given up, and marked so. A push service that answers that the
subscription is gone (404, 410), or an endpoint refused at the send, ends the subscription
and its deliveries; an e-mail to an account that no longer has a verified address is given
up at once.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable

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
        rows = rows.select_for_update(skip_locked=True)
    ids = list(rows.values_list("pk", flat=True)[:limit])
    if ids:
        Delivery.objects.filter(pk__in=ids).update(leased_by=process, leased_until=now + LEASE)
    return ids


def retry_after(attempts: int) -> datetime.timedelta:
    """The wait before the next try after ``attempts`` failed ones: ``RETRY_FIRST``,
    doubling, at most ``RETRY_MAX``."""
    return min(RETRY_MAX, RETRY_FIRST * 2 ** max(0, attempts - 1))


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
        if delivery.next_try_at - delivery.created_at > GIVE_UP_AFTER:
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
