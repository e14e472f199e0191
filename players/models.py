"""Ratings and their history: persistence only (the calculation is players.glicko2,
the use cases players.ratings).

A ``Rating`` is a player's current Glicko-2 rating in one category; a ``RatingChange``
records what one rated game did to one player's rating, before and after, so that the
history, the graphs and a recompute never need to guess.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy

from players import glicko2


class Rating(models.Model):
    """A player's rating in a category (``othello8-blitz``, ``go19-classical``...)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    category = models.CharField(max_length=32)
    rating = models.FloatField(default=glicko2.NEW_PLAYER.rating)
    rd = models.FloatField(default=glicko2.NEW_PLAYER.rd)
    volatility = models.FloatField(default=glicko2.NEW_PLAYER.volatility)
    games = models.PositiveIntegerField(default=0, help_text=gettext_lazy("Rated games counted."))
    last_played_at = models.DateTimeField(
        null=True, blank=True, help_text=gettext_lazy("When the last rated game counted ended.")
    )

    class Meta:
        ordering = ("category", "-rating")
        constraints = (
            models.UniqueConstraint(fields=["user", "category"], name="rating_user_category"),
        )
        # The leaderboards: the best of a category.
        indexes = (models.Index(fields=["category", "-rating"], name="rating_category_rating"),)

    def __str__(self) -> str:
        return f"{self.user} {self.category} {self.rating:.0f}"

    @property
    def value(self) -> glicko2.Rating:
        """The rating as the calculator's value."""
        return glicko2.Rating(self.rating, self.rd, self.volatility)

    @property
    def provisional(self) -> bool:
        return self.value.provisional


class RatingChange(models.Model):
    """What one rated game did to one player's rating: the rating, RD (grown with the
    player's inactivity, as the calculation used it) and volatility before, the same
    after, the change. An annulled change no longer counts (the admin's "annul rating")."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    color = models.CharField(max_length=5)
    category = models.CharField(max_length=32)
    rating_before = models.FloatField()
    rd_before = models.FloatField()
    volatility_before = models.FloatField()
    rating_after = models.FloatField()
    rd_after = models.FloatField()
    volatility_after = models.FloatField()
    change = models.FloatField()
    ended_at = models.DateTimeField(
        help_text=gettext_lazy("When the game ended: the order of the history.")
    )
    annulled = models.BooleanField(default=False)

    class Meta:
        ordering = ("ended_at", "pk")
        constraints = (
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_game_user"),
        )
        # A player's history in a category (the profile's graph), in order.
        indexes = (
            models.Index(
                fields=["user", "category", "ended_at"], name="rating_change_user_category"
            ),
            # The same, counted changes only and with the rating: the graph's two queries
            # (ratings in order, each category's first and last date) read the index alone.
            models.Index(
                fields=["user", "category", "ended_at", "rating_after"],
                name="rating_change_history",
                condition=models.Q(annulled=False),
            ),
        )

    def __str__(self) -> str:
        return f"{self.user} {self.category} {self.change:+.1f}"
