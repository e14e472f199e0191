"""One position's verdict for the review, from plain data: what the worker processes run.

The server (games.computer) sends a review as a plain mapping
(``services.AnalysisJob`` as a dict; the worker imports no Django) and a ply, and
gets the verdict on the position after that many moves back as JSON-ready data:
``{"to_move", "eval", "exact", "best", "pv"}`` (DESIGN.md, "Review"). The analyser
of each game is kept in the worker process between its positions, so that the exact
solver's tables serve the whole endgame.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from games.rules.base import Color, Move
from games.rules.othello import OthelloPosition

from .othello.review import Analyser, Step

__all__ = ["verdict"]

KEPT = 2
"""The analysers (a game's tables each) a worker process keeps."""

_analysers: OrderedDict[str, Analyser] = OrderedDict()


def verdict(job: Mapping[str, Any], ply: int) -> dict[str, Any]:
    """The verdict on the position of ``job``'s game after ``ply`` moves.

    Raises ``ValueError`` for a kind the review does not analyse.
    """
    if job["kind"] != "othello":
        raise ValueError(f"the review does not analyse {job['kind']!r} games")
    position = _position(job, ply)
    found = _analyser(job["game_id"], job["size"]).verdict(position)
    over = position.is_over
    return {
        "to_move": None if over else position.to_move.value,
        "eval": found.eval,
        "exact": found.exact,
        "best": _json(found.best),
        "pv": [_json(step) for step in found.pv],
    }


def _position(job: Mapping[str, Any], ply: int) -> OthelloPosition:
    start = job["start"]
    # An imported setup (``Game.start``): rows and the side to move.
    position = (
        OthelloPosition.start(job["size"])
        if start is None
        else OthelloPosition.from_rows(start["rows"], Color(start["to_move"]))
    )
    for _, point in job["moves"][:ply]:
        move = Move.pass_turn() if point is None else Move.place((point[0], point[1]))
        position = position.play(move)[0]
    return position


def _analyser(game_id: str, size: int) -> Analyser:
    kept = _analysers.get(game_id)
    if kept is None:
        kept = _analysers[game_id] = Analyser(size)
        while len(_analysers) > KEPT:
            _analysers.popitem(last=False)
    _analysers.move_to_end(game_id)
    return kept


def _json(step: Step | None) -> list[int] | str | None:
    if step is None or isinstance(step, str):
        return step
    return [step[0], step[1]]
