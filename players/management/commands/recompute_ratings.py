"""``manage.py recompute_ratings``: every rating rebuilt from the rated games."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from players import ratings


class Command(BaseCommand):
    help = (
        "Rebuild every rating and every game's rating change from the rated games, in the "
        "order they ended (annulled ones left out). On an untouched database nothing changes."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        replayed = ratings.recompute()
        self.stdout.write(f"Recomputed the ratings from {replayed} rated game(s).")
