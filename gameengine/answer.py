"""One answer of the computer, from plain data: what the server's engine processes run.

The server (games.workers.engines) sends a turn as a plain mapping (``services.Turn`` as a
dict: it crosses into a worker process, which imports no Django) and gets a plain
mapping back: ``{"point": [r, c]}``, ``{"point": None}`` (a pass), ``{"point":
"resign"}``, or for Go's count ``{"dead": [[r, c], ...]}``. Othello is this project's
engine (``othello.choose_move``); Go's moves are KataGo's when the turn comes with its
settings (``katago``: level 10 its search, the levels below a choice from its network's
policy, ``katago_levels``), else GNU Go's (``gnugo``); a KataGo that fails hands the move
to GNU Go.
The dead stones are GNU Go's, which fall back on the rules' own guess when it takes too
long (it can take a minute on a big open board).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from typing import Any

from gamerules import go
from gamerules.base import Color, Point
from gamerules.go import GoPosition
from gamerules.othello import OthelloPosition

from . import gnugo, katago, katago_levels
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
    """KataGo's answer at the turn's level (``katago_levels``), None when KataGo failed
    (GNU Go answers)."""
    level = turn["level"]
    if level not in gnugo.LEVELS:
        raise ValueError(f"the level is 1 to 10, not {level!r}")
    # The reviews' queries in flight stop: the computer's move has the cores.
    katago.stop_reviews()
    game = gnugo.GoGame.of(**common)
    color = Color(turn["color"])
    player = katago.player(settings)
    try:
        if level == max(gnugo.LEVELS):
            move = player.choose_move(game, color, visits=settings.top_visits)
        else:
            policy = player.policy(game, color)
            playable = katago_levels.candidates(GoPosition.from_snapshot(turn["snapshot"]))
            rng = rng or random.Random()
            move = katago_levels.pick(level, playable, policy.points, policy.passing, rng)
    except (EngineError, GtpError, OSError) as error:
        logger.warning("KataGo did not answer (%s): GNU Go plays this move", error)
        return None
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
