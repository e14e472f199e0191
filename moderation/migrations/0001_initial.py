# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""Reports and the moderation log (moderation.models)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0014_imported_games"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Action",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("at", models.DateTimeField(db_index=True)),
                (
                    "action",
                    models.CharField(
                        choices=[
                            ("mute", "Mute"),
                            ("unmute", "Unmute"),
                            ("mark_engine", "Mark for engine use"),
                            ("unmark_engine", "Clear the engine mark"),
                            ("close", "Close the account"),
                            ("dismiss", "Dismiss the reports"),
                        ],
                        max_length=13,
                    ),
                ),
                ("reason", models.TextField(max_length=1000)),
                ("until", models.DateTimeField(blank=True, null=True)),
                (
                    "account",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="moderation_log",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "staff",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ("-at", "-pk"),
            },
        ),
        migrations.CreateModel(
            name="Report",
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
                            ("cheat", "Cheating: an engine's help"),
                            ("abuse", "Insults or abuse"),
                            ("name", "An offensive username"),
                            ("sandbag", "Losing on purpose (sandbagging)"),
                            ("other", "Something else"),
                        ],
                        max_length=7,
                    ),
                ),
                ("text", models.TextField(blank=True, max_length=1000)),
                ("created_at", models.DateTimeField()),
                ("closed_at", models.DateTimeField(blank=True, null=True)),
                (
                    "account",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="reports_against",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "chat",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="games.chatmessage",
                    ),
                ),
                (
                    "closed_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="reports",
                        to="moderation.action",
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="games.game",
                    ),
                ),
                (
                    "reporter",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="reports_made",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ("-created_at", "-pk"),
            },
        ),
        migrations.AddIndex(
            model_name="action",
            index=models.Index(fields=["account", "-at"], name="action_account_latest"),
        ),
        migrations.AddIndex(
            model_name="report",
            index=models.Index(
                condition=models.Q(("closed_at__isnull", True)),
                fields=["account", "-created_at"],
                name="report_open",
            ),
        ),
        migrations.AddIndex(
            model_name="report",
            index=models.Index(fields=["reporter", "created_at"], name="report_reporter_day"),
        ),
        migrations.AddConstraint(
            model_name="report",
            constraint=models.UniqueConstraint(
                condition=models.Q(("closed_at__isnull", True)),
                fields=("reporter", "account", "reason"),
                name="report_open_once",
            ),
        ),
    ]
