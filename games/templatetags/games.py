"""Template filters of the game pages."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import template
from django.utils.html import format_html

from games import records, selectors
from games.models import Game

register = template.Library()


@register.filter
def query(fields: dict[str, Any]) -> str:
    """``fields`` as a URL's query string (``kind=go&size=9``), escaped for the page."""
    return urlencode(fields)


@register.filter
def time_control(game: Game) -> str:
    """The game's clock in a player's words ("5 min + 3 s a move", "No clock")."""
    return selectors.time_control_text(game)


@register.filter
def shown_name(game: Game, color: str) -> str | None:
    """The name of the seat ``color`` as the pages show it (the computer's in the reader's
    language): ``selectors.shown_name``."""
    return selectors.shown_name(game, color)


@register.filter
def outcome(game: Game) -> str:
    """The result in a player's words, then in the record's notation for those who read it
    ("Black wins by resignation B+R", "Draw"), or the state of a game without one ("In
    progress", "Waiting for an opponent")."""
    if not game.result:
        return str(game.get_status_display())
    words = records.result_text(game.result, game.kind)
    if game.result == "Draw":
        return words
    return format_html('{} <span class="result-code muted">{}</span>', words, game.result)
