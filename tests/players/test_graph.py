"""players.graph: the rating history as SVG, dots on every game up to a point."""

from __future__ import annotations

import datetime

from players import graph

FIRST = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
LAST = datetime.datetime(2026, 3, 1, tzinfo=datetime.UTC)


def draw(count: int, label: str = "x") -> str:
    ratings = [1500.0 + 10 * n for n in range(count)]
    return graph.rating_graph(ratings, first=FIRST, last=LAST, label=label)


def test_no_history_draws_nothing() -> None:
    assert draw(0) == ""


def test_one_game_is_one_dot_and_its_days() -> None:
    svg = draw(1, label="ann's othello8-blitz rating")
    assert svg.count("<circle") == 1
    assert 'aria-label="ann&#x27;s othello8-blitz rating"' in svg
    assert ">2026-01-01<" in svg and ">2026-03-01<" in svg


def test_a_long_history_is_thinned_and_keeps_the_last_game() -> None:
    svg = draw(5000)
    line = svg.split('points="')[1].split('"')[0].split()
    assert len(line) <= graph.POINTS + 1
    assert line[-1].startswith(f"{graph.WIDTH - graph.RIGHT:.1f},")  # the last game
    assert svg.count("<circle") == 1  # only the last dot
    assert ">1500<" in svg and ">51490<" in svg  # the lowest and highest ratings


def test_the_line_rises_with_the_rating() -> None:
    svg = draw(3)
    line = svg.split('points="')[1].split('"')[0]
    heights = [float(pair.split(",")[1]) for pair in line.split()]
    assert heights == sorted(heights, reverse=True)  # SVG's y grows downwards
