"""players.graph: the rating history as SVG: from the rating before the first game, on
an axis of round ticks at least 200 high, dots on every point up to a number."""

from __future__ import annotations

import datetime
import doctest
import re

import pytest

from players import graph

FIRST = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
LAST = datetime.datetime(2026, 3, 1, tzinfo=datetime.UTC)


def draw(count: int, label: str = "x", start: float = 1490.0) -> str:
    ratings = [1500.0 + 10 * n for n in range(count)]
    return graph.rating_graph(ratings, start=start, first=FIRST, last=LAST, label=label)


def line_of(svg: str) -> list[tuple[float, float]]:
    points = svg.split('points="')[1].split('"')[0].split()
    return [(float(x), float(y)) for x, y in (point.split(",") for point in points)]


def ticks_of(svg: str) -> list[str]:
    return re.findall(r'text-anchor="end">(\d+)</text>', svg)


def test_no_history_draws_nothing() -> None:
    assert draw(0) == ""


def test_one_game_is_a_line_from_the_start_to_the_new_rating() -> None:
    svg = graph.rating_graph(
        [1675.0], start=1500.0, first=FIRST, last=FIRST, label="ann's othello8-blitz rating"
    )

    assert svg.count("<circle") == 2 and svg.count('class="point start"') == 1
    (x0, y0), (x1, y1) = line_of(svg)
    assert x0 == graph.LEFT and x1 == graph.WIDTH - graph.RIGHT  # across the whole width
    assert y1 < y0  # up: SVG's y grows downwards
    # Round ticks, the span at least 200: the 175-point rise fills about half the height.
    assert ticks_of(svg) == ["1400", "1500", "1600", "1700"]
    height = graph.HEIGHT - graph.TOP - graph.BOTTOM
    assert 0.5 < (y0 - y1) / height < 0.65
    assert 'aria-label="ann&#x27;s othello8-blitz rating: from 1500 to 1675 over 1 game"' in svg
    assert svg.count(">2026-01-01<") == 1  # one day, written once


def test_a_long_history_is_thinned_and_keeps_the_last_game() -> None:
    svg = draw(5000)
    line = line_of(svg)

    assert len(line) <= graph.POINTS + 1
    assert line[0][0] == graph.LEFT and line[-1][0] == graph.WIDTH - graph.RIGHT
    assert svg.count("<circle") == 1  # only the last dot
    assert ticks_of(svg) == ["0", "20000", "40000", "60000"]
    assert ">2026-01-01<" in svg and ">2026-03-01<" in svg


def test_the_line_rises_with_the_rating() -> None:
    heights = [y for _, y in line_of(draw(3))]

    assert heights == sorted(heights, reverse=True)
    assert len(heights) == 4  # the start, then three games


@pytest.mark.parametrize(
    ("low", "high", "ticks"),
    [
        (1500, 1500, [1400, 1450, 1500, 1550, 1600]),  # a lone value: 100 either side
        (1500, 1675, [1400, 1500, 1600, 1700]),
        (1325, 1500, [1300, 1400, 1500, 1600]),
        (1490, 1510, [1400, 1450, 1500, 1550, 1600]),
        (1200, 2400, [1000, 1500, 2000, 2500]),
        (812.5, 2987.5, [0, 1000, 2000, 3000]),
        (1500, 51490, [0, 20000, 40000, 60000]),
    ],
)
def test_the_axis_has_round_ticks_around_the_ratings(
    low: float, high: float, ticks: list[float]
) -> None:
    bottom, top, found = graph.axis(low, high)

    assert found == ticks and (bottom, top) == (ticks[0], ticks[-1])
    assert bottom <= low and high <= top and top - bottom >= graph.MIN_SPAN
    assert len(found) - 1 <= graph.MAX_INTERVALS


def test_the_doctests_hold() -> None:
    assert doctest.testmod(graph).failed == 0
