"""The data the migrations carry over: games stored before a migration keep their meaning."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_PLAYED_ON = [("games", "0002_scoring_phase")]
PLAYED_ON = [("games", "0003_played_on")]


def test_games_stored_before_played_on_were_played_on_their_created_day(
    executor: MigrationExecutor,
) -> None:
    executor.migrate(BEFORE_PLAYED_ON)
    old = executor.loader.project_state(BEFORE_PLAYED_ON).apps.get_model("games", "Game")
    game = old.objects.create(
        kind="go", size=9, creator_color="black", snapshot={}, to_move="black"
    )
    stored = datetime.datetime(2001, 2, 3, 23, 30, tzinfo=datetime.UTC)
    old.objects.filter(pk=game.pk).update(created_at=stored)

    executor = MigrationExecutor(connection)
    executor.migrate(PLAYED_ON)

    new = executor.loader.project_state(PLAYED_ON).apps.get_model("games", "Game")
    assert new.objects.get(pk=game.pk).played_on == datetime.date(2001, 2, 3)


BEFORE_ACCOUNT_NAMES = [("games", "0011_profile_indexes")]
ACCOUNT_NAMES = [("games", "0012_account_seat_names")]


def test_every_seat_of_an_account_takes_its_username(executor: MigrationExecutor) -> None:
    """A seat typed under another name before "One name per player" (alice sitting down
    as bob_w) is named by its account after the migration; guests keep their names."""
    executor.migrate(BEFORE_ACCOUNT_NAMES)
    old = executor.loader.project_state(BEFORE_ACCOUNT_NAMES).apps
    user_model = old.get_model("auth", "User")
    alice = user_model.objects.create(username="alice")
    bob = user_model.objects.create(username="bob_w")
    game_model = old.get_model("games", "Game")
    fields = {"kind": "go", "size": 9, "creator_color": "black", "snapshot": {}}
    masked = game_model.objects.create(
        **fields,
        to_move="black",
        black_name="bob_w",
        black_user=alice,
        white_name="bob_w",
        white_user=bob,
    )
    guest = game_model.objects.create(
        **fields, to_move="black", black_name="alice", black_session_key="s", white_name="x"
    )
    said = old.get_model("games", "ChatMessage").objects.create(
        game=masked, name="bob_w", user=alice, text="hi", ply=0
    )

    executor = MigrationExecutor(connection)
    executor.migrate(ACCOUNT_NAMES)

    new = executor.loader.project_state(ACCOUNT_NAMES).apps
    stored = new.get_model("games", "Game").objects
    assert (stored.get(pk=masked.pk).black_name, stored.get(pk=masked.pk).white_name) == (
        "alice",
        "bob_w",
    )
    assert (stored.get(pk=guest.pk).black_name, stored.get(pk=guest.pk).white_name) == (
        "alice",
        "x",
    )
    assert new.get_model("games", "ChatMessage").objects.get(pk=said.pk).name == "alice"


BEFORE_IMPORTED = [("games", "0013_reserved_for")]
IMPORTED = [("games", "0014_imported_games")]


def test_imported_games_are_marked_and_their_comments_become_the_records(
    executor: MigrationExecutor,
) -> None:
    """A game stored from a record (seats of nobody, finished before it was stored) is
    marked imported, and the chat the import gave its seats ("Ann: hi" as Ann's) is the
    record's again, cut to 300 characters; a spectator's line stays one, and a game
    played here, even one whose accounts are gone, is not imported."""
    executor.migrate(BEFORE_IMPORTED)
    old = executor.loader.project_state(BEFORE_IMPORTED).apps
    games = old.get_model("games", "Game").objects
    chat = old.get_model("games", "ChatMessage").objects
    stored = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)
    later = stored + datetime.timedelta(minutes=5)
    fields = {"kind": "go", "size": 9, "creator_color": "black", "snapshot": {}}
    fields |= {"to_move": "black", "status": "finished", "black_name": "Ann", "white_name": "Bob"}
    record = games.create(**fields, finished_at=stored - datetime.timedelta(microseconds=1))
    played = games.create(**fields, black_session_key="s1", white_session_key="s2")
    orphaned = games.create(**fields)
    games.filter(pk=record.pk).update(created_at=stored)
    games.filter(pk__in=[played.pk, orphaned.pk]).update(created_at=stored, finished_at=later)
    hers = chat.create(game=record, name="Ann", color="black", text="hi", ply=0)
    comment = chat.create(game=record, name="Comment", color="", text="y" * 400, ply=1)
    spectator = chat.create(game=record, name="Cy", session_key="s3", text="nice", ply=1)
    player = chat.create(game=played, name="Ann", color="black", text="gg", ply=0)

    executor = MigrationExecutor(connection)
    executor.migrate(IMPORTED)

    new = executor.loader.project_state(IMPORTED).apps
    marked = new.get_model("games", "Game").objects.filter(imported=True)
    assert list(marked.values_list("pk", flat=True)) == [record.pk]
    said = new.get_model("games", "ChatMessage").objects
    lines = {m.pk: (m.name, m.color, m.text) for m in said.all()}
    assert lines == {
        hers.pk: ("", "", "Ann: hi"),
        comment.pk: ("", "", "y" * 300),
        spectator.pk: ("Cy", "", "nice"),
        player.pk: ("Ann", "black", "gg"),
    }
