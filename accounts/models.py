"""What every app asks of an account, kept on the account's own row: ``Account``, one to
one with Django's user (created the first time something is written to it; an account
without a row is a person with the defaults); the forms a visitor sent once
(``Submission``); follows and blocks; and its e-mail addresses, django-allauth's
``EmailAddress`` (one primary an account, ``verified`` once its link was followed),
named here for the statements that join them (notifications.statements): the apps above
ask ``accounts.selectors.verified_email``."""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy

__all__ = ["Account", "Block", "EmailAddress", "Follow", "Submission"]


class ConfirmMoves(models.TextChoices):
    """When a move waits for the player's Confirm (``Account.confirm_moves``)."""

    NEVER = "never", gettext_lazy("Never")
    CORRESPONDENCE = "correspondence", gettext_lazy("In correspondence games")
    ALWAYS = "always", gettext_lazy("In every game")


class Account(models.Model):
    """The facts about an account that the apps above read: whether it is a bot (for
    good: a bot never plays in a person's place, nor enters the pairing pools), the
    language it chose (its pages, e-mails and notifications), what its username looks
    like (``skeleton``, kept by ``accounts.services.keep_skeleton`` whenever the account is
    saved: every account has its row), when its moves wait for a confirmation
    (``confirm_moves``, ``accounts.preferences``), and what staff decided about it
    (``muted_until`` or ``muted_for_good``, ``engine``; a closed account is Django's
    ``is_active=False``) or earned by its games (``playban_until`` and its
    ``playban_reason``), set by the moderation app and read through ``accounts.standing``."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account"
    )
    is_bot = models.BooleanField(default=False)
    bot_since = models.DateTimeField(null=True, blank=True)
    language = models.CharField(
        max_length=10,
        blank=True,
        help_text=gettext_lazy("The language the account chose; empty: its browser's."),
    )
    skeleton = models.TextField(
        blank=True,
        db_default="",  # the older migrations' models, which do not know it, store rows too
        help_text=gettext_lazy(
            "What the username looks like (accounts.names.skeleton): no guest and no new "
            "account may take a name that looks the same."
        ),
    )
    muted_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text=gettext_lazy("Muted by staff until then: no chat, no challenge to a person."),
    )
    muted_for_good = models.BooleanField(
        default=False,
        db_default=False,
        help_text=gettext_lazy("Muted by staff with no end."),
    )
    engine = models.BooleanField(
        default=False,
        db_default=False,
        help_text=gettext_lazy("Marked by staff for engine use: no rated game, no leaderboard."),
    )
    playban_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text=gettext_lazy(
            "Playbanned until then: no seek, no pool, no tournament to join (moderation's "
            "playbans, for games let end without a move or left to time out)."
        ),
    )
    playban_reason = models.CharField(
        max_length=8,
        blank=True,
        db_default="",
        help_text=gettext_lazy("Why: no_move (games let end without a move) or left."),
    )

    confirm_moves = models.CharField(
        max_length=16,
        blank=True,
        choices=ConfirmMoves.choices,
        db_default="",
        help_text=gettext_lazy(
            "When a move waits for Confirm; empty: not chosen (correspondence games on "
            "touch screens, never elsewhere)."
        ),
    )

    class Meta:
        indexes = (
            models.Index(fields=["user"], name="account_bots", condition=models.Q(is_bot=True)),
            # Whether a name looks like an account's: one lookup, not a scan of the accounts.
            # Not unique: two accounts made before the rule may look alike.
            models.Index(fields=["skeleton"], name="account_skeleton"),
        )

    def __str__(self) -> str:
        return f"{self.user} (bot)" if self.is_bot else str(self.user)

    @classmethod
    def of(cls, user: Any) -> Account:
        """The row of ``user`` (an account), made with the defaults when it has none."""
        return cls.objects.get_or_create(user=user)[0]


class Submission(models.Model):
    """A form sent with a one-time token (``accounts.once``): what it made (``outcome``,
    e.g. a game's public id), so that the same form sent again answers the same."""

    token = models.CharField(max_length=64, unique=True)
    owner = models.CharField(max_length=64, help_text=gettext_lazy("Who sent it: Player.token."))
    outcome = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.token[:8]}... -> {self.outcome}"


class Follow(models.Model):
    """``follower`` follows ``followed``: its home page lists them, online or not, with
    their games to watch."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
        )

    def __str__(self) -> str:
        return f"{self.follower} follows {self.followed}"


class Block(models.Model):
    """``blocker`` keeps ``blocked`` away: no challenge from it, its chat lines not shown
    to the blocker, never paired with it. A fact about two identities, kept here at the
    bottom so that every app (games' chat, pairing, challenges) may ask it."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocking"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),)

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"
