"""Seeks, the lobby sockets that keep them alive, and how a paired game was paired:
persistence only (the matching is pairing.matching, the use cases pairing.services)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy

from games.models import Game


class Seek(models.Model):
    """A session looking for an opponent: one a session (a new seek replaces the old).

    It lives while its session has a lobby socket open on some process (``LobbySocket``),
    and ``SEEK_GRACE_SECONDS`` after its last one closed (``alone_since``: a reload, a
    dropped connection), unpaired meanwhile.
    ``time_control``: the clock's JSON (gamerules.clock.TimeControl.to_json), null for
    none; ``pool``: its compatible group (pairing.matching.pool_key); ``rating``: the
    seeker's rating in ``category`` when the seek was made (guests 1500);
    ``range_low``/``range_high``: the absolute bounds asked for, or null.
    """

    session_key = models.CharField(max_length=40, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    name = models.CharField(max_length=40)
    kind = models.CharField(max_length=8, choices=Game.Kind.choices)
    size = models.PositiveSmallIntegerField()
    time_control = models.JSONField(null=True, blank=True)
    rated = models.BooleanField(default=False)
    range_low = models.FloatField(null=True, blank=True)
    range_high = models.FloatField(null=True, blank=True)
    pool = models.CharField(max_length=120, db_index=True)
    category = models.CharField(max_length=40)
    rating = models.FloatField()
    created_at = models.DateTimeField()
    alone_since = models.DateTimeField(
        null=True,
        blank=True,
        help_text=gettext_lazy("When its session's last lobby socket closed."),
    )

    def __str__(self) -> str:
        return f"{self.name} in {self.pool}"


class LobbySocket(models.Model):
    """An open socket of ``WS /ws/lobby/``, on the server process ``process``: what keeps
    its session's seek alive (a killed process's sockets stop counting once its
    heartbeat, games.models.ServerProcess, is too old)."""

    session_key = models.CharField(max_length=40, db_index=True)
    channel_name = models.CharField(max_length=200, unique=True)
    process = models.CharField(max_length=80, db_index=True)
    opened_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.session_key[:8]} on {self.process}"


class Pairing(models.Model):
    """How a game made by the pools was paired: the pool, the category and each side's
    rating in it when they were paired."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="pairing")
    pool = models.CharField(max_length=120)
    category = models.CharField(max_length=40)
    rated = models.BooleanField()
    black_rating = models.FloatField()
    white_rating = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.game_id} from {self.pool}"
