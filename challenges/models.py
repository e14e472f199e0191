"""A challenge: a waiting game reserved for one account (``Game.reserved_for``), a person
or a bot, and its answer. Persistence only (the use cases are challenges.services).

The table was the bots app's (``bots_challenge``) until challenges were for everyone: the
migrations moved the model here without touching its rows."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Reason(models.TextChoices):
    """Why a challenge is declined: the challenged account's pick (a short label for the
    menu); ``REASON_WORDS`` says each to the challenger."""

    GENERIC = "generic", _("Not accepting challenges")
    LATER = "later", _("Later, please")
    TOO_FAST = "too_fast", _("Too fast")
    TOO_SLOW = "too_slow", _("Too slow")
    CASUAL = "casual", _("Casual, please")
    RATED = "rated", _("Rated, please")


REASON_WORDS = {
    Reason.GENERIC: _("I am not accepting challenges at the moment."),
    Reason.LATER: _("This is not the right time for me, please ask again later."),
    Reason.TOO_FAST: _(
        "This time control is too fast for me, please challenge again with a slower game."
    ),
    Reason.TOO_SLOW: _(
        "This time control is too slow for me, please challenge again with a faster game."
    ),
    Reason.CASUAL: _("Please send me a casual challenge instead."),
    Reason.RATED: _("Please send me a rated challenge instead."),
}
"""What the challenger is told of each reason (the game page, the notification)."""


class Challenge(models.Model):
    """A waiting game reserved for ``challenged``: only that account may take the free
    seat; it accepts by joining, refuses by declining (with a ``reason``), or lets it
    expire."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        EXPIRED = "expired", _("Not answered")

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="challenge")
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges"
    )
    challenger = models.CharField(max_length=40, help_text="The challenger's seat name.")
    challenger_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="challenges_made",
        help_text="The challenger's account (none for a guest challenging a bot).",
    )
    rated = models.BooleanField(default=False)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    reason = models.CharField(
        max_length=8, choices=Reason.choices, blank=True, help_text="Why it was declined."
    )
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    class Meta:
        indexes = (
            models.Index(
                fields=["expires_at"],
                name="challenge_pending_expiry",
                condition=models.Q(status="pending"),
            ),
            models.Index(
                fields=["challenger_user"],
                name="challenge_pending_by",
                condition=models.Q(status="pending"),
            ),
            # The hourly cap counts an account's challenges of the last hour.
            models.Index(fields=["challenger_user", "created_at"], name="challenge_made_by"),
        )

    def __str__(self) -> str:
        return f"{self.challenger} -> {self.challenged} ({self.status})"
