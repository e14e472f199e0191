"""Work held by one process at a time (a lease): a review's queue, and the apps' (the
puzzles' mining), claimed through ``claim_leased``."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Q, QuerySet


def claim_leased(
    rows: QuerySet[Any],
    *,
    process: str,
    limit: int,
    now: datetime.datetime,
    lease: datetime.timedelta,
) -> list[Any]:
    """Up to ``limit`` of ``rows`` (a queryset of a model with ``status`` queued, running,
    ``worker`` and ``lease_until``, in the order to take them) that no process holds
    (queued, or running with its lease run out), each now running and held by
    ``process`` until ``now + lease``; one transaction, the rows locked (SKIP LOCKED
    where the database has it), never opened when none is free (the check before it
    takes no lock). A review's queue and the apps' (the puzzles' mining) share it."""
    if limit <= 0:
        return []
    open_ = Q(status__in=["queued", "running"])
    free = Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    if not rows.filter(open_ & free).exists():
        return []
    with transaction.atomic():
        skip_locked = connection.features.has_select_for_update_skip_locked
        claimed = list(rows.select_for_update(skip_locked=skip_locked).filter(open_ & free)[:limit])
        for row in claimed:
            row.worker = process
            row.lease_until = now + lease
            row.status = "running"
            row.save(update_fields=["worker", "lease_until", "status"])
        return claimed
