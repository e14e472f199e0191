"""A rating's history as an SVG line graph, drawn on the server (no script, no library):
the rating before the first game, then after each game, across; the rating up, on an
axis of round ticks at least ``MIN_SPAN`` high; a dot on each point (up to ``DOTS``,
else on the last only); the first and last games' days under the axis (once if they
are one)."""

from __future__ import annotations

import datetime
import math
from collections.abc import Sequence
from html import escape

from gamerules.base import ENGLISH, Words

WIDTH = 400
HEIGHT = 150
LEFT = 40
RIGHT = 12
TOP = 12
BOTTOM = 26
DOTS = 60
POINTS = 400
"""The most points a line draws: a long history is thinned evenly, the last kept."""
MIN_SPAN = 200.0
"""The least rating span drawn (100 either side of the middle of the ratings), so that
one game's change reads as the change it is, not as a cliff filling the height."""
MAX_INTERVALS = 4
"""The most intervals between ticks: a tick is a round number at most this many steps."""
STEPS = (1.0, 2.0, 2.5, 5.0)
"""A tick step is one of these times a power of ten."""


def axis(low: float, high: float) -> tuple[float, float, list[float]]:
    """The rating axis for ratings from ``low`` to ``high``: its bottom, its top and its
    ticks, round numbers a round step apart (``STEPS``, at most ``MAX_INTERVALS`` of
    them), spanning at least ``MIN_SPAN`` centred on the ratings.

    >>> axis(1500, 1675)
    (1400.0, 1700.0, [1400.0, 1500.0, 1600.0, 1700.0])
    >>> axis(1500, 1500)
    (1400.0, 1600.0, [1400.0, 1450.0, 1500.0, 1550.0, 1600.0])
    """
    middle = (low + high) / 2
    low, high = min(low, middle - MIN_SPAN / 2), max(high, middle + MIN_SPAN / 2)
    power = 10.0 ** math.floor(math.log10((high - low) / MAX_INTERVALS))
    # A step of 20 powers always fits: the span is under 40 powers, so at most 2 steps,
    # and rounding out adds at most one at each end.
    step = next(
        step
        for step in (factor * power * scale for scale in (1, 10) for factor in STEPS)
        if _intervals(low, high, step) <= MAX_INTERVALS
    )
    bottom = math.floor(low / step) * step
    return (
        bottom,
        math.ceil(high / step) * step,
        [bottom + index * step for index in range(_intervals(low, high, step) + 1)],
    )


def _intervals(low: float, high: float, step: float) -> int:
    """How many ``step``s apart the round numbers below ``low`` and above ``high`` are."""
    return math.ceil(high / step) - math.floor(low / step)


def rating_graph(
    ratings: Sequence[float],
    *,
    start: float,
    first: datetime.datetime,
    last: datetime.datetime,
    label: str,
    words: Words = ENGLISH,
) -> str:
    """The SVG element (a string) of a rating's history: ``start`` (the rating before
    the first game), then ``ratings`` (after each game, in order), across by game; the
    first and last games' days under the axis; at most ``POINTS`` drawn, the last
    always. ``label`` names it for screen readers, followed by where it went (in ``words``'
    language)."""
    if not ratings:
        return ""
    values = [start, *ratings]
    step = max(1, -(-len(values) // POINTS))
    indexes = list(range(0, len(values), step))
    if indexes[-1] != len(values) - 1:
        indexes.append(len(values) - 1)
    low, high, ticks = axis(min(values), max(values))
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    span = len(values) - 1

    def x(index: int) -> float:
        return LEFT + index / span * plot_w

    def y(rating: float) -> float:
        return TOP + (high - rating) / (high - low) * plot_h

    coords = [(x(index), y(values[index])) for index in indexes]
    line = " ".join(f"{px:.1f},{py:.1f}" for px, py in coords)
    thinned = len(values) > DOTS
    dots = coords[-1:] if thinned else coords
    days = first.date().isoformat(), last.date().isoformat()
    games = len(ratings)
    name = words.ngettext(
        "%(label)s: from %(start)s to %(end)s over %(games)s game",
        "%(label)s: from %(start)s to %(end)s over %(games)s games",
        games,
    ) % {"label": label, "start": f"{start:.0f}", "end": f"{ratings[-1]:.0f}", "games": games}
    parts = [
        f'<svg class="rating-graph" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(name)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(name)}</title>",
        *(
            f'<line class="grid" x1="{LEFT}" y1="{y(tick):.1f}" x2="{WIDTH - RIGHT}" '
            f'y2="{y(tick):.1f}"/>'
            f'<text class="tick" x="{LEFT - 6}" y="{y(tick) + 4:.1f}" '
            f'text-anchor="end">{tick:.0f}</text>'
            for tick in ticks
        ),
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}"/>',
        # One day (every game on it) is written once, under the last game.
        f'<text class="tick" x="{LEFT}" y="{HEIGHT - 6}">{days[0]}</text>'
        if days[0] != days[1]
        else "",
        f'<text class="tick" x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" text-anchor="end">'
        f"{days[1]}</text>",
        f'<polyline class="line" points="{line}"/>',
        *(
            f'<circle class="point{"" if thinned or index else " start"}" '
            f'cx="{px:.1f}" cy="{py:.1f}" r="4"/>'
            for index, (px, py) in enumerate(dots)
        ),
        "</svg>",
    ]
    return "".join(parts)
