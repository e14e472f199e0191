"""Notifications and what delivers them: persistence only (the use cases are
notifications.services, the sending notifications.outbox).

A ``Notification`` is what happened, for one account, as the site shows it; each of its
``Delivery`` rows is one way it leaves the site (an e-mail, a push to one device),
written in the same transaction and sent afterwards by a process's outbox (lila's
``notify`` module; Zulip's queue workers).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy

from notifications import texts


class Kind(models.TextChoices):
    YOUR_MOVE = "your_move", gettext_lazy("Your move")
    CHALLENGE = "challenge", gettext_lazy("A challenge")
    CHALLENGE_DECLINED = "challenge_declined", gettext_lazy("A challenge declined")
    GAME_OVER = "game_over", gettext_lazy("A game over")
    TOURNAMENT_STARTING = "tournament_starting", gettext_lazy("A tournament starting")
    ROUND_PAIRED = "round_paired", gettext_lazy("A tournament round paired")
    TOURNAMENT_FORFEIT = "tournament_forfeit", gettext_lazy("A tournament game lost unplayed")
    REPORT_CLOSED = "report_closed", gettext_lazy("Staff acted on your report")
    FOLLOW_PLAYING = "follow_playing", gettext_lazy("A player you follow starting a game")


class Notification(models.Model):
    """Something that happened for ``user``: its ``kind`` and ``params`` (what its words
    say, made when it is read: ``text``), the page it leads to, what it is about
    (``subject``: ``game:<id>``, ``tournament:<id>``), and the site's address as the
    request that caused it saw it (``site``: ``https://host[:port]``, "" when no request
    caused it; its e-mail's links start with it when ``SITE_URL`` is unset)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    params = models.JSONField(default=dict, blank=True)
    url = models.CharField(max_length=200)
    subject = models.CharField(max_length=64, blank=True)
    site = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField()
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-pk")
        indexes = (
            models.Index(fields=["user", "-created_at"], name="notification_user_created"),
            models.Index(
                fields=["user", "subject", "kind"],
                name="notification_unread",
                condition=models.Q(read_at__isnull=True),
            ),
        )

    def __str__(self) -> str:
        return f"{self.user} {self.kind}: {self.text[:40]}"

    @property
    def text(self) -> str:
        """Its words, in the active language (``words_of``)."""
        return words_of(self.kind, self.params)


def words_of(kind: str, params: dict[str, Any]) -> str:
    """A notification's words from its ``kind`` and ``params``, in the active language
    (``notifications.texts``); the kind's name when they cannot be made."""
    return texts.text_of(kind, params) or (str(Kind(kind).label) if kind in Kind.values else kind)


class Delivery(models.Model):
    """One way a notification leaves the site: an e-mail to its account's address, or a
    push to one of its devices (``subscription``). The outbox sends it once: a process
    holds it (``leased_by`` until ``leased_until``) while sending; a failure is tried
    again at ``next_try_at`` (backing off), until a day has passed: then it is given up."""

    class Channel(models.TextChoices):
        EMAIL = "email", gettext_lazy("E-mail")
        PUSH = "push", gettext_lazy("Push")

    class Status(models.TextChoices):
        PENDING = "pending", gettext_lazy("To send")
        SENT = "sent", gettext_lazy("Sent")
        GAVE_UP = "gave_up", gettext_lazy("Given up")

    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, related_name="deliveries"
    )
    channel = models.CharField(max_length=5, choices=Channel.choices)
    subscription = models.ForeignKey(
        "PushSubscription", null=True, blank=True, on_delete=models.CASCADE
    )
    status = models.CharField(max_length=7, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_try_at = models.DateTimeField()
    leased_by = models.CharField(max_length=80, blank=True)
    leased_until = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = (
            models.Index(
                fields=["next_try_at"],
                name="delivery_due",
                condition=models.Q(status="pending"),
            ),
            # The hourly cap of e-mails counts those sent in the last hour.
            models.Index(
                fields=["sent_at"],
                name="delivery_email_sent",
                condition=models.Q(channel="email", status="sent"),
            ),
        )

    def __str__(self) -> str:
        return f"{self.channel} of {self.notification_id}: {self.status}"


class Preference(models.Model):
    """An account's choice for one kind: show it on the site (``site``: only a kind that
    is off by default, ``notifications.services.OFF_BY_DEFAULT``, may be off; the site
    shows every other one whatever this says), e-mail it, push it. Without a row, the
    defaults (``notifications.services.DEFAULTS``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_prefs"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    site = models.BooleanField(default=True)
    email = models.BooleanField()
    push = models.BooleanField()

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["user", "kind"], name="preference_user_kind"),
        )

    def __str__(self) -> str:
        return f"{self.user} {self.kind}: site {self.site}, email {self.email}, push {self.push}"


class PushSubscription(models.Model):
    """A browser's Web Push subscription (its endpoint and keys, as ``PushManager``
    gives them) for an account: a push service that answers 404 or 410 ends it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user} on {self.endpoint[:40]}"
