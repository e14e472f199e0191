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
    # Every app's latest: going back in games' history also unapplies the migrations of
    # the apps that depend on it (bots), which must come back too.
    latest = executor.loader.graph.leaf_nodes()
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
