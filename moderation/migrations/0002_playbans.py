# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""Playbans and the offences that earn them (moderation.models), and the staff's action
that lifts one."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_imported_games"),
        ("moderation", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="action",
            name="action",
            field=models.CharField(
                choices=[
                    ("mute", "Mute"),
                    ("unmute", "Unmute"),
                    ("mark_engine", "Mark for engine use"),
                    ("unmark_engine", "Clear the engine mark"),
                    ("close", "Close the account"),
                    ("dismiss", "Dismiss the reports"),
                    ("lift_playban", "Lift the playban"),
                ],
                max_length=13,
            ),
        ),
        migrations.CreateModel(
            name="Playban",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "reason",
                    models.CharField(
                        choices=[
                            ("no_move", "Games let end without a first move"),
                            ("left", "A started game left"),
                        ],
                        max_length=8,
                    ),
                ),
                ("at", models.DateTimeField()),
                ("until", models.DateTimeField()),
                ("lifted_at", models.DateTimeField(blank=True, null=True)),
                (
                    "account",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="playbans",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ("-at", "-pk"),
            },
        ),
        migrations.CreateModel(
            name="PlaybanOffence",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "reason",
                    models.CharField(
                        choices=[
                            ("no_move", "Games let end without a first move"),
                            ("left", "A started game left"),
                        ],
                        max_length=8,
                    ),
                ),
                ("at", models.DateTimeField()),
                (
                    "account",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.game",
                    ),
                ),
                (
                    "playban",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="offences",
                        to="moderation.playban",
                    ),
                ),
            ],
            options={
                "ordering": ("at", "pk"),
            },
        ),
        migrations.AddIndex(
            model_name="playban",
            index=models.Index(fields=["account", "-at"], name="playban_account_latest"),
        ),
        migrations.AddIndex(
            model_name="playbanoffence",
            index=models.Index(
                condition=models.Q(("playban__isnull", True)),
                fields=["account", "at"],
                name="playban_offence_uncounted",
            ),
        ),
        migrations.AddConstraint(
            model_name="playbanoffence",
            constraint=models.UniqueConstraint(
                fields=("account", "game"), name="playban_offence_once"
            ),
        ),
    ]
