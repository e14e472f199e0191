"""What a use case schedules for after its commit: a broadcast (``on_commit``), and the
computer's turn claimed at once (``nudge_computer``)."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from games import signals
from games.models import Game


def on_commit(broadcast: Callable[[], None]) -> None:
    """Run ``broadcast`` once the transaction commits."""
    # robust: the moves are stored whatever happens to the broadcast; a client that
    # missed it catches up with `sync` (the failure is logged by Django).
    transaction.on_commit(broadcast, robust=True)


def nudge_computer(game: Game) -> None:
    """After the commit, tell this process when ``game`` leaves the computer a turn (a
    move, or a look at Go's count): its watch claims it at once (games.signals)."""
    owed = (game.status == Game.Status.ACTIVE and game.to_move == game.computer_color) or (
        game.status == Game.Status.SCORING and game.computer_dead is None
    )
    if game.computer_color and owed:
        game_id = game.public_id
        on_commit(lambda: signals.computer_owes.send(sender=Game, game_id=game_id))
