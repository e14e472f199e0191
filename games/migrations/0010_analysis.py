# ruff: noqa: RUF012 (Django's generated migrations use class-level lists)
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_rated"),
    ]

    operations = [
        migrations.CreateModel(
            name="Analysis",
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
                ("engine", models.CharField(max_length=60)),
                (
                    "total",
                    models.PositiveIntegerField(
                        help_text="The positions to analyse: the moves + 1."
                    ),
                ),
                ("plies", models.JSONField(blank=True, default=list)),
                ("worker", models.CharField(blank=True, max_length=64)),
                ("lease_until", models.DateTimeField(blank=True, null=True)),
                ("requested_at", models.DateTimeField(auto_now_add=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="analysis",
                        to="games.game",
                    ),
                ),
            ],
        ),
    ]
