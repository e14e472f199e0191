"""The challenges' move out of the bots app keeps the challenges stored before it: the
same rows, the bot as the challenged account, the challenger's account found from the
game's creator's seat."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("bots", "0003_challenges_reserve_their_seat"), ("challenges", None)]
AFTER = [("challenges", "0002_for_everyone")]


@pytest.fixture
def executor() -> Iterator[MigrationExecutor]:
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    yield executor
    MigrationExecutor(connection).migrate(latest)


def test_challenges_stored_by_the_bots_app_are_the_challenges_apps(
    executor: MigrationExecutor,
) -> None:
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE[:1]).apps
    users = old.get_model("auth", "User")
    ann, robo = users.objects.create(username="ann"), users.objects.create(username="robo")
    game = old.get_model("games", "Game").objects.create(
        kind="go",
        size=9,
        creator_color="black",
        black_user=ann,
        black_name="ann",
        snapshot={},
        to_move="black",
        reserved_for=robo,
    )
    now = timezone.now()
    old.get_model("bots", "Challenge").objects.create(
        game=game, bot=robo, challenger="ann", rated=True, created_at=now, expires_at=now
    )

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    moved = new.get_model("challenges", "Challenge").objects.get()
    assert (moved.game_id, moved.challenged_id, moved.challenger_user_id) == (
        game.pk,
        robo.pk,
        ann.pk,
    )
    assert (moved.challenger, moved.rated, moved.status) == ("ann", True, "pending")
