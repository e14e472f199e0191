# ruff: noqa: RUF012 (Django's generated migrations use class-level lists)
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_analysis"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                fields=["black_user", "status", "result", "finished_at"],
                name="game_black_user_status",
            ),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                fields=["white_user", "status", "result", "finished_at"],
                name="game_white_user_status",
            ),
        ),
    ]
