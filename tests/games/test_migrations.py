"""The data the migrations carry over: games stored before a migration keep their meaning."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_PLAYED_ON = [("games", "0002_scoring_phase")]
PLAYED_ON = [("games", "0003_played_on")]


@pytest.fixture
def executor() -> Iterator[MigrationExecutor]:
    """Migrations to run by hand; the database is migrated to the latest again after."""
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()  # every app: pairing's tables depend on games'
    yield executor
    executor = MigrationExecutor(connection)
    executor.migrate(latest)


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
