"""The ends of a game: a move that ends it (resign, timeout, forfeit), the game finished
with its result (``signals.game_finished`` told in the transaction) or aborted
(``signals.game_aborted``), its clocks stopped."""

from __future__ import annotations

from django.utils import timezone

from games import signals
from games.models import Game, Move
from games.realtime import events
from games.services import tell
from games.services.after_commit import on_commit
from games.services.moves import changed_key


def ending_move(game: Game, *, color: str, action: str) -> Move:
    """The (unsaved) move that ends ``game`` without touching the board: ``action`` is
    resign, timeout or forfeit, ``color`` the side that resigned, ran out or left."""
    return Move(
        game=game, ply=game.ply + 1, color=color, action=action, diff={changed_key(game): []}
    )


def end_with(game: Game, move: Move, *, result: str) -> list[Move]:
    """Store ``move`` (an ``ending_move``) as ``game``'s last, the game finished with
    ``result`` and its clocks stopped; broadcast once the transaction commits."""
    game.ply = move.ply
    game.undo_request = ""
    stop_clocks(game)
    finish(game, result=result)
    move.save()
    game.save()
    on_commit(lambda: events.broadcast_moved(game, [move]))
    return [move]


def stop_clocks(game: Game) -> None:
    """No clock runs (scoring, over); what the side to move spent is not charged."""
    game.turn_started_at = None
    game.deadline = None


def finish(game: Game, *, result: str) -> None:
    """Mark ``game`` finished with ``result``, now, and tell ``signals.game_finished`` in
    this transaction (the players app moves a rated game's ratings); the lobby is told
    (its count of games in play changes)."""
    game.status = Game.Status.FINISHED
    game.result = result
    game.finished_at = timezone.now()
    signals.game_finished.send(sender=Game, game=game)
    tell.ended(game)
    on_commit(events.broadcast_lobby)


def end_aborted(game: Game, reason: str) -> None:
    """``game`` ends ``aborted`` now, for ``reason`` (a ``Game.AbortReason``): no result
    (so no winner, no rating change), no clock running, no request pending; saved, and
    ``signals.game_aborted`` told in this transaction; everyone gets ``state`` once the
    transaction commits (the lobby too: its lists change)."""
    game.status = Game.Status.ABORTED
    game.abort_reason = reason
    game.result = ""
    game.finished_at = timezone.now()
    game.undo_request = ""
    stop_clocks(game)
    game.save()
    signals.game_aborted.send(sender=Game, game=game)
    on_commit(lambda: events.broadcast_state(game))
    on_commit(events.broadcast_lobby)
