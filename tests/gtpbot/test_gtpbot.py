"""gtpbot's pure parts: points and vertices, clocks in GTP, what a bot accepts
(``coords``), and the command line (``python -m gtpbot``; ``python -m games.gtpbot`` is
its old name). The bridge against a real server is tests/bots/test_bridge.py's."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import gtpbot
from gtpbot import coords
from gtpbot.__main__ import parse

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("module", [gtpbot, coords], ids=lambda module: module.__name__)
def test_the_examples_in_the_docstrings_hold(module: Any) -> None:
    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize(
    ("point", "kind", "size", "top", "vertex"),
    [
        ((0, 0), "go", 19, True, "A19"),
        ((18, 18), "go", 19, True, "T1"),
        ((4, 8), "go", 9, True, "J5"),
        ((0, 0), "othello", 8, True, "a1"),
        ((0, 0), "othello", 8, False, "a8"),
        ((9, 9), "othello", 10, True, "j10"),
    ],
)
def test_points_and_vertices(
    point: tuple[int, int], kind: str, size: int, top: bool, vertex: str
) -> None:
    assert coords.to_vertex(point, kind=kind, size=size, top_row_one=top) == vertex
    assert coords.to_point(vertex, kind=kind, size=size, top_row_one=top) == point
    assert coords.to_point(vertex.upper(), kind=kind, size=size, top_row_one=top) == point


@pytest.mark.parametrize("vertex", ["Z1", "A0", "A20", "", "I5x"])
def test_a_vertex_off_the_board_is_refused(vertex: str) -> None:
    with pytest.raises(ValueError):
        coords.to_point(vertex, kind="go", size=19)


@pytest.mark.parametrize(
    ("clock", "settings", "left"),
    [
        (None, None, None),
        ({"system": "correspondence", "days": 3}, None, None),
        (
            {"system": "byoyomi", "main_time": 300, "period_time": 30, "periods": 5},
            "time_settings 300 30 1",
            "time_left black 12 1",
        ),
        (
            {"system": "canadian", "main_time": 60, "period_time": 300, "stones": 10},
            "time_settings 60 300 10",
            "time_left black 12 4",
        ),
        ({"system": "fischer", "main_time": 180, "increment": 2}, "time_settings 180 0 0", None),
    ],
)
def test_clocks_in_gtp(clock: Any, settings: str | None, left: str | None) -> None:
    assert coords.time_settings(clock) == settings
    if clock is not None and settings is not None:
        side = {"remaining_ms": 12_500, "overtime": left is not None, "stones": 4}
        expected = left or "time_left black 12 0"
        assert coords.time_left({**clock, "black": side}, "black") == expected


def test_what_a_bot_supports() -> None:
    options: dict[str, Any] = {"kinds": ["go"], "sizes": [9, 19], "clocks": ["none"]}
    assert coords.supported({"kind": "go", "size": 9, "clock": None}, **options) is None
    assert coords.supported({"kind": "othello", "size": 8}, **options) == "kind othello not played"
    fischer = {"kind": "go", "size": 9, "clock": {"system": "fischer"}}
    assert coords.supported(fischer, **options) == "clock fischer not played"


def test_the_command_line() -> None:
    config = parse(["--url", "http://h:1", "--token", "T", "--sizes", "9,19", "--", "e", "-x"])
    assert config.engine == ["e", "-x"] and config.sizes == [9, 19]
    assert config.kinds == ["othello", "go"] and config.ws_base == "ws://h:1"


@pytest.mark.parametrize("name", ["gtpbot", "games.gtpbot"])
def test_the_command_and_its_old_name_run(name: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", name, "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: python -m gtpbot ")
