"""Template filters of the game pages."""

from __future__ import annotations

from django import template

from games import selectors
from games.models import Game

register = template.Library()


@register.filter
def time_control(game: Game) -> str:
    """The game's clock in a player's words ("5 min + 3 s a move", "No clock")."""
    return selectors.time_control_text(game)
