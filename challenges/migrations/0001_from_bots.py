# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""The challenges' model, until now the bots app's: taken over in the migrations' state
only, its table (``bots_challenge``) and rows left as they are."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("bots", "0003_challenges_reserve_their_seat"),
        ("games", "0013_reserved_for"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Challenge",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "challenger",
                            models.CharField(
                                help_text="The challenger's seat name.", max_length=40
                            ),
                        ),
                        ("rated", models.BooleanField(default=False)),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("pending", "Waiting for the bot"),
                                    ("accepted", "Accepted"),
                                    ("declined", "Declined"),
                                    ("expired", "Not answered"),
                                ],
                                default="pending",
                                max_length=8,
                            ),
                        ),
                        ("created_at", models.DateTimeField()),
                        ("expires_at", models.DateTimeField()),
                        (
                            "bot",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="challenges",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "game",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="challenge",
                                to="games.game",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "bots_challenge",
                        "indexes": [
                            models.Index(
                                condition=models.Q(("status", "pending")),
                                fields=["expires_at"],
                                name="challenge_pending_expiry",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
