# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""Challenges for every account: the challenged account (``bot`` until now), the
challenger's account (filled in from the game's creator's seat), the table in this app's
name."""

from typing import Any

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def challenger_accounts(apps: Any, schema_editor: Any) -> None:
    Challenge = apps.get_model("challenges", "Challenge")
    for challenge in Challenge.objects.select_related("game"):
        game = challenge.game
        # A migration's models have no methods (no Game.creator): the column by name.
        user_id = game.black_user_id if game.creator_color == "black" else game.white_user_id
        if user_id is not None:
            Challenge.objects.filter(pk=challenge.pk).update(challenger_user_id=user_id)


class Migration(migrations.Migration):
    dependencies = [
        ("challenges", "0001_from_bots"),
        ("bots", "0004_challenges_move_to_their_app"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameField(model_name="challenge", old_name="bot", new_name="challenged"),
        migrations.AlterModelTable(name="challenge", table=None),
        migrations.AddField(
            model_name="challenge",
            name="challenger_user",
            field=models.ForeignKey(
                blank=True,
                help_text="The challenger's account (none for a guest challenging a bot).",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="challenges_made",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AlterField(
            model_name="challenge",
            name="status",
            field=models.CharField(
                choices=[
                    ("pending", "Waiting for an answer"),
                    ("accepted", "Accepted"),
                    ("declined", "Declined"),
                    ("expired", "Not answered"),
                ],
                default="pending",
                max_length=8,
            ),
        ),
        migrations.AddIndex(
            model_name="challenge",
            index=models.Index(
                condition=models.Q(("status", "pending")),
                fields=["challenger_user"],
                name="challenge_pending_by",
            ),
        ),
        migrations.RunPython(challenger_accounts, migrations.RunPython.noop),
    ]
