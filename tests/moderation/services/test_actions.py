"""moderation.services.actions: each staff action sets its flag and stops what must stop,
writes its log entry, closes the account's open reports and tells their reporters (but
``dismiss``); a refused action changes nothing; two staff acting at once on one account
are applied one after the other, both logged in order."""

from __future__ import annotations

import datetime
import functools
import threading
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone, translation

from accounts import standing
from accounts.models import Account
from accounts.players import Player
from challenges import services as challenges
from games.models import Game
from moderation import services
from moderation.models import Action, Report
from moderation.services import ModerationError
from notifications.models import Kind, Notification
from pairing import services as pairing
from pairing.models import Seek
from tests.moderation.helpers import (
    CLOCK,
    account,
    game_between,
    player,
    reported,
    staff,
    waiting_game,
)
from tests.support.concurrency import at_once
from tests.tournaments.helpers import START
from tests.tournaments.helpers import tournament as new_tournament
from tournaments import services as tournaments
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2026, 11, 28, 12, 0, tzinfo=datetime.UTC)
SEEK_CLOCK = {"clock": "fischer", "main_time": 300, "increment": 5}


def act(mod: Any, username: str, action: str, reason: str = "seen it", **fields: Any) -> Action:
    return services.act(staff_id=mod.pk, username=username, action=action, reason=reason, **fields)


def row(user: Any) -> Account:
    return Account.objects.get(user=user)


def challenged(challenger: Any, target: Any, *, rated: bool = False) -> Game:
    """``challenger``'s challenge of ``target`` to 8x8 Othello with a clock."""
    options = {"kind": "othello", "size": 8, "color": "black", "time_control": CLOCK}
    return challenges.challenge(
        player=player(challenger),
        username=target.get_username(),
        name="",
        rated=rated,
        options={**options, "rated": rated},
    )


def seeking(user: Any, *, rated: bool = False) -> None:
    """``user`` seeks 8x8 Othello, 5 min + 5 s, in a pool (rated or not)."""
    message = {"type": "seek", "kind": "othello", "size": 8, "rated": rated, **SEEK_CLOCK}
    seeker = Player(session_key=f"{user.get_username()}-s", user_id=user.pk)
    pairing.seek(player=seeker, user=user, name="", message=message, now=timezone.now())


def told(user: Any) -> list[str]:
    found = Notification.objects.filter(user=user, kind=Kind.REPORT_CLOSED).order_by("pk")
    return [notification.text for notification in found]


def test_a_mute_for_hours_ends_then_and_is_logged_with_its_reason() -> None:
    mod, bob = staff(), account("bob")

    entry = act(mod, "bob", "mute", "insults in chat", hours=24, now=NOW)

    until = NOW + datetime.timedelta(hours=24)
    assert (row(bob).muted_until, row(bob).muted_for_good) == (until, False)
    assert (entry.staff, entry.account, entry.action) == (mod, bob, "mute")
    assert (entry.reason, entry.at, entry.until) == ("insults in chat", NOW, until)
    assert standing.muted(bob.pk, now=until - datetime.timedelta(seconds=1)) == standing.Mute(until)
    assert standing.muted(bob.pk, now=until) is None


@pytest.mark.parametrize("hours", [None, ""])
def test_a_mute_without_hours_is_for_good(hours: Any) -> None:
    mod, bob = staff(), account("bob")

    entry = act(mod, "bob", "mute", hours=hours)

    assert (row(bob).muted_until, row(bob).muted_for_good, entry.until) == (None, True, None)
    assert standing.muted(bob.pk) == standing.Mute(None)


def test_unmute_lifts_either_mute() -> None:
    mod, bob = staff(), account("bob")
    act(mod, "bob", "mute", hours=3)
    act(mod, "bob", "unmute")
    assert standing.muted(bob.pk) is None
    act(mod, "bob", "mute")
    act(mod, "bob", "unmute")
    assert (row(bob).muted_until, row(bob).muted_for_good) == (None, False)


