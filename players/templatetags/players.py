"""Template filters of the players' pages."""

from __future__ import annotations

import re

from django import template
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

register = template.Library()

_KINDS = {"othello": gettext_lazy("Othello"), "go": gettext_lazy("Go")}
_SPEEDS = {
    "bullet": pgettext_lazy("speed", "bullet"),
    "blitz": pgettext_lazy("speed", "blitz"),
    "rapid": pgettext_lazy("speed", "rapid"),
    "classical": pgettext_lazy("speed", "classical"),
    "correspondence": pgettext_lazy("speed", "correspondence"),
}
_CATEGORY = re.compile(r"(?P<kind>[a-z]+)(?P<size>\d+)-(?P<speed>[a-z]+)")


@register.filter
def category_name(category: str) -> str:
    """``othello8-blitz`` in words: ``Othello 8x8 blitz`` (with a multiplication sign)."""
    match = _CATEGORY.fullmatch(category)
    if match is None:
        return category
    return gettext("%(kind)s %(size)s×%(size)s %(speed)s") % {  # noqa: RUF001
        "kind": _KINDS.get(match["kind"], match["kind"]),
        "size": match["size"],
        "speed": _SPEEDS.get(match["speed"], match["speed"]),
    }


@register.filter
def signed(change: float) -> str:
    """A rating change rounded, with its sign: ``+12``, ``-9``, ``0``."""
    rounded = round(change)
    return f"{rounded:+d}" if rounded else "0"


@register.filter
def speed_name(speed: str) -> str:
    """A speed (``blitz``) in the visitor's language."""
    return str(_SPEEDS.get(speed, speed))
