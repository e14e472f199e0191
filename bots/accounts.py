"""What this app knows of accounts: which bots are online, their tokens (whether an
account is a bot is the accounts layer's: ``accounts.selectors.is_bot``).

The token helpers are the only place that reads tokens (as knox's authentication class).
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from bots.models import ApiToken, BotConnection
from games.models import ServerProcess

TOKEN_PREFIX = "oth_"
PREFIX_LENGTH = 12
LAST_USE_STEP = datetime.timedelta(seconds=60)
"""A token's last use is written at most this often (not a write per request)."""


def online_bot_ids(now: datetime.datetime | None = None) -> set[int]:
    """The bots with a ``/ws/bot/`` socket open on a process that is up (its heartbeat
    fresh, or the socket younger than the process timeout: as games' presence counts)."""
    cutoff = (now or timezone.now()) - datetime.timedelta(seconds=settings.PROCESS_TIMEOUT)
    alive = ServerProcess.objects.filter(seen_at__gte=cutoff).values_list("name", flat=True)
    connections = BotConnection.objects.filter(Q(process__in=alive) | Q(opened_at__gte=cutoff))
    return set(connections.values_list("user_id", flat=True))


def digest(token: str) -> str:
    """The stored form of a token (SHA-256: the token is 256 random bits, so no salt or
    slow hash is needed, as knox reasons)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A fresh token: ``oth_`` and 43 URL-safe characters."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_user(token: str, now: datetime.datetime | None = None) -> tuple[Any, int] | None:
    """The account and token id behind ``token``; None for an unknown or revoked one.

    Records the token's last use (at most once a minute)."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > 100:
        return None
    found = (
        ApiToken.objects.filter(prefix=token[:PREFIX_LENGTH], digest=digest(token), revoked_at=None)
        .select_related("user")
        .first()
    )
    if found is None or not found.user.is_active:
        return None
    now = now or timezone.now()
    if found.last_used_at is None or now - found.last_used_at >= LAST_USE_STEP:
        ApiToken.objects.filter(pk=found.pk).update(last_used_at=now)
    return found.user, found.pk


def bearer(header: str) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, None for another scheme
    (or none); an empty string for a Bearer header without a token."""
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return value.strip()
