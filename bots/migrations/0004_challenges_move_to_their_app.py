# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""The challenges' model now belongs to the challenges app (challenges 0001 took it over):
gone from this app's state only, its table and rows kept."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0003_challenges_reserve_their_seat"),
        ("challenges", "0001_from_bots"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Challenge")],
            database_operations=[],
        ),
    ]
