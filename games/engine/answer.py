"""One answer of the computer, from plain data: what the server's engine processes run.

The server (games.workers.engines) sends a turn as a plain mapping (``services.Turn`` as a
dict: it crosses into a worker process, which imports no Django) and gets a plain
mapping back: ``{"point": [r, c]}``, ``{"point": None}`` (a pass), ``{"point":
"resign"}``, or for Go's count ``{"dead": [[r, c], ...]}``. Othello is this project's
engine (``othello.choose_move``); Go's moves are KataGo's when the turn comes with its
settings (``katago``: the level's visits, and the weaker levels' share of random moves of
``gnugo.STRENGTH``), else GNU Go's (``gnugo``); a KataGo that fails hands the move to GNU Go.
The dead stones are GNU Go's, which fall back on the rules' own guess when it takes too
long (it can take a minute on a big open board).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from typing import Any

from games.rules import go
from games.rules.base import Color, Point
from games.rules.go import GoPosition
from games.rules.othello import OthelloPosition

from . import gnugo, katago
from .gtp import EngineError, GtpError
from .othello import choose_move as choose_othello_move

logger = logging.getLogger(__name__)

DEAD_STONES_TIME_LIMIT = 10.0


def answer(
    turn: Mapping[str, Any],
    *,
    gnugo_path: str = gnugo.GNUGO_PATH,
    katago_settings: Mapping[str, Any] | None = None,
    rng: random.Random | None = None,
) -> dict[str, Any]:
    """The computer's answer to ``turn`` (keys of ``games.services.Turn``); Go's moves from
    KataGo when ``katago_settings`` are given (``katago.KataGoSettings``)."""
    if turn["kind"] == "othello":
        position = OthelloPosition.from_snapshot(turn["snapshot"])
        point = choose_othello_move(position, level=turn["level"])
        return {"point": None if point is None else list(point)}
    setup = _setup(turn)
    moves = [(Color(color), _point(point)) for color, point in turn["moves"]]
    common = {"size": turn["size"], "komi": turn["komi"] or 0.0, "setup": setup, "moves": moves}
    if turn["task"] == "count":
        return {"dead": sorted(list(point) for point in _dead_stones(turn, common, gnugo_path))}
    if katago_settings is not None:
        found = _katago_move(turn, common, katago.KataGoSettings.of(katago_settings), rng)
        if found is not None:
            return found
    move = gnugo.choose_move(
        **common, to_move=Color(turn["color"]), level=turn["level"], path=gnugo_path
    )
    return {"point": move if move is None or move == "resign" else list(move)}


def _katago_move(
    turn: Mapping[str, Any],
    common: dict[str, Any],
    settings: katago.KataGoSettings,
    rng: random.Random | None,
) -> dict[str, Any] | None:
    """KataGo's answer at the turn's level, None when KataGo failed (GNU Go answers)."""
    level = turn["level"]
    if level not in gnugo.LEVELS:
        raise ValueError(f"the level is 1 to 10, not {level!r}")
    # The reviews' queries in flight stop: the computer's move has the cores.
    katago.stop_reviews()
    game = gnugo.GoGame.of(**common)
    try:
        move = katago.player(settings).choose_move(
            game, Color(turn["color"]), visits=settings.level_visits[level - 1]
        )
    except (EngineError, GtpError, OSError) as error:
        logger.warning("KataGo did not answer (%s): GNU Go plays this move", error)
        return None
    if move is not None and move != "resign":
        roll = (rng or random.Random()).random() < gnugo.STRENGTH[level].random_share
        if roll:
            wild = _random_point(GoPosition.from_snapshot(turn["snapshot"]), rng)
            move = wild if wild is not None else move
    return {"point": move if move is None or move == "resign" else list(move)}


def _random_point(position: GoPosition, rng: random.Random | None) -> Point | None:
    """A legal point for the side to move that does not fill one of its own eyes (every
    neighbour its stone), uniformly; None when there is none."""
    color = position.to_move
    size = position.size
    candidates = []
    for row, col in position.legal_moves():
        around = [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]
        on_board = [p for p in around if 0 <= p[0] < size and 0 <= p[1] < size]
        if not all(position.stone_at(p) is color for p in on_board):
            candidates.append((row, col))
    return (rng or random.Random()).choice(candidates) if candidates else None


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
