# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""Why a challenge was declined (empty for one not declined, and for those declined before
reasons were kept)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("challenges", "0003_made_by"),
    ]

    operations = [
        migrations.AddField(
            model_name="challenge",
            name="reason",
            field=models.CharField(
                blank=True,
                choices=[
                    ("generic", "Not accepting challenges"),
                    ("later", "Later, please"),
                    ("too_fast", "Too fast"),
                    ("too_slow", "Too slow"),
                    ("casual", "Casual, please"),
                    ("rated", "Rated, please"),
                ],
                help_text="Why it was declined.",
                max_length=8,
            ),
        ),
    ]
