"""Slots in the games' pages that an app above this one fills: how pairing puts its pools
on the home page and says on a game's page how the game was paired, without a games
template loading another app's tags.

A part is a function of the page's template context returning HTML (a safe string, such
as ``render_to_string``'s; plain text is escaped); the page shows each slot's parts in
the order they were registered (``{% page_parts "home" %}``, ``games.templatetags.games``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

Part = Callable[[Any], str]

SLOTS = (
    "home",  # the home page, above the form that starts a game
    "home-scripts",  # the home page's scripts, after its own
    "game-head",  # a game's page, under its clock and Rated / Casual tag
    "game-over",  # a game's page, above the rematch once the game has ended
)

_parts: dict[str, list[Part]] = {slot: [] for slot in SLOTS}


def register_part(slot: str, part: Part) -> None:
    """Show ``part(context)`` in ``slot`` (one of SLOTS) of every page that has it."""
    if slot not in _parts:
        raise ValueError(f"no slot {slot!r}: the slots are {', '.join(SLOTS)}")
    if part not in _parts[slot]:
        _parts[slot].append(part)


def render(slot: str, context: Any) -> SafeString:
    """The HTML of ``slot``'s parts for a page rendered with ``context``."""
    return mark_safe("".join(conditional_escape(part(context)) for part in _parts[slot]))
