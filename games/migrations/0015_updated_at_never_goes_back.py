# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""A game's ``updated_at`` never goes back (``games.models.ChangedAt``): the same column,
set later than the value it replaces. The column is unchanged: no SQL (SQLite would
otherwise copy the whole table to alter it)."""

from django.db import migrations

import games.models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_imported_games"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="game",
                    name="updated_at",
                    field=games.models.ChangedAt(auto_now=True),
                ),
            ]
        ),
    ]
