"""One position's verdict for the review, from plain data: what the worker processes run.

The server (games.workers.engines) sends a review as a plain mapping
(``services.AnalysisJob`` as a dict; the worker imports no Django) and a ply, and
gets the verdict on the position after that many moves back as JSON-ready data:
``{"to_move", "eval", "exact", "best", "pv"}`` (docs/api/http.md#the-review), and for Go
``"played"`` too: the value of the move that led there for its mover, from which the
server reckons its loss (``go_review``). Othello's analyser of each game is kept in the
worker process between its positions, so that the exact solver's tables serve the whole
endgame; Go's is KataGo's analysis engine where the job comes with its settings (one
query for the rest of the game, each position taken as it comes: ``katago``), else one
GTP engine process (``go_command``, GNU Go by default) that replays each game it is asked
about, told the verdict on the position before (``before``) to measure the move played.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from gamerules import setup_position, stones_by_color
from gamerules.base import Color, Move, Point
from gamerules.go import GoPosition
from gamerules.othello import OthelloPosition

from . import katago
from .gnugo import GoGame
from .go_review import GoVerdict, GtpAnalyser
from .gtp import GtpError
from .katago import KataGoSettings
from .othello.review import Analyser, Step, Verdict

__all__ = ["close", "go_game", "verdict", "verdict_json"]

KEPT = 2
"""The analysers (a game's tables each) a worker process keeps."""

_analysers: OrderedDict[str, Analyser] = OrderedDict()
_go_analysers: dict[tuple[str, ...], GtpAnalyser] = {}


def verdict(
    job: Mapping[str, Any],
    ply: int,
    *,
    go_command: Sequence[str] | None = None,
    katago: Mapping[str, Any] | None = None,
    before: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The verdict on the position of ``job``'s game after ``ply`` moves (``to_move``,
    ``verdict_json``'s keys, and ``played``: what the move that led here was worth, from
    which the service measures its loss); Go's from KataGo when ``katago`` holds its
    settings (``katago.KataGoSettings``), else from the GTP engine ``go_command`` (GNU Go
    when None), which measures ``played`` against ``before``, the verdict on the position
    before (its ``best`` and ``eval``; asked again of the engine when None).

    Raises ``ValueError`` for a kind the review does not analyse, or a Go game the
    engine refuses or answers about in words it cannot read; ``EngineError`` when the
    engine fails or is too slow (worth another try), ``OSError`` when it cannot start.
    """
    if job["kind"] == "go" and katago is not None:
        return _katago_verdict(job, ply, KataGoSettings.of(katago))
    if job["kind"] == "go":
        return _go_verdict(job, ply, go_command, before)
    if job["kind"] != "othello":
        raise ValueError(f"the review does not analyse {job['kind']!r} games")
    position = _position(job, ply)
    found = _analyser(job["game_id"], job["size"]).verdict(position)
    over = position.is_over
    # What the move that led here was worth: this position's value (Go measures it apart).
    return {
        "to_move": None if over else position.to_move.value,
        **verdict_json(found),
        "played": found.eval,
    }


def verdict_json(found: Verdict | GoVerdict) -> dict[str, Any]:
    """A verdict as the review's JSON holds it: ``eval`` (Black's side), ``exact``,
    ``best`` and ``pv`` (each move ``[r, c]`` or ``"pass"``)."""
    data = {
        "eval": found.eval,
        "exact": found.exact,
        "best": _json(found.best),
        "pv": [_json(step) for step in found.pv],
    }
    winrate = getattr(found, "winrate", None)
    if winrate is not None:
        data["winrate"] = winrate
    return data


def close() -> None:
    """Stops the Go engines this process keeps (a worker's die with it anyway)."""
    katago.close()
    while _go_analysers:
        _go_analysers.popitem()[1].close()


def _go_verdict(
    job: Mapping[str, Any],
    ply: int,
    command: Sequence[str] | None,
    before: Mapping[str, Any] | None,
) -> dict[str, Any]:
    game, position = go_game(job, ply)
    previous = None
    if before is not None and ply >= 1:
        best = before["best"]
        previous = (
            best if best is None or isinstance(best, str) else (best[0], best[1]),
            float(before["eval"]),
        )
    key = tuple(command or ())
    analyser = _go_analysers.get(key)
    if analyser is None:
        analyser = _go_analysers[key] = GtpAnalyser(command)
    over = position.is_over
    try:
        found = analyser.verdict(game, position.to_move, over=over, previous=previous)
    except GtpError as refused:
        # The engine's rules differ from ours on this game: it cannot be analysed.
        raise ValueError(str(refused)) from None
    return {
        "to_move": None if over else position.to_move.value,
        **verdict_json(found),
        "played": found.played,
    }


def _katago_verdict(job: Mapping[str, Any], ply: int, settings: KataGoSettings) -> dict[str, Any]:
    # One query for the rest of the game: the whole game, the turn asked of it.
    game, _ = go_game(job, len(job["moves"]))
    position = go_game(job, ply)[1]
    over = position.is_over
    found = katago.analyser(settings).review(game, ply, to_move=position.to_move, over=over)
    return {
        "to_move": None if over else position.to_move.value,
        **verdict_json(found),
        "played": found.played,
    }


def go_game(job: Mapping[str, Any], ply: int) -> tuple[GoGame, GoPosition]:
    """``job``'s Go game after ``ply`` moves, as GTP needs it and as the rules play it.

    Raises ``RulesError`` for a move the rules refuse.
    """
    start = job["start"]
    position = setup_position("go", job["size"], start)
    assert isinstance(position, GoPosition)
    setup = None if start is None else stones_by_color(start["rows"])
    moves: list[tuple[Color, Point | None]] = []
    for color, point in job["moves"][:ply]:
        where = None if point is None else (point[0], point[1])
        move = Move.pass_turn() if where is None else Move.place(where)
        position = position.play(move)[0]
        moves.append((Color(color), where))
    komi = job["komi"] or 0.0
    return GoGame.of(size=job["size"], komi=komi, setup=setup or None, moves=moves), position


def _position(job: Mapping[str, Any], ply: int) -> OthelloPosition:
    position = setup_position("othello", job["size"], job["start"])
    assert isinstance(position, OthelloPosition)
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
