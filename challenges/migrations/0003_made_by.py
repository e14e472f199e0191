# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""An index on each challenge's challenger and creation time: the hourly cap counts an
account's challenges of the last hour."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("challenges", "0002_for_everyone"),
        ("games", "0013_reserved_for"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="challenge",
            index=models.Index(fields=["challenger_user", "created_at"], name="challenge_made_by"),
        ),
    ]
