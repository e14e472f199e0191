"""Template filters of the game pages, and ``page_parts``: what the apps above fill in
a page's slot (games.pages)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from games import pages, records, selectors
from games.models import Game

register = template.Library()


@register.simple_tag(takes_context=True)
def page_parts(context: template.Context, slot: str) -> str:
    """What the apps above this one show in the page's ``slot`` (``games.pages``)."""
    return pages.render(slot, context)


@register.filter
def time_control(game: Game) -> str:
    """The game's clock in a player's words ("5 min + 3 s a move", "No clock")."""
    return selectors.time_control_text(game)


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
