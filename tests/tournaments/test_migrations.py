"""The data the tournaments' migrations carry over."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_NAMES = [("tournaments", "0001_initial")]
NAMES = [("tournaments", "0002_names_without_controls")]


def test_a_name_made_with_a_line_break_keeps_its_words_on_one_line(
    executor: MigrationExecutor,
) -> None:
    executor.migrate(BEFORE_NAMES)
    old = executor.loader.project_state(BEFORE_NAMES).apps
    creator = old.get_model("auth", "User").objects.create(username="ann")
    tournaments = old.get_model("tournaments", "Tournament").objects
    now = timezone.now()
    fields = {
        "created_by": creator,
        "system": "arena",
        "kind": "othello",
        "size": 8,
        "time_control": {"system": "fischer", "main_time": 60, "increment": 0},
        "starts_at": now,
        "created_at": now,
    }
    broken = tournaments.create(name="Friday\r\nBcc: x@example.com\u200b", **fields)
    invisible = tournaments.create(name="\u200b", **fields)
    spaced = tournaments.create(name="Friday  blitz", **fields)

    executor = MigrationExecutor(connection)
    executor.migrate(NAMES)

    new = executor.loader.project_state(NAMES).apps.get_model("tournaments", "Tournament")
    assert new.objects.get(pk=broken.pk).name == "Friday Bcc: x@example.com"
    assert new.objects.get(pk=invisible.pk).name == f"Tournament {invisible.pk}"
    assert new.objects.get(pk=spaced.pk).name == "Friday  blitz", "only names with controls change"
