# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""Imported games are marked as such (``Game.imported``), and their comments become the
record's (no name, no colour, each cut to 300 characters), never a seat's chat.

A game stored from a record is the only finished game whose seats belong to no account,
no session and not the computer, and that was finished before it was stored (the import
finishes it, then saves it; a game played here is stored when created and finished
later). Its chat lines written by nobody (no account, no session) are the record's: a
line the import gave to a seat ("Ann: hi" read as Ann's) becomes "Ann: hi" again.
"""

from typing import Any

from django.conf import settings
from django.db import migrations, models
from django.db.models import F, Q, Value
from django.db.models.functions import Concat, Left

COMMENT_LENGTH = 300


def mark_imported(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    ChatMessage = apps.get_model("games", "ChatMessage")
    imported = Game.objects.filter(
        status="finished",
        black_user__isnull=True,
        white_user__isnull=True,
        black_session_key="",
        white_session_key="",
        computer_color="",
        finished_at__lte=F("created_at"),
    )
    imported.update(imported=True)
    comments = ChatMessage.objects.filter(game__imported=True, user__isnull=True, session_key="")
    comments.exclude(color="").update(
        text=Concat(F("name"), Value(": "), F("text"), output_field=models.TextField())
    )
    comments.update(name="", color="", text=Left(F("text"), COMMENT_LENGTH))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_reserved_for"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="imported",
            field=models.BooleanField(default=False, db_default=False),
        ),
        migrations.AlterField(
            model_name="chatmessage",
            name="name",
            field=models.CharField(
                blank=True, help_text="Empty: a comment of the record.", max_length=40
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=Q(imported=False) | Q(black_user__isnull=True, white_user__isnull=True),
                name="game_imported_belongs_to_nobody",
            ),
        ),
        # After the schema's changes: PostgreSQL alters no table with updates pending.
        migrations.RunPython(mark_imported, migrations.RunPython.noop),
    ]
