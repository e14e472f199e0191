"""``manage.py bot_token NAME``: NAME made a bot (the account created if needed); the
new token is printed as the last line."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bots import services
from games.services.errors import GameError


class Command(BaseCommand):
    help = "Make NAME a bot account (creating it if needed) and print a new API token for it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            token = services.bot_token(username=options["name"])
        except GameError as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"{options['name']} is a bot. Its token (shown once):")
        self.stdout.write(token)
