"""A rating's history as an SVG line graph, drawn on the server (no script, no library):
the games across (the first and last days under the axis), the rating up, a dot on each
game (up to ``DOTS``, else on the last only)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from html import escape

WIDTH = 400
HEIGHT = 150
LEFT = 40
RIGHT = 12
TOP = 12
BOTTOM = 26
DOTS = 60
POINTS = 400
"""The most points a line draws: a long history is thinned evenly, the last kept."""
MIN_SPAN = 40.0
"""The least rating span drawn, so that one game's change does not fill the height."""


def rating_graph(
    ratings: Sequence[float], *, first: datetime.datetime, last: datetime.datetime, label: str
) -> str:
    """The SVG element (a string) of ``ratings`` (the rating after each game, in order:
    across by game, the first and last games' days under the axis; at most ``POINTS``
    drawn, the last always); ``label`` names it for screen readers."""
    if not ratings:
        return ""
    step = max(1, -(-len(ratings) // POINTS))
    indexes = list(range(0, len(ratings), step))
    if indexes[-1] != len(ratings) - 1:
        indexes.append(len(ratings) - 1)
    low, high = min(ratings), max(ratings)
    if high - low < MIN_SPAN:
        middle = (high + low) / 2
        low, high = middle - MIN_SPAN / 2, middle + MIN_SPAN / 2
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    span = len(ratings) - 1

    def x(index: int) -> float:
        return LEFT + (plot_w / 2 if span == 0 else index / span * plot_w)

    def y(rating: float) -> float:
        return TOP + (high - rating) / (high - low) * plot_h

    coords = [(x(index), y(ratings[index])) for index in indexes]
    line = " ".join(f"{px:.1f},{py:.1f}" for px, py in coords)
    dots = coords if len(ratings) <= DOTS else coords[-1:]
    start, end = first.date().isoformat(), last.date().isoformat()
    parts = [
        f'<svg class="rating-graph" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(label)}</title>",
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}"/>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}" '
        f'y2="{TOP + plot_h}"/>',
        f'<text class="tick" x="{LEFT - 6}" y="{TOP + 4}" text-anchor="end">{high:.0f}</text>',
        f'<text class="tick" x="{LEFT - 6}" y="{TOP + plot_h}" text-anchor="end">{low:.0f}</text>',
        f'<text class="tick" x="{LEFT}" y="{HEIGHT - 6}">{start}</text>',
        f'<text class="tick" x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" text-anchor="end">{end}</text>',
        f'<polyline class="line" points="{line}"/>',
        *(f'<circle class="point" cx="{px:.1f}" cy="{py:.1f}" r="4"/>' for px, py in dots),
        "</svg>",
    ]
    return "".join(parts)
