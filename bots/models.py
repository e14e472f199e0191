"""Tokens, bot accounts and their sockets: persistence only (the challenges a bot gets
are the challenges app's)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy


class ApiToken(models.Model):
    """A personal API token, as django-rest-knox keeps them: only its SHA-256 digest is
    stored, with the token's first characters (``prefix``) to find it; the token itself is
    shown once, when made."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=60)
    prefix = models.CharField(max_length=16, db_index=True)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"{self.user} {self.name} ({self.prefix}...)"


class BotAccount(models.Model):
    """A bot account's row of this app (that it is a bot is ``accounts.Account.is_bot``'s
    to say): what its bridge last said it accepts."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_account"
    )
    accepts = models.JSONField(
        default=dict,
        blank=True,
        help_text=gettext_lazy(
            'What the bridge plays: {"kinds": [...], "sizes": [...], "clocks": [...]}'
        ),
    )

    def __str__(self) -> str:
        return f"bot {self.user}"


class BotConnection(models.Model):
    """An open ``/ws/bot/`` socket: what makes a bot online (on any process)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_connections"
    )
    process = models.CharField(max_length=80, db_index=True)
    channel_name = models.CharField(max_length=200, unique=True)
    opened_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.user} on {self.process}"
