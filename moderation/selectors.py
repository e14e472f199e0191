"""Reads of moderation: the staff desk's cases, an account's case, the log.

A case is an account as the desk shows it: its open reports (with the games and chat
lines they name), and beside them its recent games, its rating history, its earlier
actions, its mean review accuracy over its reviewed rated games, its latest playbans
(with the games that earned them), and where it stands (muted, marked for engine use,
closed, playbanned).
"""

from __future__ import annotations

import datetime
import statistics
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from accounts import standing
from games.models import Analysis, Game
from games.services import analysis as analysis_services
from moderation.models import Action, Playban, PlaybanOffence, Report
from players import selectors as players
from players.models import RatingChange

RECENT = 10
"""How many of an account's games, rating changes and earlier actions a case shows."""
LOG_SHOWN = 100
"""How many entries ``GET /moderation/log.json`` gives (the desk shows ``DESK_LOG``)."""
DESK_LOG = 20
SORTS = ("newest", "accuracy")
"""The desk's orders: the newest report first, or the highest mean accuracy first."""


@dataclass(frozen=True)
class Accuracy:
    """An account's mean review accuracy (to a tenth; None without a reviewed rated game
    of its) over ``games`` reviewed rated games."""

    mean: float | None
    games: int


@dataclass(frozen=True)
class GivenPlayban:
    """A playban the account was given, and the ``offences`` it counted (their games
    read), oldest first."""

    playban: Playban
    offences: list[PlaybanOffence]


@dataclass(frozen=True)
class Case:
    """An account at the desk: ``reports`` (open ones, newest first, their reporters,
    games and chat lines read), ``games`` (its latest, each with ``my_change``),
    ``ratings`` (its latest rating changes), ``actions`` (the log's entries about it,
    newest first), ``accuracy``, ``playbans`` (its latest, newest first, each with
    ``games``: the offences it counted, their games read), and where it stands: ``mute``,
    ``engine``, ``closed``, ``playban`` (the one in force)."""

    account: Any
    reports: list[Report]
    games: list[Game]
    ratings: list[RatingChange]
    actions: list[Action]
    accuracy: Accuracy
    mute: standing.Mute | None
    engine: bool
    playbans: list[GivenPlayban]
    playban: standing.Playban | None

    @property
    def closed(self) -> bool:
        return not self.account.is_active

    @property
    def latest(self) -> datetime.datetime | None:
        """When its newest open report was made."""
        return self.reports[0].created_at if self.reports else None


def open_reports() -> dict[int, list[Report]]:
    """The open reports by reported account, newest first, accounts by their newest."""
    found = (
        Report.objects.filter(closed_at__isnull=True)
        .select_related("reporter", "account", "game", "chat", "chat__game")
        .order_by("-created_at", "-pk")
    )
    by_account: dict[int, list[Report]] = {}
    for report in found:
        by_account.setdefault(report.account_id, []).append(report)
    return by_account


def desk(*, sort: str = "newest") -> list[Case]:
    """The desk: a case for every account with an open report, the newest report's first,
    or with ``sort="accuracy"`` the highest mean accuracy first (accounts without one
    last, newest first among them)."""
    cases = [case_of(reports[0].account, reports) for reports in open_reports().values()]
    if sort == "accuracy":
        cases.sort(key=lambda case: (case.accuracy.mean is None, -(case.accuracy.mean or 0)))
    return cases


def case_of(account: Any, reports: list[Report] | None = None) -> Case:
    """The case of ``account``: ``reports``, its open reports (read when not given)."""
    if reports is None:
        reports = list(
            Report.objects.filter(account=account, closed_at__isnull=True)
            .select_related("reporter", "account", "game", "chat", "chat__game")
            .order_by("-created_at", "-pk")
        )
    latest_games = players.games_page(account, players.GameFilters(), 1)
    return Case(
        account=account,
        reports=reports,
        games=list(latest_games.object_list)[:RECENT],
        ratings=list(
            RatingChange.objects.filter(user=account, annulled=False)
            .select_related("game")
            .order_by("-ended_at", "-pk")[:RECENT]
        ),
        actions=list(Action.objects.filter(account=account).select_related("staff")[:RECENT]),
        accuracy=mean_accuracy(account.pk),
        mute=standing.muted(account.pk),
        engine=standing.is_engine(account.pk),
        playbans=playbans_of(account.pk),
        playban=standing.playbanned(account.pk),
    )


def playbans_of(user_id: int, limit: int = RECENT) -> list[GivenPlayban]:
    """The account's latest ``limit`` playbans, newest first, each with the offences it
    counted, oldest first, their games read."""
    found = list(Playban.objects.filter(account_id=user_id)[:limit])
    counted = PlaybanOffence.objects.filter(playban__in=found).select_related("game")
    by_playban: dict[int | None, list[PlaybanOffence]] = {}
    for offence in counted:
        by_playban.setdefault(offence.playban_id, []).append(offence)
    return [GivenPlayban(playban, by_playban.get(playban.pk, [])) for playban in found]


def mean_accuracy(user_id: int) -> Accuracy:
    """The account's mean review accuracy over its rated games whose review is done (each
    game's figure as its review's summary gives it, ``games.services.analysis.review_accuracy``)."""
    reviewed = Analysis.objects.filter(
        Q(game__black_user_id=user_id) | Q(game__white_user_id=user_id),
        game__rated=True,
        status=Analysis.Status.DONE,
    ).select_related("game")
    figures = []
    for analysis in reviewed:
        color = "black" if analysis.game.black_user_id == user_id else "white"
        figure = analysis_services.review_accuracy(analysis)[color]
        if figure is not None:
            figures.append(figure)
    mean = round(statistics.fmean(figures), 1) if figures else None
    return Accuracy(mean, len(figures))


def log(limit: int = LOG_SHOWN) -> list[Action]:
    """The log's latest ``limit`` entries, newest first."""
    return list(Action.objects.select_related("staff", "account")[:limit])


def entry_json(entry: Action) -> dict[str, Any]:
    """An entry of ``GET /moderation/log.json``: ``{"at", "staff", "account", "action",
    "reason", "until"}`` (``until``: a mute's end, else null)."""
    return {
        "at": entry.at.isoformat(),
        "staff": entry.staff.get_username() if entry.staff is not None else None,
        "account": entry.account.get_username(),
        "action": entry.action,
        "reason": entry.reason,
        "until": entry.until.isoformat() if entry.until is not None else None,
    }


def log_json() -> dict[str, Any]:
    """``GET /moderation/log.json``: ``{"entries": [...]}``, newest first."""
    return {"entries": [entry_json(entry) for entry in log()]}
