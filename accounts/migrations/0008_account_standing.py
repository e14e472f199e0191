# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""What staff decided about an account, on its own row (accounts.standing): muted until
a time or for good, marked for engine use. The moderation app sets them."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_account_confirm_moves"),
    ]

    operations = [
        migrations.AddField(
            model_name="account",
            name="engine",
            field=models.BooleanField(
                db_default=False,
                default=False,
                help_text="Marked by staff for engine use: no rated game, no leaderboard.",
            ),
        ),
        migrations.AddField(
            model_name="account",
            name="muted_for_good",
            field=models.BooleanField(
                db_default=False, default=False, help_text="Muted by staff with no end."
            ),
        ),
        migrations.AddField(
            model_name="account",
            name="muted_until",
            field=models.DateTimeField(
                blank=True,
                help_text="Muted by staff until then: no chat, no challenge to a person.",
                null=True,
            ),
        ),
    ]