def test_an_engine_mark_stops_the_accounts_rated_play_waiting_and_to_come() -> None:
    mod, bob, ann, carol = staff(), account("bob"), account("ann"), account("carol")
    rated_open = waiting_game(bob, rated=True)
    casual_open = waiting_game(bob)
    rated_challenge = challenged(ann, bob, rated=True)
    playing = game_between(bob, carol, rated=True)
    seeking(bob, rated=True)
    rated_arena = new_tournament(rated=True)
    casual_arena = new_tournament(name="Casual")
    for found in (rated_arena, casual_arena):
        tournaments.join(user_id=bob.pk, tournament_id=found.pk, now=START)

    act(mod, "bob", "mark_engine", "97% accuracy in 12 rated games")

    assert row(bob).engine and standing.is_engine(bob.pk)
    status = dict(Game.objects.values_list("pk", "status"))
    assert status[rated_open.pk] == status[rated_challenge.pk] == "aborted"
    assert status[casual_open.pk] == "waiting"
    assert status[playing.pk] == "active"  # a game being played is played out
    assert not Seek.objects.filter(user_id=bob.pk).exists()
    assert list(Entry.objects.filter(user=bob).values_list("tournament", flat=True)) == [
        casual_arena.pk
    ]


def test_an_engine_marks_casual_seek_stays_and_unmark_lifts_the_mark() -> None:
    mod, bob = staff(), account("bob")
    seeking(bob)

    act(mod, "bob", "mark_engine")
    assert Seek.objects.filter(user_id=bob.pk).exists()
    act(mod, "bob", "unmark_engine", "appeal: a friend's accuracy, not an engine's")

    assert not row(bob).engine and not standing.is_engine(bob.pk)


def test_closing_an_account_resigns_its_games_and_calls_off_its_waiting_ones() -> None:
    mod, bob, ann, carol = staff(), account("bob"), account("ann"), account("carol")
    as_black = game_between(bob, ann)
    as_white = game_between(carol, bob)
    waiting = waiting_game(bob)
    to_bob = challenged(ann, bob)
    arena = new_tournament()
    tournaments.join(user_id=bob.pk, tournament_id=arena.pk, now=START)
    seeking(bob)

    act(mod, "bob", "close", "a second account of a closed one")

    assert not get_user_model().objects.get(pk=bob.pk).is_active
    games_now = {game.pk: game for game in Game.objects.all()}
    assert (games_now[as_black.pk].status, games_now[as_black.pk].result) == ("finished", "W+R")
    assert (games_now[as_white.pk].status, games_now[as_white.pk].result) == ("finished", "B+R")
    assert games_now[waiting.pk].status == games_now[to_bob.pk].status == "aborted"
    assert not Entry.objects.filter(user=bob).exists()
    assert not Seek.objects.filter(user_id=bob.pk).exists()
    # Whatever sockets it still has say nothing more.
    assert standing.muted(bob.pk) == standing.Mute(None)


def test_every_action_closes_the_open_reports_and_tells_their_reporters() -> None:
    mod, bob, ann, carol, dan = (
        staff(),
        account("bob"),
        account("ann"),
        account("carol"),
        account("dan"),
    )
    ann_abuse, ann_name, carol_abuse = (
        reported(ann, bob, "abuse"),
        reported(ann, bob, "name"),
        reported(carol, bob, "abuse"),
    )
    about_dan = reported(ann, dan, "cheat")

    entry = act(mod, "bob", "mute", hours=2)

    closed = Report.objects.filter(closed_by=entry)
    assert set(closed) == {ann_abuse, ann_name, carol_abuse}
    assert set(closed.values_list("closed_at", flat=True)) == {entry.at}
    assert Report.objects.get(pk=about_dan.pk).closed_at is None
    # One notification a reporter, whatever its number of reports; none for others.
    assert told(ann) == told(carol) == ["Staff acted on your report of bob. Thank you."]
    assert told(dan) == told(bob) == told(mod) == []
    notice = Notification.objects.filter(user=ann, kind=Kind.REPORT_CLOSED).get()
    assert notice.url == "/players/bob/"

    # A later action has no open report left to close: nobody is told again.
    act(mod, "bob", "unmute")
    assert told(ann) == told(carol) == ["Staff acted on your report of bob. Thank you."]


def test_a_reporter_is_told_in_its_own_language() -> None:
    mod, bob, ann = staff(), account("bob"), account("ann")
    Account.objects.filter(user=ann).update(language="fr")
    reported(ann, bob)

    act(mod, "bob", "mute")

    with translation.override("fr"):  # as her pages and mails read it
        assert told(ann) == ["L'équipe a agi suite à votre signalement de bob. Merci."]


def test_dismiss_closes_the_reports_and_tells_nobody() -> None:
    mod, bob, ann = staff(), account("bob"), account("ann")
    report = reported(ann, bob)

    entry = act(mod, "bob", "dismiss", "friendly banter")

    assert Report.objects.get(pk=report.pk).closed_by == entry
    assert told(ann) == []
    assert (row(bob).muted_for_good, row(bob).engine, bob.is_active) == (False, False, True)


