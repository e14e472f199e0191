"""moderation.services.reports: an account reports another, naming a game or a chat line;
each bad field is refused by name, a repeat answers the first report, and a reporter
makes at most 10 reports within any day (an injected clock)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from accounts.players import Player
from games.services import table
from moderation import services
from moderation.models import Report
from moderation.services import ModerationError
from tests.moderation.helpers import account, game_between, reported, said

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2026, 11, 28, 12, 0, tzinfo=datetime.UTC)


def refused(reporter: Any, **fields: Any) -> tuple[str, str | None]:
    """The code and field of the refusal of ``fields`` (username bob and reason abuse
    unless given)."""
    with pytest.raises(ModerationError) as refusal:
        services.report(reporter_id=reporter.pk, **{"username": "bob", "reason": "abuse", **fields})
    assert refusal.value.message
    return refusal.value.code, refusal.value.field


def test_a_report_of_a_chat_line_names_the_line_and_its_game() -> None:
    ann, bob = account("ann"), account("bob")
    game = game_between(ann, bob)
    line = said(bob, game)

    filed = services.report(
        reporter_id=ann.pk, username="BOB", reason="abuse", text=" rude ", chat=line.pk, now=NOW
    )

    assert filed.made
    found = Report.objects.get()
    assert (found.reporter, found.account, found.reason, found.text) == (ann, bob, "abuse", "rude")
    assert (found.chat, found.game, found.created_at, found.closed_at) == (line, game, NOW, None)


def test_a_report_may_name_a_game_the_account_played_and_nothing_else() -> None:
    ann, bob = account("ann"), account("bob")
    game = game_between(ann, bob)

    assert reported(ann, bob, "cheat", game=game.public_id).game == game
    assert reported(ann, bob, "name").game is None


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"username": "nobody"}, "username"),
        ({"username": "ann"}, "username"),  # oneself
        ({"username": 7}, "username"),
        ({"reason": "rude"}, "reason"),
        ({"reason": None}, "reason"),
        ({"text": "x" * 1001}, "text"),
        ({"text": ["x"]}, "text"),
        ({"game": "no-such-game"}, "game"),
        ({"chat": 999999}, "chat"),
        ({"chat": "first"}, "chat"),
        ({"chat": True}, "chat"),
    ],
)
def test_each_bad_field_is_refused_by_name_and_nothing_is_stored(
    fields: dict[str, Any], field: str
) -> None:
    ann, _ = account("ann"), account("bob")

    assert refused(ann, **fields) == ("bad_request", field)
    assert not Report.objects.exists()


def test_a_text_of_1000_characters_is_taken() -> None:
    ann, bob = account("ann"), account("bob")

    assert len(reported(ann, bob, text="x" * 1000).text) == 1000


def test_a_game_or_a_chat_line_must_be_the_reported_accounts() -> None:
    ann, bob, carol = account("ann"), account("bob"), account("carol")
    theirs = game_between(ann, carol)
    mine = game_between(ann, bob)
    carols_line = said(carol, theirs)
    # A spectator's line: bob watching ann and carol.
    bobs_line = table.say(
        player=Player(user_id=bob.pk), game_id=theirs.public_id, name="bob", text="boo"
    )

    assert refused(ann, game=theirs.public_id) == ("bad_request", "game")
    assert refused(ann, chat=carols_line.pk) == ("bad_request", "chat")
    assert refused(ann, chat=bobs_line.pk, game=mine.public_id) == ("bad_request", "game")
    assert reported(ann, bob, chat=str(bobs_line.pk)).game == theirs


def test_a_second_open_report_for_the_same_reason_answers_the_first() -> None:
    ann, bob, carol = account("ann"), account("bob"), account("carol")
    first = reported(ann, bob, "abuse", text="first")

    again = services.report(reporter_id=ann.pk, username="bob", reason="abuse", text="second")

    assert (again.report, again.made) == (first, False)
    assert Report.objects.get().text == "first"
    # Another reason, or another reporter, is another report.
    assert reported(ann, bob, "cheat") != first
    assert reported(carol, bob, "abuse") != first
    assert Report.objects.count() == 3


def test_once_closed_the_same_report_may_be_made_again() -> None:
    ann, bob = account("ann"), account("bob")
    first = reported(ann, bob)
    Report.objects.filter(pk=first.pk).update(closed_at=NOW)

    assert reported(ann, bob) != first


def test_a_reporter_makes_at_most_10_reports_within_a_day() -> None:
    ann = account("ann")
    others = [account(f"p{number}") for number in range(12)]
    for number, other in enumerate(others[:10]):
        made = NOW + datetime.timedelta(hours=number)
        services.report(reporter_id=ann.pk, username=other.get_username(), reason="name", now=made)
    late = NOW + datetime.timedelta(hours=23)

    with pytest.raises(ModerationError) as refusal:
        services.report(reporter_id=ann.pk, username="p10", reason="name", now=late)

    assert refusal.value.code == "rate_limited" and refusal.value.status == 429
    assert "the next one in 1 hour" in refusal.value.message
    # A repeat is no new report: it is answered, not refused.
    assert not services.report(reporter_id=ann.pk, username="p0", reason="name", now=late).made
    # A day after the first, one more may be made; another reporter was never limited.
    day_later = NOW + datetime.timedelta(days=1, seconds=1)
    assert services.report(reporter_id=ann.pk, username="p10", reason="name", now=day_later).made
    assert reported(others[11], ann).reporter == others[11]
