# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""One name per player (docs/api/README.md): an account's seat is named by its username. Every seat
an account holds, and every chat line it wrote, takes the account's username, whatever
name was typed for it before. Guests' seats keep theirs; nothing to undo going back."""

from typing import Any

from django.conf import settings
from django.db import migrations
from django.db.models import F, OuterRef, Subquery


def name_seats_by_account(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    ChatMessage = apps.get_model("games", "ChatMessage")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))

    def username(field: str) -> Subquery:
        return Subquery(User.objects.filter(pk=OuterRef(field)).values("username")[:1])

    # A migration's models have no methods (no Game.seat): each seat's columns by name.
    blacks = Game.objects.filter(black_user__isnull=False)
    blacks.exclude(black_name=F("black_user__username")).update(
        black_name=username("black_user_id")
    )
    whites = Game.objects.filter(white_user__isnull=False)
    whites.exclude(white_name=F("white_user__username")).update(
        white_name=username("white_user_id")
    )
    spoken = ChatMessage.objects.filter(user__isnull=False).exclude(name=F("user__username"))
    spoken.update(name=username("user_id"))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_profile_indexes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(name_seats_by_account, migrations.RunPython.noop)]
