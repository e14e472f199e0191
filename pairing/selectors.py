"""Reads of pairing: the pools' counts for the lobby, a seek as JSON, how a game was paired."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Count

from games.models import Game
from games.rules.clock import SETTINGS
from pairing.matching import window
from pairing.models import LobbySocket, Pairing, Seek
from pairing.services import seeker


def seeking_counts() -> dict[str, int]:
    """How many seek in each pool that has a seeker: ``{pool: n}``."""
    rows = Seek.objects.values("pool").annotate(n=Count("id")).order_by("pool")
    return {row["pool"]: row["n"] for row in rows}


def lobby_sockets(session_keys: Iterable[str]) -> dict[str, int]:
    """How many lobby sockets each of the sessions ``session_keys`` has open (none: absent)."""
    rows = (
        LobbySocket.objects.filter(session_key__in=list(session_keys))
        .values("session_key")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {row["session_key"]: row["n"] for row in rows}


def seeking_part() -> dict[str, Any]:
    """The lobby message's ``seeking`` (games.selectors.register_lobby_part)."""
    return {"seeking": seeking_counts()}


def seek_json(seek: Seek) -> dict[str, Any]:
    """The ``seek`` of the ``seeking`` message: the fields the seek was made with (the
    clock's settings, null where unused), its ``id``, and what the page shows: its
    ``pool``, the seeker's ``rating`` and ``window`` now, and ``since`` (ISO 8601)."""
    clock = seek.time_control or {"system": "none"}
    low, high = window(seeker(seek, now=None))
    return {
        "id": seek.pk,
        "kind": seek.kind,
        "size": seek.size,
        "clock": clock["system"],
        **{name: clock.get(name) for name in SETTINGS},
        "rated": seek.rated,
        "range": [seek.range_low, seek.range_high] if seek.range_low is not None else None,
        "pool": seek.pool,
        "category": seek.category,
        "rating": seek.rating,
        "window": [low, high],
        "since": seek.created_at.isoformat(),
    }


def pairing_of(game: Game) -> Pairing | None:
    """How ``game`` was paired, None for a game the pools did not make."""
    return Pairing.objects.filter(game=game).first()
