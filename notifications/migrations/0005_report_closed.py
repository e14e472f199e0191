# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""A notification kind: ``report_closed``, a reporter told that staff acted on its report."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0004_rendered_when_read"),
    ]

    operations = [
        migrations.AlterField(
            model_name="notification",
            name="kind",
            field=models.CharField(
                choices=[
                    ("your_move", "Your move"),
                    ("challenge", "A challenge"),
                    ("challenge_declined", "A challenge declined"),
                    ("game_over", "A game over"),
                    ("tournament_starting", "A tournament starting"),
                    ("round_paired", "A tournament round paired"),
                    ("tournament_forfeit", "A tournament game lost unplayed"),
                    ("report_closed", "Staff acted on your report"),
                    ("follow_playing", "A player you follow starting a game"),
                ],
                max_length=20,
            ),
        ),
        migrations.AlterField(
            model_name="preference",
            name="kind",
            field=models.CharField(
                choices=[
                    ("your_move", "Your move"),
                    ("challenge", "A challenge"),
                    ("challenge_declined", "A challenge declined"),
                    ("game_over", "A game over"),
                    ("tournament_starting", "A tournament starting"),
                    ("round_paired", "A tournament round paired"),
                    ("tournament_forfeit", "A tournament game lost unplayed"),
                    ("report_closed", "Staff acted on your report"),
                    ("follow_playing", "A player you follow starting a game"),
                ],
                max_length=20,
            ),
        ),
    ]
