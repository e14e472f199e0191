# ruff: noqa: RUF001 (the words name a board with the multiplication sign, as the site does)
"""A notification's words, made when read (notifications.texts): each kind from its
parameters, in the active language; a notification stored before keeps its words; one
whose parameters a kind cannot read shows the kind's name."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone, translation
from django.utils.translation import trans_real

from notifications import texts
from notifications.models import Kind, Notification

OTHELLO = {"kind": "othello", "size": 8}

IN_ENGLISH = [
    (
        Kind.YOUR_MOVE,
        {"opponent": "ann", **OTHELLO, "move": "d3"},
        "Your move against ann (Othello 8×8)",
    ),
    (
        Kind.GAME_OVER,
        {"opponent": "bob", "kind": "go", "size": 9, "result": "W+3.5"},
        "Your game against bob (Go 9×9) is over: White wins by 3.5 points",
    ),
    (Kind.CHALLENGE, {"name": "cy", **OTHELLO}, "cy challenges you to a game of Othello 8×8"),
    (
        Kind.CHALLENGE_DECLINED,
        {"name": "dee", **OTHELLO, "reason": "later"},
        "dee declined your challenge (Othello 8×8): This is not the right time for me,"
        " please ask again later.",
    ),
    (Kind.TOURNAMENT_STARTING, {"name": "Open"}, "Open is starting."),
    (Kind.ROUND_PAIRED, {"name": "Open"}, "Open: your game is ready."),
    (
        Kind.ROUND_PAIRED,
        {"name": "Open", "bye": 3},
        "Open, round 3: you have a bye, which scores as a win.",
    ),
    (
        Kind.TOURNAMENT_FORFEIT,
        {"name": "Open", "system": "arena"},
        "Open: you lost a game by not making your first move in time, and you are paused."
        " Resume on the tournament's page to be paired again.",
    ),
    (
        Kind.FOLLOW_PLAYING,
        {"black": "ann", "white": "bob", **OTHELLO},
        "ann and bob have started a game of Othello 8×8",
    ),
    (Kind.REPORT_CLOSED, {"name": "eve"}, "Staff acted on your report of eve. Thank you."),
]


@pytest.mark.parametrize(("kind", "params", "english"), IN_ENGLISH)
def test_each_kind_reads_in_the_active_language(
    kind: str, params: dict[str, Any], english: str
) -> None:
    with translation.override("en"):
        assert texts.text_of(kind, params) == english
    with translation.override("ja"):
        japanese = texts.text_of(kind, params)
    assert japanese != english
    # The shipped catalogue's words, each name and number in its place.
    for value in (params.get("name"), params.get("opponent"), params.get("black")):
        assert value is None or value in japanese
    assert any(shown in japanese for shown in ("8×8", "9×9", "Open", "eve"))


def test_every_kind_reads_by_its_apps_words() -> None:
    assert {kind for kind, _, _ in IN_ENGLISH} == set(Kind.values)


def test_a_notification_stored_before_keeps_its_words_in_every_language() -> None:
    stored = Notification(kind=Kind.YOUR_MOVE, params={texts.LEGACY: "Your move against ann"})
    for language in ("en", "ja", "fr"):
        with translation.override(language):
            assert stored.text == "Your move against ann"
    assert texts.details_of(stored.kind, stored.params, timezone.now()) == []


def test_parameters_a_kind_cannot_read_show_the_kinds_name(
    caplog: pytest.LogCaptureFixture,
) -> None:
    unreadable = Notification(kind=Kind.CHALLENGE, params={"size": 8})
    with translation.override("en"):
        assert unreadable.text == "A challenge"
    with translation.override("ja"):
        assert unreadable.text == trans_real.translation("ja").gettext("A challenge")
    assert "the words of a challenge notification" in caplog.text


def test_the_your_move_details_name_the_move_and_the_time_left() -> None:
    now = datetime.datetime(2026, 1, 1, 12, tzinfo=datetime.UTC)
    params = {
        "opponent": "ann",
        **OTHELLO,
        "move": "d3",
        "deadline": (now + datetime.timedelta(days=1, hours=2, minutes=5)).isoformat(),
    }
    with translation.override("en"):
        assert texts.details_of(Kind.YOUR_MOVE, params, now) == [
            "ann played d3.",
            "You have 1\xa0day, 2\xa0hours left to move.",
        ]
        late = now + datetime.timedelta(days=2)  # past the deadline: no time left to say
        passed = {**params, "move": None}
        assert texts.details_of(Kind.YOUR_MOVE, passed, late) == ["ann passed."]
        untimed = {**params, "deadline": None}
        assert texts.details_of(Kind.YOUR_MOVE, untimed, now) == ["ann played d3."]


BEFORE = [("notifications", "0003_tournament_forfeit")]
AFTER = [("notifications", "0004_rendered_when_read")]


@pytest.mark.django_db(transaction=True)
def test_the_notifications_stored_before_keep_their_words(
    executor: MigrationExecutor,
) -> None:
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    ann = old.get_model("auth", "User").objects.create(username="ann")
    words = "À vous de jouer contre bob (Othello 8×8)"
    old.get_model("notifications", "Notification").objects.create(
        user=ann, kind="your_move", text=words, url="/games/g/", created_at=timezone.now()
    )

    MigrationExecutor(connection).migrate(AFTER)

    [kept] = Notification.objects.all()
    assert kept.params == {"legacy": words}
    with translation.override("en"):
        assert kept.text == words

    MigrationExecutor(connection).migrate(BEFORE)  # and back
    back = MigrationExecutor(connection).loader.project_state(BEFORE).apps
    [again] = back.get_model("notifications", "Notification").objects.all()
    assert again.text == words
