"""Template filters of the players' pages."""

from __future__ import annotations

import re

from django import template

register = template.Library()

_CATEGORY = re.compile(r"(?P<kind>[a-z]+)(?P<size>\d+)-(?P<speed>[a-z]+)")


@register.filter
def category_name(category: str) -> str:
    """``othello8-blitz`` in words: ``Othello 8x8 blitz`` (with a multiplication sign)."""
    match = _CATEGORY.fullmatch(category)
    if match is None:
        return category
    size = match["size"]
    return f"{match['kind'].title()} {size}\N{MULTIPLICATION SIGN}{size} {match['speed']}"


@register.filter
def signed(change: float) -> str:
    """A rating change rounded, with its sign: ``+12``, ``-9``, ``0``."""
    rounded = round(change)
    return f"{rounded:+d}" if rounded else "0"
