"""``manage.py mine_puzzles``: the puzzles of every stored finished game, and of the
engine's self-play where asked."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from games.models import Game
from puzzles import mining, services
from puzzles.models import Mining


class Command(BaseCommand):
    help = (
        "Mine every stored finished Othello game, and where KataGo is installed every Go "
        "game KataGo reviewed, not mined yet (--again: every one) for puzzles; "
        "--self-play N first mines N Othello games of the engine against itself."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--again", action="store_true", help="Mine the mined games too.")
        parser.add_argument(
            "--self-play", type=int, default=0, metavar="N", help="Self-play games to mine."
        )
        parser.add_argument(
            "--level", type=int, default=10, help="The self-play's level, 1 to 10 (default 10)."
        )
        parser.add_argument("--size", type=int, default=8, help="The self-play's board size.")
        parser.add_argument("--seed", type=int, default=None, help="The self-play's seed.")

    def handle(self, *args: Any, **options: Any) -> None:
        made = 0
        for number in range(options["self_play"]):
            seed = None if options["seed"] is None else options["seed"] + number
            start, moves = mining.self_play(options["size"], level=options["level"], seed=seed)
            found = [entry.json() for entry in mining.mine_othello_game(start, moves)]
            with transaction.atomic():
                made += services.store_found(kind="othello", size=start.size, found=found)
        games = Game.objects.filter(services.minable())
        if not options["again"]:
            games = games.exclude(mining__status=Mining.Status.DONE)
        mined = 0
        began = time.monotonic()
        for game_id in games.order_by("pk").values_list("pk", flat=True).iterator():
            try:
                made += services.mine_game(game_id=game_id)
            except ValueError as error:
                self.stderr.write(f"game {game_id} cannot be replayed: {error}")
                continue
            mined += 1
        seconds = time.monotonic() - began
        self.stdout.write(
            f"Mined {mined} game(s) and {options['self_play']} self-play game(s) in "
            f"{seconds:.1f} s: {made} new puzzle(s)."
        )
