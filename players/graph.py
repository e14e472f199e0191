"""A rating's history as an SVG line graph, drawn on the server (no script, no library):
time across, rating up, a dot on each game (up to ``DOTS``, else on the last only)."""

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
MIN_SPAN = 40.0
"""The least rating span drawn, so that one game's change does not fill the height."""


def rating_graph(points: Sequence[tuple[datetime.datetime, float]], *, label: str) -> str:
    """The SVG element (a string) of ``points`` (time, rating after the game), oldest
    first; ``label`` names it for screen readers."""
    if not points:
        return ""
    times = [at.timestamp() for at, _ in points]
    ratings = [rating for _, rating in points]
    low, high = min(ratings), max(ratings)
    if high - low < MIN_SPAN:
        middle = (high + low) / 2
        low, high = middle - MIN_SPAN / 2, middle + MIN_SPAN / 2
    start, end = times[0], times[-1]
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(t: float) -> float:
        return LEFT + (plot_w / 2 if end == start else (t - start) / (end - start) * plot_w)

    def y(rating: float) -> float:
        return TOP + (high - rating) / (high - low) * plot_h

    coords = [(x(t), y(rating)) for t, rating in zip(times, ratings, strict=True)]
    line = " ".join(f"{px:.1f},{py:.1f}" for px, py in coords)
    dots = coords if len(coords) <= DOTS else coords[-1:]
    first, last = points[0][0].date().isoformat(), points[-1][0].date().isoformat()
    parts = [
        f'<svg class="rating-graph" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(label)}</title>",
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}"/>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}" '
        f'y2="{TOP + plot_h}"/>',
        f'<text class="tick" x="{LEFT - 6}" y="{TOP + 4}" text-anchor="end">{high:.0f}</text>',
        f'<text class="tick" x="{LEFT - 6}" y="{TOP + plot_h}" text-anchor="end">{low:.0f}</text>',
        f'<text class="tick" x="{LEFT}" y="{HEIGHT - 6}">{first}</text>',
        f'<text class="tick" x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" text-anchor="end">{last}</text>',
        f'<polyline class="line" points="{line}"/>',
        *(f'<circle class="point" cx="{px:.1f}" cy="{py:.1f}" r="4"/>' for px, py in dots),
        "</svg>",
    ]
    return "".join(parts)
