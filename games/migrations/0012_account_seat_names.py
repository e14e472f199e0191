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

    for color in ("black", "white"):
        seated = Game.objects.filter(**{f"{color}_user__isnull": False})
        stale = seated.exclude(**{f"{color}_name": F(f"{color}_user__username")})
        stale.update(**{f"{color}_name": username(f"{color}_user_id")})
    spoken = ChatMessage.objects.filter(user__isnull=False).exclude(name=F("user__username"))
    spoken.update(name=username("user_id"))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_profile_indexes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(name_seats_by_account, migrations.RunPython.noop)]
