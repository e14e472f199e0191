# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""Puzzles, their answers, the puzzle ratings and the mining queue (puzzles.models)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("games", "0014_imported_games"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="PuzzleRating",
            fields=[
                (
                    "account",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="puzzle_rating",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("rating", models.FloatField(default=1500.0)),
                ("rd", models.FloatField(default=350.0)),
                ("volatility", models.FloatField(default=0.06)),
                ("attempts", models.PositiveIntegerField(default=0)),
                ("solved", models.PositiveIntegerField(default=0)),
            ],
        ),
        migrations.CreateModel(
            name="Puzzle",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(choices=[("othello", "Othello"), ("go", "Go")], max_length=8),
                ),
                ("size", models.PositiveSmallIntegerField()),
                (
                    "position",
                    models.CharField(
                        help_text="The rows joined by '/', then the side to play.", max_length=400
                    ),
                ),
                ("rows", models.JSONField()),
                ("to_play", models.CharField(max_length=5)),
                ("solution_row", models.PositiveSmallIntegerField()),
                ("solution_col", models.PositiveSmallIntegerField()),
                (
                    "value",
                    models.FloatField(
                        blank=True,
                        help_text="Othello: the exact disc margin after the solution (Black's).",
                        null=True,
                    ),
                ),
                (
                    "ply",
                    models.PositiveIntegerField(
                        default=0, help_text="The moves of the game played before the puzzle."
                    ),
                ),
                ("rating", models.FloatField(default=1500.0)),
                ("rd", models.FloatField(default=350.0)),
                ("volatility", models.FloatField(default=0.06)),
                ("plays", models.PositiveIntegerField(default=0)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "game",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="puzzles",
                        to="games.game",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="PuzzleAttempt",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("correct", models.BooleanField()),
                ("at", models.DateTimeField(auto_now_add=True)),
                (
                    "rating_after",
                    models.FloatField(help_text="The account's puzzle rating after this answer."),
                ),
                (
                    "account",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="puzzle_attempts",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "puzzle",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="attempts",
                        to="puzzles.puzzle",
                    ),
                ),
            ],
            options={
                "ordering": ("-at", "-pk"),
            },
        ),
        migrations.CreateModel(
            name="Mining",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("queued", "Queued"),
                            ("running", "Running"),
                            ("done", "Done"),
                            ("failed", "Failed"),
                        ],
                        default="queued",
                        max_length=7,
                    ),
                ),
                ("worker", models.CharField(blank=True, max_length=64)),
                ("lease_until", models.DateTimeField(blank=True, null=True)),
                ("requested_at", models.DateTimeField(auto_now_add=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                ("found", models.PositiveIntegerField(default=0)),
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="mining",
                        to="games.game",
                    ),
                ),
            ],
            options={
                "indexes": [
                    models.Index(fields=["status", "requested_at"], name="mining_status_requested")
                ],
            },
        ),
        migrations.AddIndex(
            model_name="puzzle",
            index=models.Index(fields=["kind", "rating"], name="puzzle_kind_rating"),
        ),
        migrations.AddConstraint(
            model_name="puzzle",
            constraint=models.UniqueConstraint(
                fields=("kind", "position"), name="puzzle_kind_position"
            ),
        ),
        migrations.AddIndex(
            model_name="puzzleattempt",
            index=models.Index(fields=["account", "-at"], name="puzzle_attempt_account_at"),
        ),
        migrations.AddConstraint(
            model_name="puzzleattempt",
            constraint=models.UniqueConstraint(
                fields=("account", "puzzle"), name="puzzle_attempt_once"
            ),
        ),
    ]
