# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""A playban on the account's own row (accounts.standing): its end and why. The
moderation app's playbans set them."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0008_account_standing"),
    ]

    operations = [
        migrations.AddField(
            model_name="account",
            name="playban_until",
            field=models.DateTimeField(
                blank=True,
                help_text=(
                    "Playbanned until then: no seek, no pool, no tournament to join "
                    "(moderation's playbans, for games let end without a move or left to "
                    "time out)."
                ),
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="account",
            name="playban_reason",
            field=models.CharField(
                blank=True,
                db_default="",
                help_text="Why: no_move (games let end without a move) or left.",
                max_length=8,
            ),
        ),
    ]
