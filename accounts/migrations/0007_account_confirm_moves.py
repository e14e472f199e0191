# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""When an account's moves wait for its Confirm: not chosen yet for every account (the page
then chooses by the screen)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_email_addresses"),
    ]

    operations = [
        migrations.AddField(
            model_name="account",
            name="confirm_moves",
            field=models.CharField(
                blank=True,
                choices=[
                    ("never", "Never"),
                    ("correspondence", "In correspondence games"),
                    ("always", "In every game"),
                ],
                db_default="",
                help_text=(
                    "When a move waits for Confirm; empty: not chosen (correspondence games on "
                    "touch screens, never elsewhere)."
                ),
                max_length=16,
            ),
        ),
    ]
