"""Reports and the staff's actions: persistence only (the use cases are
moderation.services, the reads moderation.selectors).

A ``Report`` is one account's word against another, for a reason from a short list,
naming a game or a chat line where it happened; it stays open until a staff action on
the reported account closes it. An ``Action`` is the moderation log's entry: who did
what to whom, when and why (lila's ``modules/report`` and ``modules/mod``). What an
action changes lives on the account's own row (``accounts.Account``), never here.

A ``Playban`` is one the server gave an account for its ``PlaybanOffence``s, the games
it let end without its move or left (lila's ``modules/playban``): kept here for the next
one's length and for the desk; the playban in force is the account's row's
(``Account.playban_until``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import ChatMessage, Game

TEXT_MAX = 1000
"""A report's text and an action's reason: at most this many characters."""


class Action(models.Model):
    """An entry of the moderation log: ``staff`` did ``action`` to ``account`` at ``at``
    for ``reason``; a mute for hours ends at ``until`` (null: for good, or no mute)."""

    class Kind(models.TextChoices):
        MUTE = "mute", pgettext_lazy("moderation", "Mute")
        UNMUTE = "unmute", pgettext_lazy("moderation", "Unmute")
        MARK_ENGINE = "mark_engine", _("Mark for engine use")
        UNMARK_ENGINE = "unmark_engine", _("Clear the engine mark")
        CLOSE = "close", pgettext_lazy("moderation", "Close the account")
        DISMISS = "dismiss", _("Dismiss the reports")
        LIFT_PLAYBAN = "lift_playban", _("Lift the playban")

    at = models.DateTimeField(db_index=True)
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="moderation_log"
    )
    action = models.CharField(max_length=13, choices=Kind.choices)
    reason = models.TextField(max_length=TEXT_MAX)
    until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-at", "-pk")
        indexes = (models.Index(fields=["account", "-at"], name="action_account_latest"),)

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.staff} {self.action} {self.account}"


class Report(models.Model):
    """``reporter`` reports ``account`` for ``reason`` (with ``text``), about ``game`` or
    one of its chat lines (``chat``) when it names them. Open until ``closed_by``, the
    staff action on the account that closed it, at ``closed_at``. An account has at most
    one open report of another for one reason (the constraint: a second answers the
    first)."""

    class Reason(models.TextChoices):
        CHEAT = "cheat", _("Cheating: an engine's help")
        ABUSE = "abuse", _("Insults or abuse")
        NAME = "name", _("An offensive username")
        SANDBAG = "sandbag", _("Losing on purpose (sandbagging)")
        OTHER = "other", _("Something else")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_against"
    )
    reason = models.CharField(max_length=7, choices=Reason.choices)
    text = models.TextField(max_length=TEXT_MAX, blank=True)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    chat = models.ForeignKey(
        ChatMessage, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        Action, null=True, blank=True, on_delete=models.SET_NULL, related_name="reports"
    )

    class Meta:
        ordering = ("-created_at", "-pk")
        constraints = (
            models.UniqueConstraint(
                fields=["reporter", "account", "reason"],
                condition=models.Q(closed_at__isnull=True),
                name="report_open_once",
            ),
        )
        indexes = (
            models.Index(
                fields=["account", "-created_at"],
                name="report_open",
                condition=models.Q(closed_at__isnull=True),
            ),
            models.Index(fields=["reporter", "created_at"], name="report_reporter_day"),
        )

    def __str__(self) -> str:
        return f"{self.reporter} reports {self.account}: {self.reason}"


REASONS = (
    ("no_move", _("Games let end without a first move")),
    ("left", _("A started game left")),
)
"""Why a playban was given, as the offences that earned it (moderation.playban_rules)."""


class Playban(models.Model):
    """``account`` kept out of the seeks, the pools and the tournaments' joins from ``at``
    until ``until``, for ``reason``; ``lifted_at``: when staff lifted it (an action of the
    log), if they did."""

    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="playbans"
    )
    reason = models.CharField(max_length=8, choices=REASONS)
    at = models.DateTimeField()
    until = models.DateTimeField()
    lifted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-at", "-pk")
        indexes = (models.Index(fields=["account", "-at"], name="playban_account_latest"),)

    def __str__(self) -> str:
        return f"{self.account} {self.reason} {self.at:%Y-%m-%d %H:%M} until {self.until:%H:%M}"


class PlaybanOffence(models.Model):
    """``game`` ended at ``at`` without ``account``'s move (``no_move``) or with it gone
    (``left``); ``playban``: the playban that counted it, null while none has."""

    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=8, choices=REASONS)
    at = models.DateTimeField()
    playban = models.ForeignKey(
        Playban, null=True, blank=True, on_delete=models.SET_NULL, related_name="offences"
    )

    class Meta:
        ordering = ("at", "pk")
        constraints = (
            models.UniqueConstraint(fields=["account", "game"], name="playban_offence_once"),
        )
        indexes = (
            models.Index(
                fields=["account", "at"],
                name="playban_offence_uncounted",
                condition=models.Q(playban__isnull=True),
            ),
        )

    def __str__(self) -> str:
        return f"{self.account} {self.reason} {self.at:%Y-%m-%d %H:%M}"
