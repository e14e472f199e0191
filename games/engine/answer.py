"""One answer of the computer, from plain data: what the server's engine processes run.

The server (games.workers.engines) sends a turn as a plain mapping (``services.Turn`` as a
dict: it crosses into a worker process, which imports no Django) and gets a plain
mapping back: ``{"point": [r, c]}``, ``{"point": None}`` (a pass), ``{"point":
"resign"}``, or for Go's count ``{"dead": [[r, c], ...]}``. Othello is this project's
engine (``othello.choose_move``); Go is GNU Go (``gnugo``), whose dead stones fall back on
the rules' own guess when it takes too long (it can take a minute on a big open board).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from games.rules import go
from games.rules.base import Color, Point
from games.rules.go import GoPosition
from games.rules.othello import OthelloPosition

from . import gnugo
from .gtp import EngineError
from .othello import choose_move as choose_othello_move

logger = logging.getLogger(__name__)

DEAD_STONES_TIME_LIMIT = 10.0


def answer(turn: Mapping[str, Any], *, gnugo_path: str = gnugo.GNUGO_PATH) -> dict[str, Any]:
    """The computer's answer to ``turn`` (keys of ``games.services.Turn``)."""
    if turn["kind"] == "othello":
        position = OthelloPosition.from_snapshot(turn["snapshot"])
        point = choose_othello_move(position, level=turn["level"])
        return {"point": None if point is None else list(point)}
    setup = _setup(turn)
    moves = [(Color(color), _point(point)) for color, point in turn["moves"]]
    common = {"size": turn["size"], "komi": turn["komi"] or 0.0, "setup": setup, "moves": moves}
    if turn["task"] == "count":
        return {"dead": sorted(list(point) for point in _dead_stones(turn, common, gnugo_path))}
    move = gnugo.choose_move(
        **common, to_move=Color(turn["color"]), level=turn["level"], path=gnugo_path
    )
    return {"point": move if move is None or move == "resign" else list(move)}


def _dead_stones(turn: Mapping[str, Any], common: dict[str, Any], path: str) -> set[Point]:
    try:
        return gnugo.dead_stones(**common, time_limit=DEAD_STONES_TIME_LIMIT, path=path)
    except EngineError as error:
        logger.warning("GNU Go did not tell the dead stones (%s): the rules' guess", error)
        position = GoPosition.from_snapshot(turn["snapshot"])
        return set(go.estimate_dead(position))


def _setup(turn: Mapping[str, Any]) -> dict[Color, list[Point]] | None:
    if turn["setup"] is None:
        return None
    return {
        Color(color): [(row, col) for row, col in points] for color, points in turn["setup"].items()
    }


def _point(point: Any) -> Point | None:
    return None if point is None else (point[0], point[1])
