"""Tournaments, their entries, and the pairings of their rounds: persistence only (the
pairing and the scores are tournaments.systems', the use cases tournaments.services).

A tournament's games are games like any other (games.models.Game): what makes one a
tournament's is its ``TournamentPairing`` row, here, never a column of the game.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Game


class Tournament(models.Model):
    """A tournament: its system, its games' options (kind, size, clock, rated), when it
    starts, how long it lasts (an arena's ``duration``, in minutes) or how many
    ``rounds`` it has (a Swiss, a McMahon; a round robin has as many as it needs), and
    where it is: ``status`` and the current ``round`` (0 before the first; an arena counts
    its waves)."""

    class System(models.TextChoices):
        ARENA = "arena", _("Arena")
        SWISS = "swiss", _("Swiss")
        MCMAHON = "mcmahon", _("McMahon")
        ROUNDROBIN = "roundrobin", _("Round robin")

    class Status(models.TextChoices):
        UPCOMING = "upcoming", pgettext_lazy("tournament", "Upcoming")
        RUNNING = "running", pgettext_lazy("tournament", "Running")
        FINISHED = "finished", pgettext_lazy("tournament", "Finished")

    system = models.CharField(max_length=10, choices=System.choices)
    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=8, choices=Game.Kind.choices)
    size = models.PositiveSmallIntegerField()
    time_control = models.JSONField(help_text="gamerules.clock.TimeControl.to_json().")
    rated = models.BooleanField(default=False)
    starts_at = models.DateTimeField(db_index=True)
    ends_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="An arena's end (its start + duration); else when it ended.",
    )
    duration = models.PositiveIntegerField(null=True, blank=True, help_text="Arena: minutes.")
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    bar = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="McMahon: the bar's rank (tournaments.systems.ranks)."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField()
    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.UPCOMING, db_index=True
    )
    round = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ("starts_at", "pk")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("tournament", args=[self.pk])


class Entry(models.Model):
    """An account in a tournament, from the moment it joined: ``withdrawn`` (no more
    pairings; its games so far still count), ``paused`` (an arena: not paired until it
    comes back)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    joined_at = models.DateTimeField()
    withdrawn = models.BooleanField(default=False)
    paused = models.BooleanField(default=False)

    class Meta:
        ordering = ("tournament", "pk")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_tournament_user"),
        )

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"


class TournamentPairing(models.Model):
    """One pairing of a round (an arena's wave): a game, or a bye (``game`` null, the
    player in ``black``). Who went berserk is kept here; the result, the moves and the
    discs are read from the game. A player is in one pairing a round at most (the
    constraints: a round paired twice at once fails as a whole)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.PositiveIntegerField()
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="tournament_pairing"
    )
    black = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    white = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    black_berserk = models.BooleanField(default=False)
    white_berserk = models.BooleanField(default=False)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ("tournament", "round", "pk")
        constraints = (
            models.UniqueConstraint(
                fields=["tournament", "round", "black"], name="pairing_round_black"
            ),
            models.UniqueConstraint(
                fields=["tournament", "round", "white"], name="pairing_round_white"
            ),
        )

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.round}: {self.black_id} - {self.white_id}"

    def berserk(self, color: str) -> bool:
        """Whether the player of ``color`` went berserk."""
        return self.black_berserk if color == "black" else self.white_berserk

    def go_berserk(self, color: str) -> str:
        """The player of ``color`` berserk (not saved); returns the column changed."""
        if color == "black":
            self.black_berserk = True
            return "black_berserk"
        self.white_berserk = True
        return "white_berserk"


class ChatLine(models.Model):
    """A line of a tournament's chat, said by an entrant (``services.say``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=300)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ("tournament", "created_at", "pk")
        indexes = (
            models.Index(fields=["tournament", "-created_at"], name="chat_tournament_latest"),
        )

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}: {self.text[:40]}"
