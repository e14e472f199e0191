"""Puzzles, the answers to them, the players' puzzle ratings and the mining of games:
persistence only (the rule is puzzles.mining, the use cases puzzles.services).

A ``Puzzle`` is a position (``kind``, ``size``, ``rows``, ``to_play``) with its one
``solution`` and, for Othello, its exact ``value``; the same position is never stored
twice (``position``, the board and the side to play as one string, is unique per kind).
It carries a Glicko-2 rating as players do, moved by each account's first answer
(``PuzzleAttempt``, one per account and puzzle). ``Mining`` is a finished game's turn to
be mined, held by one process at a time (a lease, as the reviews).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy

from players import glicko2


class Puzzle(models.Model):
    """A position with exactly one good move (docs/api/http.md, "Puzzles")."""

    class Kind(models.TextChoices):
        OTHELLO = "othello", gettext_lazy("Othello")
        GO = "go", gettext_lazy("Go")

    kind = models.CharField(max_length=8, choices=Kind.choices)
    size = models.PositiveSmallIntegerField()
    position = models.CharField(
        max_length=400, help_text=gettext_lazy("The rows joined by '/', then the side to play.")
    )
    rows = models.JSONField()
    to_play = models.CharField(max_length=5)
    solution_row = models.PositiveSmallIntegerField()
    solution_col = models.PositiveSmallIntegerField()
    value = models.FloatField(
        null=True,
        blank=True,
        help_text=gettext_lazy("Othello: the exact disc margin after the solution (Black's)."),
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="puzzles"
    )
    ply = models.PositiveIntegerField(
        default=0, help_text=gettext_lazy("The moves of the game played before the puzzle.")
    )
    rating = models.FloatField(default=glicko2.NEW_PLAYER.rating)
    rd = models.FloatField(default=glicko2.NEW_PLAYER.rd)
    volatility = models.FloatField(default=glicko2.NEW_PLAYER.volatility)
    plays = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["kind", "position"], name="puzzle_kind_position"),
        )
        # The next puzzle: the nearest ratings of a kind, either side of the player's.
        indexes = (models.Index(fields=["kind", "rating"], name="puzzle_kind_rating"),)

    def __str__(self) -> str:
        return f"{self.kind} puzzle {self.pk} ({self.rating:.0f})"

    @property
    def solution(self) -> tuple[int, int]:
        return (self.solution_row, self.solution_col)

    @property
    def glicko(self) -> glicko2.Rating:
        """The puzzle's rating as the calculator's value."""
        return glicko2.Rating(self.rating, self.rd, self.volatility)


class PuzzleAttempt(models.Model):
    """An account's answer to a puzzle: the first one only counts, and is the only one."""

    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts"
    )
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    correct = models.BooleanField()
    at = models.DateTimeField(auto_now_add=True)
    rating_after = models.FloatField(
        help_text=gettext_lazy("The account's puzzle rating after this answer.")
    )

    class Meta:
        ordering = ("-at", "-pk")
        constraints = (
            models.UniqueConstraint(fields=["account", "puzzle"], name="puzzle_attempt_once"),
        )
        # The profile's history, newest first.
        indexes = (models.Index(fields=["account", "-at"], name="puzzle_attempt_account_at"),)

    def __str__(self) -> str:
        return f"{self.account} on puzzle {self.puzzle_id}: {self.correct}"


class PuzzleRating(models.Model):
    """An account's puzzle rating (Glicko-2, starting as the players' ratings do)."""

    account = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="puzzle_rating",
    )
    rating = models.FloatField(default=glicko2.NEW_PLAYER.rating)
    rd = models.FloatField(default=glicko2.NEW_PLAYER.rd)
    volatility = models.FloatField(default=glicko2.NEW_PLAYER.volatility)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.account} puzzles {self.rating:.0f}"

    @property
    def glicko(self) -> glicko2.Rating:
        """The account's puzzle rating as the calculator's value."""
        return glicko2.Rating(self.rating, self.rd, self.volatility)


class Mining(models.Model):
    """A finished game's turn to be mined for puzzles, held by ``worker`` until
    ``lease_until`` (another process takes it over once that passed)."""

    class Status(models.TextChoices):
        QUEUED = "queued", gettext_lazy("Queued")
        RUNNING = "running", gettext_lazy("Running")
        DONE = "done", gettext_lazy("Done")
        FAILED = "failed", gettext_lazy("Failed")

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="mining")
    status = models.CharField(max_length=7, choices=Status.choices, default=Status.QUEUED)
    worker = models.CharField(max_length=64, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    requested_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    found = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = (models.Index(fields=["status", "requested_at"], name="mining_status_requested"),)

    def __str__(self) -> str:
        return f"mining of game {self.game_id}: {self.status}"