@pytest.mark.parametrize(
    ("username", "fields", "code", "field"),
    [
        ("mod", {"action": "mute"}, "bad_request", "username"),  # one's own account
        ("nobody", {"action": "mute"}, "not_found", "username"),
        ("bob", {"action": "ban"}, "bad_request", "action"),
        ("bob", {"action": None}, "bad_request", "action"),
        ("bob", {"action": "mute", "reason": "  "}, "bad_request", "reason"),
        ("bob", {"action": "mute", "reason": None}, "bad_request", "reason"),
        ("bob", {"action": "mute", "reason": "x" * 1001}, "bad_request", "reason"),
        ("bob", {"action": "mute", "hours": 0}, "bad_request", "hours"),
        ("bob", {"action": "mute", "hours": 24 * 365 + 1}, "bad_request", "hours"),
        ("bob", {"action": "mute", "hours": "two"}, "bad_request", "hours"),
        ("bob", {"action": "mute", "hours": 1.5}, "bad_request", "hours"),
        ("bob", {"action": "mute", "hours": True}, "bad_request", "hours"),
    ],
)
def test_a_refused_action_names_its_field_and_changes_nothing(
    username: str, fields: dict[str, Any], code: str, field: str
) -> None:
    mod, bob, ann = staff(), account("bob"), account("ann")
    reported(ann, bob)
    reported(ann, mod)

    with pytest.raises(ModerationError) as refusal:
        services.act(staff_id=mod.pk, username=username, **{"reason": "why", **fields})

    assert (refusal.value.code, refusal.value.field) == (code, field)
    assert not Action.objects.exists()
    assert not Report.objects.filter(closed_at__isnull=False).exists()
    assert standing.muted(bob.pk) is None and told(ann) == []


def test_an_action_and_its_log_entry_are_one_transaction(monkeypatch: pytest.MonkeyPatch) -> None:
    mod, bob, ann = staff(), account("bob"), account("ann")
    reported(ann, bob)

    def broken(**kwargs: Any) -> None:
        raise RuntimeError("the notifications' database went away")

    monkeypatch.setattr("notifications.services.notify_many", broken)
    with pytest.raises(RuntimeError):
        act(mod, "bob", "mute")

    assert not Action.objects.exists() and standing.muted(bob.pk) is None
    assert Report.objects.get().closed_at is None


@pytest.mark.django_db(transaction=True)
def test_two_staff_acting_at_once_on_one_account_both_land_in_order() -> None:
    ann, bob, bob_reporter = staff("ann"), staff("bob"), account("eve")
    target = account("carl")
    reported(bob_reporter, target)

    outcomes = at_once(
        functools.partial(act, ann, "carl", "mute", "ann's reason", hours=5),
        functools.partial(act, bob, "carl", "mute", "bob's reason", hours=50),
    )

    assert all(isinstance(outcome, Action) for outcome in outcomes), outcomes
    newest, oldest = Action.objects.all()  # newest first
    assert {newest.reason, oldest.reason} == {"ann's reason", "bob's reason"}
    assert oldest.at <= newest.at
    # The account is as the later action left it: applied in the order logged.
    assert row(target).muted_until == newest.until
    # The first closed the report; the second found none.
    assert Report.objects.get().closed_by == oldest
    assert len(told(bob_reporter)) == 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_an_action_waits_for_another_on_the_same_account() -> None:
    """On PostgreSQL: while one staff member's action holds the account's row, another's
    (even one that changes nothing of the account's) waits for it, then lands after it."""
    assert connection.vendor == "postgresql"
    ann, bob = staff("ann"), staff("bob")
    account("carl")
    holding, release = threading.Event(), threading.Event()

    def slow_mute() -> None:
        try:
            with transaction.atomic():
                services.act(staff_id=ann.pk, username="carl", action="mute", reason="first")
                holding.set()
                release.wait(10)
        finally:
            connection.close()

    first = threading.Thread(target=slow_mute)
    first.start()
    assert holding.wait(10)
    second: list[Any] = []
    other = threading.Thread(
        target=lambda: second.append(
            at_once(functools.partial(act, bob, "carl", "dismiss", "second"))[0]
        )
    )
    other.start()
    other.join(0.5)
    assert other.is_alive(), "the second action did not wait for the first's lock"
    release.set()
    first.join(10)
    other.join(10)
    assert isinstance(second[0], Action)
    assert [entry.reason for entry in Action.objects.all()] == ["second", "first"]
