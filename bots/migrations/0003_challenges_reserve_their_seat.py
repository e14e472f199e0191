# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""A challenge's game keeps its free seat for the challenged account in the game's own
row (``Game.reserved_for``), no longer through a question the games asked this app."""

from typing import Any

from django.db import migrations


def reserve(apps: Any, schema_editor: Any) -> None:
    Challenge = apps.get_model("bots", "Challenge")
    Game = apps.get_model("games", "Game")
    for challenge in Challenge.objects.all():
        Game.objects.filter(pk=challenge.game_id).update(reserved_for_id=challenge.bot_id)


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0002_bot_flag_in_accounts"),
        ("games", "0013_reserved_for"),
    ]

    operations = [migrations.RunPython(reserve, migrations.RunPython.noop)]
