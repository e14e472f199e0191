"""players.graph: the rating history as SVG, dots on every game up to a point."""

from __future__ import annotations

import datetime

from players import graph

START = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


def points(count: int) -> list[tuple[datetime.datetime, float]]:
    return [(START + datetime.timedelta(days=n), 1500.0 + 10 * n) for n in range(count)]


def test_no_history_draws_nothing() -> None:
    assert graph.rating_graph([], label="x") == ""


def test_one_game_is_one_dot_in_the_middle() -> None:
    svg = graph.rating_graph(points(1), label="ann's othello8-blitz rating")
    assert svg.count("<circle") == 1
    assert 'aria-label="ann&#x27;s othello8-blitz rating"' in svg
    assert "2026-01-01" in svg


def test_a_long_history_draws_the_line_and_only_the_last_dot() -> None:
    svg = graph.rating_graph(points(500), label="x")
    assert svg.count("<circle") == 1
    assert svg.count(",") >= 500  # every game a point of the line
    assert ">1500<" in svg and ">6490<" in svg  # the lowest and highest ratings


def test_the_line_rises_with_the_rating() -> None:
    svg = graph.rating_graph(points(3), label="x")
    line = svg.split('points="')[1].split('"')[0]
    heights = [float(pair.split(",")[1]) for pair in line.split()]
    assert heights == sorted(heights, reverse=True)  # SVG's y grows downwards
