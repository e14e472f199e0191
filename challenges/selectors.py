"""Reads of the challenges: an account's inbox (the challenges waiting for its answer) and
the challenges it sent, for ``GET /challenges.json`` and the header's inbox."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from challenges.models import Challenge
from games.models import Game
from games.selectors import time_control_text


def incoming(user_id: int) -> QuerySet[Challenge]:
    """The challenges waiting for the account's answer, newest first (those past their
    time are left out: the watch aborts them within a second)."""
    return (
        Challenge.objects.filter(
            challenged_id=user_id,
            status=Challenge.Status.PENDING,
            game__status=Game.Status.WAITING,
            expires_at__gt=timezone.now(),
        )
        .select_related("game", "challenged")
        .order_by("-created_at", "-pk")
    )


def outgoing(user_id: int) -> QuerySet[Challenge]:
    """The account's challenges waiting for an answer, and those declined until the time
    they would have expired (the challenger reads the reason), newest first."""
    waiting = Q(status=Challenge.Status.PENDING, game__status=Game.Status.WAITING)
    declined = Q(status=Challenge.Status.DECLINED)
    return (
        Challenge.objects.filter(
            waiting | declined, challenger_user_id=user_id, expires_at__gt=timezone.now()
        )
        .select_related("game", "challenged")
        .order_by("-created_at", "-pk")
    )


def challenge_json(challenge: Challenge) -> dict[str, Any]:
    """One challenge as ``GET /challenges.json`` lists it: ``{"game", "from", "to",
    "kind", "size", "clock" (the time control as G's, null for none), "clock_text" (in
    words, in the active language), "rated", "created", "expires"}`` (ISO 8601)."""
    game = challenge.game
    return {
        "game": game.public_id,
        "from": challenge.challenger,
        "to": challenge.challenged.get_username(),
        "kind": str(game.kind),
        "size": game.size,
        "clock": game.time_control,
        "clock_text": time_control_text(game),
        "rated": challenge.rated,
        "created": challenge.created_at.isoformat(),
        "expires": challenge.expires_at.isoformat(),
    }


def challenges_json(user_id: int) -> dict[str, Any]:
    """``GET /challenges.json``: ``{"incoming": [...], "outgoing": [...]}`` (each as
    ``challenge_json``; an outgoing one also ``"reason"``: the decline's, null while it
    waits)."""
    return {
        "incoming": [challenge_json(found) for found in incoming(user_id)],
        "outgoing": [
            {**challenge_json(found), "reason": found.reason or None} for found in outgoing(user_id)
        ],
    }
