"""The engines' review of a finished game (docs/api/http.md#the-review): requests, claims, results.

A request (``request_analysis``) queues a finished game once; the engines' worker
processes (games.workers.engines) claim queued reviews with ``claim_analyses``, behind the
moves the computer owes, and hand back one position's verdict at a time
(``store_verdict``). A claim is a lease (``worker``, ``lease_until``) renewed by every
stored position: no other process takes the review while it holds, and once a killed
process's lease runs out another one claims it and goes on from the last stored
position. A verdict is stored only by the lease holder and only for the next position,
so each position is stored once. Every stored position is broadcast to the game's
group as ``{"type": "analysis", "status", "progress"}``.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.conf import settings as django_settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

import gamerules as rules
from gameengine.gnugo import gnugo_command
from gameengine.othello.review import EXACT_EMPTIES
from gameengine.review import annotate, judgement, move_loss
from gamerules.base import Color
from games import selectors, signals
from games.models import Analysis, Game, Move
from games.realtime import events
from games.services.after_commit import on_commit
from games.services.errors import GameError, said
from games.services.fields import check_point_shape, is_int, on_board
from games.services.leases import claim_leased
from games.services.lock import locked

__all__ = [
    "ENGINES",
    "LEASE",
    "AnalysisJob",
    "Exploration",
    "NotFinished",
    "analysis_json",
    "claim_analyses",
    "explore",
    "go_command",
    "release_analysis",
    "request_analysis",
    "review_accuracy",
    "sgf_comments",
    "store_verdict",
]

ENGINES = {"othello": "Engine (review: exact at 14 empties)", "go": "GNU Go 3.8"}
"""The engine named in a review (Go's, when ``REVIEW_GO_COMMAND`` names another, is that
program's name)."""


def engine_words() -> dict[str, str]:
    """The engines named in reviews as the pages say them, by their stored names (which
    ``analysis.json`` keeps): the Othello engine's in the reader's words, "our Othello
    engine: perfect play over the last 14 squares". A program goes by its own name."""
    words = gettext("our Othello engine: perfect play over the last %(empties)s squares")
    return {ENGINES["othello"]: words % {"empties": EXACT_EMPTIES}}


LEASE = datetime.timedelta(seconds=120)
"""How long a claim holds without a stored position: longer than any one position takes."""


class NotFinished(Exception):
    """The game is not finished (or has nothing to review): 409."""


@dataclass(frozen=True)
class AnalysisJob:
    """What a worker needs to analyse the positions of a game from ``next_ply`` on.

    ``moves`` are the game's moves as ``(colour, point or None)`` (passes included),
    ``start`` its start snapshot when it is not the usual one.
    """

    game_id: str
    kind: str
    size: int
    komi: float | None
    start: dict[str, Any] | None
    moves: list[tuple[str, tuple[int, int] | None]]
    next_ply: int
    total: int
    before: dict[str, Any] | None = None
    """The last stored position's verdict (``eval``, ``best``): GNU Go's review measures
    the next move against it."""


def _played(game: Game) -> list[Move]:
    return list(game.moves.filter(action__in=[Move.Action.PLACE, Move.Action.PASS]))


@transaction.atomic
def request_analysis(*, game_id: str) -> Analysis:
    """The review of ``game_id``, queued now unless it was already (then unchanged; a
    failed one is queued again, keeping what it stored). Raises ``NotFinished`` for a
    game not finished, ``GameError("bad_request")`` for no game."""
    game = locked(game_id)
    if game.status != Game.Status.FINISHED:
        raise NotFinished(
            gettext("the game is %(status)s: only a finished game is analysed")
            % {"status": game.get_status_display().lower()}
        )
    analysis = Analysis.objects.filter(game=game).first()
    if analysis is None:
        analysis = Analysis.objects.create(
            game=game, engine=_engine_name(str(game.kind)), total=len(_played(game)) + 1
        )
        on_commit(lambda: events.broadcast_analysis(game, analysis.status, analysis.progress))
    elif analysis.status == Analysis.Status.FAILED:
        analysis.status = Analysis.Status.QUEUED
        analysis.save(update_fields=["status"])
    return analysis


def go_command() -> list[str]:
    """The GTP engine that reviews Go games: ``REVIEW_GO_COMMAND`` (a command line) when
    set, else GNU Go at ``GNUGO_PATH``."""
    return list(settings.REVIEW_GO_COMMAND) or gnugo_command(settings.GNUGO_PATH)


def _engine_name(kind: str) -> str:
    if kind == "go" and settings.KATAGO is not None:
        visits = settings.KATAGO["review_visits"]
        return f"KataGo ({visits} visit{'' if visits == 1 else 's'} a position)"
    if kind == "go" and settings.REVIEW_GO_COMMAND:
        return str(settings.REVIEW_GO_COMMAND[0]).rsplit("/", 1)[-1]
    return ENGINES[kind]


def analysis_json(game_id: str) -> dict[str, Any] | None:
    """``GET /games/<id>/analysis.json``: None before any request. The stored positions
    gain what each move meant for its mover, and the players their summary
    (``gameengine.review.annotate``)."""
    analysis = Analysis.objects.filter(game__public_id=game_id).select_related("game").first()
    if analysis is None:
        return None
    game = analysis.game
    plies, summary = annotate(
        analysis.plies, _choices(game), kind=str(game.kind), size=game.size, words=translation
    )
    return {
        "status": analysis.status,
        "progress": analysis.progress,
        "engine": analysis.engine,
        "plies": plies,
        "summary": summary,
    }


def review_accuracy(analysis: Analysis) -> dict[str, int | None]:
    """Each colour's accuracy in the review ``analysis`` (0..100; None before any move of
    theirs is analysed): the figure of analysis.json's summary."""
    game = analysis.game
    _, summary = annotate(analysis.plies, _choices(game), kind=str(game.kind), size=game.size)
    return {color: summary[color]["accuracy"] for color in summary}


def _choices(game: Game) -> list[tuple[Color, rules.Point | None]]:
    """The game's placements and passes, as the review's ``annotate`` takes them."""
    return [
        (Color(move.color), None if move.row is None else (move.row, move.col))
        for move in _played(game)
    ]


def sgf_comments(game: Game) -> dict[int, str]:
    """The review as lines for the SGF record's ``C[]``, by the number of moves played
    before each (an empty dict before any analysis): each move's eval, loss and
    judgement, and the best move the engine preferred there."""
    analysis = Analysis.objects.filter(game=game).first()
    if analysis is None:
        return {}
    position = selectors.start_position(str(game.kind), game.size)
    unit = "discs" if game.kind == Game.Kind.OTHELLO else "points"
    lines = {}
    plies = analysis.plies
    for entry in plies[1:]:
        before = plies[entry["ply"] - 1]
        best = before["best"]
        named = "pass" if best == "pass" else position.format_point((best[0], best[1]))
        value = entry["eval"]
        verdict = "perfect play" if entry["exact"] else "engine"
        words = [f"Review: {'B' if value >= 0 else 'W'}+{abs(value)} ({verdict})"]
        words.append(f"loss {entry['loss']} {unit}")
        if entry["judgement"]:
            words.append(entry["judgement"])
        if best is not None:
            words.append(f"best {named}")
        lines[entry["ply"]] = "; ".join(words)
    return lines


EXPLORE_SECONDS = 0.3
"""The engine's time for one explored position's midgame search."""
EXPLORE_EXACT = 10
"""Explored positions with this many empties or fewer are solved (well under a second)."""
EXPLORE_MOVES = 60
"""The most moves tried from one position of the game in one request."""
EXPLORE_GO_LEVEL = 5
"""GNU Go's level for an explored Go position's best move (a review's is 10)."""
EXPLORE_GO_SECONDS = 8.0
"""Seconds the engine may take on an explored Go position, all its commands together
(under 1 s on 9x9 here, 2.5 to 8 s on crowded 19x19 boards: the line is cut short)."""
EXPLORE_GO_LINE = 4
"""The moves of an explored Go position's line."""
EXPLORE_KATAGO_SECONDS = 20.0
"""Seconds KataGo may take on an explored Go position (about 0.3 s on 9x9, 1.2 s on
19x19 at one visit, but starting KataGo takes 3 s, 14 s with pocl's cache cold)."""


@dataclass(frozen=True)
class Exploration:
    """An explored position: ``answer``, the JSON of ``explore.json`` without the
    engine's verdict, and ``job``, the engine's work on it (``gameengine.explore``'s
    plain mapping; None when no engine is asked), which ``games.workers.engines`` runs
    in a worker process and whose verdict joins the answer."""

    answer: dict[str, Any]
    job: dict[str, Any] | None


def explore(*, game_id: str, ply: object, moves: object, engine: object = False) -> Exploration:
    """``POST /games/<id>/explore.json``: the position after the game's first ``ply``
    moves and then ``moves`` (each ``[r, c]`` or ``"pass"``), as the rules play them.

    Its ``answer`` is ``{"ply", "board", "to_move", "legal", "over", "diffs"}`` (one
    diff per tried move: ``color``, ``point``, ``flipped`` or ``captured``); its ``job``
    asks the engine's verdict (``eval`` from Black's side, ``exact``, ``best``, ``pv``,
    or ``engine_error``): for Othello always, for Go when ``engine`` is true (GTP's
    answer takes a second or more).
    Raises ``NotFinished`` for a game not finished (no engine help in play),
    ``GameError("bad_request")`` for a malformed request or no game and
    ``GameError("illegal_move")`` (the message says which move and why)."""
    game = Game.objects.filter(public_id=game_id).first() if isinstance(game_id, str) else None
    if game is None:
        raise GameError(
            "bad_request", gettext("there is no game %(game_id)s") % {"game_id": repr(game_id)}
        )
    if game.status != Game.Status.FINISHED:
        raise NotFinished(gettext("moves are explored once the game is finished"))
    played = _played(game)
    if not is_int(ply) or not 0 <= ply <= len(played):  # type: ignore[operator]
        raise GameError(
            "bad_request",
            gettext("ply must be an integer from 0 to %(count)s") % {"count": len(played)},
        )
    if not isinstance(moves, list) or len(moves) > EXPLORE_MOVES:
        raise GameError(
            "bad_request",
            gettext("moves must be a list of at most %(explore_moves)s")
            % {"explore_moves": EXPLORE_MOVES},
        )
    if not isinstance(engine, bool):
        raise GameError("bad_request", gettext("engine must be true or false"))
    position = rules.setup_position(str(game.kind), game.size, game.start)
    line: list[tuple[rules.Color, rules.Point | None]] = []
    for move in played[: int(ply)]:  # type: ignore[call-overload]
        point = None if move.row is None else (move.row, move.col)
        stored = rules.Move.pass_turn() if point is None else rules.Move.place(point)
        line.append((rules.Color(move.color), point))
        position = position.play(stored)[0]
    diffs = []
    for index, tried in enumerate(moves):
        if tried == "pass":
            move = rules.Move.pass_turn()
        else:
            check_point_shape(tried)
            move = rules.Move.place(on_board(game, tried))
        try:
            position, diff = position.play(move)
        except rules.RulesError as error:
            raise GameError(
                "illegal_move",
                gettext("move %(number)s: %(error)s") % {"number": index + 1, "error": said(error)},
            ) from None
        line.append((diff.color, diff.point))
        diffs.append(
            {
                "color": diff.color.value,
                "point": None if diff.point is None else list(diff.point),
                "flipped": [list(point) for point in diff.flipped],
                "captured": [list(point) for point in diff.captured],
            }
        )
    over = position.is_over
    found: dict[str, Any] = {
        "ply": ply,
        "board": position.rows(),
        "to_move": None if over else position.to_move.value,
        "legal": [list(point) for point in position.legal_moves()],
        "over": over,
        "diffs": diffs,
    }
    asked = isinstance(position, rules.OthelloPosition) or engine
    return Exploration(found, _explore_job(game, line) if asked else None)


def _explore_job(game: Game, line: list[tuple[rules.Color, rules.Point | None]]) -> dict[str, Any]:
    """The engine's job on the position ``line`` reaches (``gameengine.explore``)."""
    settings: dict[str, Any]
    if game.kind == Game.Kind.OTHELLO:
        settings = {"seconds": EXPLORE_SECONDS, "exact_empties": EXPLORE_EXACT}
    elif django_settings.KATAGO is not None:
        settings = {"katago": django_settings.KATAGO, "seconds": EXPLORE_KATAGO_SECONDS}
    else:
        settings = {
            "command": go_command(),
            "level": EXPLORE_GO_LEVEL,
            "seconds": EXPLORE_GO_SECONDS,
            "line": EXPLORE_GO_LINE,
        }
    return {
        "kind": str(game.kind),
        "size": game.size,
        "komi": game.komi,
        "start": game.start,
        "moves": [(color.value, None if point is None else list(point)) for color, point in line],
        "settings": settings,
    }


def claim_analyses(
    *, process: str, limit: int, now: datetime.datetime | None = None
) -> list[AnalysisJob]:
    """Up to ``limit`` reviews no process holds (queued, or whose lease ran out), oldest
    request first, each now held by ``process``."""
    analyses = claim_leased(
        Analysis.objects.select_related("game").order_by("requested_at"),
        process=process,
        limit=limit,
        now=now or timezone.now(),
        lease=LEASE,
    )
    jobs = []
    for analysis in analyses:
        jobs.append(_job(analysis))
        game = analysis.game
        on_commit(
            lambda game=game, a=analysis: events.broadcast_analysis(game, a.status, a.progress)
        )
    return jobs


def _job(analysis: Analysis) -> AnalysisJob:
    game = analysis.game
    moves = [
        (str(move.color), None if move.row is None else (move.row, move.col))
        for move in _played(game)
    ]
    return AnalysisJob(
        game_id=game.public_id,
        kind=str(game.kind),
        size=game.size,
        komi=game.komi,
        start=game.start,
        moves=moves,
        next_ply=len(analysis.plies),
        total=analysis.total,
        before={key: analysis.plies[-1][key] for key in ("eval", "best")}
        if analysis.plies
        else None,
    )


@transaction.atomic
def store_verdict(
    *,
    game_id: str,
    process: str,
    ply: int,
    verdict: dict[str, Any],
    now: datetime.datetime | None = None,
) -> bool:
    """Store ``verdict`` (``to_move``, ``eval``, ``exact``, ``best``, ``pv``) on the
    position after move ``ply``, with the move's loss and judgement (from ``played``, what
    the move that led here was worth: not stored). True if stored;
    False when ``process`` no longer holds the review or that position is stored
    already (nothing changes then)."""
    now = now or timezone.now()
    analysis = (
        Analysis.objects.select_for_update().select_related("game").get(game__public_id=game_id)
    )
    if analysis.worker != process or analysis.status != Analysis.Status.RUNNING:
        return False
    if ply != len(analysis.plies):
        return False
    game = analysis.game
    entry = {"ply": ply, **{key: value for key, value in verdict.items() if key != "played"}}
    if ply >= 1:
        move = game.moves.filter(action__in=[Move.Action.PLACE, Move.Action.PASS])[ply - 1]
        entry.update(_cost(analysis.plies[ply - 1], verdict["played"], move, game))
    analysis.plies = [*analysis.plies, entry]
    analysis.lease_until = now + LEASE
    if len(analysis.plies) >= analysis.total:
        analysis.status = Analysis.Status.DONE
        analysis.worker = ""
        analysis.lease_until = None
        analysis.finished_at = now
    analysis.save()
    if analysis.status == Analysis.Status.DONE:
        signals.review_done.send(sender=Analysis, analysis=analysis)
    status, progress = analysis.status, analysis.progress
    on_commit(lambda: events.broadcast_analysis(game, status, progress))
    return True


def _cost(before: dict[str, Any], after: float, move: Move, game: Game) -> dict[str, Any]:
    """The loss and judgement of ``move``, between the verdict ``before`` it and the value
    ``after`` it of the move played (Othello: the next position's eval; Go: ``played``)."""
    played = "pass" if move.row is None else [move.row, move.col]
    automatic = game.kind == Game.Kind.OTHELLO and played == "pass"
    if played == before["best"]:
        loss: float = 0
    else:
        loss = move_loss(
            best=before["eval"], played=after, mover=Color(move.color), automatic=automatic
        )
    loss = round(loss, 1)
    return {"loss": loss, "judgement": judgement(loss, kind=str(game.kind), size=game.size)}


@transaction.atomic
def release_analysis(*, game_id: str, process: str, failed: bool = False) -> None:
    """``process`` gives up its claim on ``game_id``'s review: claimed again at the next
    tick, or marked failed (``failed``: the engine cannot analyse it)."""
    analysis = (
        Analysis.objects.select_for_update()
        .select_related("game")
        .filter(game__public_id=game_id, worker=process)
        .first()
    )
    if analysis is None:
        return
    analysis.worker = ""
    analysis.lease_until = None
    if failed:
        analysis.status = Analysis.Status.FAILED
    analysis.save(update_fields=["worker", "lease_until", "status"])
    game, status, progress = analysis.game, analysis.status, analysis.progress
    on_commit(lambda: events.broadcast_analysis(game, status, progress))
