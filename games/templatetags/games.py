"""Template filters of the game pages."""

from __future__ import annotations

from django import template

from games import records, selectors
from games.models import Game

register = template.Library()


@register.filter
def time_control(game: Game) -> str:
    """The game's clock in a player's words ("5 min + 3 s a move", "No clock")."""
    return selectors.time_control_text(game)


@register.filter
def outcome(game: Game) -> str:
    """The result in a player's words ("Black wins by resignation", "Draw"), or the state
    of a game without one ("In play", "Waiting for an opponent")."""
    if game.result:
        return records.result_text(game.result, game.kind)
    return str(game.get_status_display())
