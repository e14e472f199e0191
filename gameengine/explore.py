"""An explored position's verdict, from plain data: what the engines' worker processes run
for ``explore.json`` (docs/api/http.md#post-gamesidexplorejson).

The server (``games.services.explore`` builds the job, ``games.workers.engines`` runs it)
sends a job as a plain mapping, which crosses into a worker process that imports no
Django:

- ``kind`` (``"othello"``, ``"go"``), ``size``, ``komi`` (Go's, or None);
- the position, as the game reached it: ``start`` (the game's start snapshot, None for
  the usual one) and ``moves``, every move from there as ``(colour, [r, c] or None)``
  (passes included): the same shape as a review's job (``services.AnalysisJob``), so
  that an engine replaying a game (GTP) gets its ko and captures right;
- ``settings``: the engine's, and ``seconds``, its time (Othello: ``seconds`` of
  midgame search, solved exactly at ``exact_empties`` or fewer; Go: the GTP engine
  ``command``, its ``level``, ``seconds`` for its questions once the game is replayed,
  and a ``line`` of that many moves).

It answers the verdict as the review's JSON holds it (``eval`` from Black's side,
``exact``, ``best``, ``pv``: ``analysis.verdict_json``), or ``{"engine_error": why}``
when the engine failed or took too long. Go's engine is KataGo when the settings carry
``katago`` (``katago.KataGoSettings`` as a mapping): its analysis engine at the review's
visits, kept in the worker process between questions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamerules import setup_position
from gamerules.base import Move
from gamerules.othello import OthelloPosition

from . import katago
from .analysis import go_game, verdict_json
from .go_review import GtpAnalyser
from .gtp import EngineError, GtpError
from .othello.review import Analyser

__all__ = ["explore"]


def explore(job: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's verdict on the position ``job`` describes (see the module), or
    ``{"engine_error"}``."""
    if job["kind"] == "othello":
        return _othello(job)
    if job["kind"] == "go":
        return _go(job)
    return {"engine_error": f"no engine explores {job['kind']!r} positions"}


def _othello(job: Mapping[str, Any]) -> dict[str, Any]:
    position = setup_position("othello", job["size"], job["start"])
    assert isinstance(position, OthelloPosition)
    for _, point in job["moves"]:
        move = Move.pass_turn() if point is None else Move.place((point[0], point[1]))
        position = position.play(move)[0]
    settings = job["settings"]
    analyser = Analyser(
        job["size"], seconds=settings["seconds"], exact_empties=settings["exact_empties"]
    )
    return verdict_json(analyser.verdict(position))


def _go(job: Mapping[str, Any]) -> dict[str, Any]:
    game, position = go_game(job, len(job["moves"]))
    settings = job["settings"]
    if settings.get("katago") is not None:
        return _katago(job, settings["katago"])
    analyser = GtpAnalyser(
        settings["command"],
        level=settings["level"],
        budget=settings["seconds"],
        line=settings["line"],
    )
    try:
        with analyser:
            found = analyser.verdict(game, position.to_move, over=position.is_over)
    except (EngineError, GtpError, OSError, ValueError) as error:
        return {"engine_error": str(error)}
    return verdict_json(found)


def _katago(job: Mapping[str, Any], settings: Mapping[str, Any]) -> dict[str, Any]:
    """KataGo's verdict (its analysis engine, kept in the worker between questions)."""
    game, position = go_game(job, len(job["moves"]))
    # A review's query in flight stops: it is asked again when the review goes on.
    katago.stop_reviews()
    try:
        found = katago.analyser(katago.KataGoSettings.of(settings)).verdict(
            game, position.to_move, over=position.is_over
        )
    except (EngineError, OSError, ValueError) as error:
        return {"engine_error": str(error)}
    return verdict_json(found)
