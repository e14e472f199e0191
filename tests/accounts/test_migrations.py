"""The data the accounts' migrations carry over: accounts made before a migration keep
their meaning."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_SKELETONS = [("accounts", "0004_follows_and_blocks")]
SKELETONS = [("accounts", "0005_account_skeleton")]


def test_every_account_gets_the_skeleton_of_its_username(executor: MigrationExecutor) -> None:
    """Accounts with a row and without one get their skeleton; two accounts that already
    look alike (made before the rule) both keep theirs, and the migration goes through."""
    executor.migrate(BEFORE_SKELETONS)
    old = executor.loader.project_state(BEFORE_SKELETONS).apps
    users = old.get_model("auth", "User").objects
    alice = users.create(username="alice")
    look_alike = users.create(username="\u0430lice")  # Cyrillic a
    bob = users.create(username="Bob_W")
    old.get_model("accounts", "Account").objects.create(user=bob, language="fr")

    executor = MigrationExecutor(connection)
    executor.migrate(SKELETONS)

    accounts = executor.loader.project_state(SKELETONS).apps.get_model("accounts", "Account")
    stored = dict(accounts.objects.values_list("user_id", "skeleton"))
    assert stored == {alice.pk: "alice", look_alike.pk: "alice", bob.pk: "bob_w"}
    assert accounts.objects.get(user_id=bob.pk).language == "fr"
