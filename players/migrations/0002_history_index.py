# ruff: noqa: RUF012 (Django's generated migrations use class-level lists)
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0001_initial"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(
                condition=models.Q(("annulled", False)),
                fields=["user", "category", "ended_at", "rating_after"],
                name="rating_change_history",
            ),
        ),
    ]
