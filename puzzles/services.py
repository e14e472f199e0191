"""The puzzles' use cases (docs/api/http.md, "Puzzles"), each one transaction: mining a finished
game (its positions replayed and tried by puzzles.mining outside any transaction, the
puzzles found stored in one), answering a puzzle (both ratings moved by the players'
Glicko-2 calculator), and the background mining's queue and its leases (as the reviews':
games.services.analysis)."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

import gamerules as rules
from accounts.refusals import Refusal
from games.models import Analysis, Game, Move
from games.services.leases import claim_leased
from games.workers.engines import IdleWork
from players import glicko2
from puzzles.mining import go_parts, go_turns, mine_job
from puzzles.models import Mining, Puzzle, PuzzleAttempt, PuzzleRating

LEASE = datetime.timedelta(minutes=30)
"""How long a process holds a game's mining before another may take it over: a Go game's
asks KataGo up to ``mining.GO_MOST`` positions at 32 visits (minutes on 19x19)."""


class PuzzleError(
    Refusal,
    codes={"bad_request": 400, "not_found": 404},
):
    """A request refused: ``bad_request`` (400, naming the field at fault) or
    ``not_found`` (404)."""


# Mining


def position_key(rows: list[str], to_play: str) -> str:
    """The string that tells one puzzle's position from another's: the rows joined by
    ``/``, then the side to play's letter."""
    return "/".join(rows) + " " + to_play[0]


def mining_job(game: Game) -> dict[str, Any]:
    """What ``puzzles.mining.mine_job`` needs of ``game``, as plain data: a Go game's
    has its komi, its moves' colours, the positions to ask (``mining.go_turns`` of its
    KataGo review; none without one) and KataGo's settings (None where it is not
    installed: the game gives no puzzle)."""
    played = game.moves.filter(action__in=[Move.Action.PLACE, Move.Action.PASS]).order_by("ply")
    job: dict[str, Any] = {
        "game_id": game.pk,
        "kind": str(game.kind),
        "size": game.size,
        "start": game.start,
        "moves": [
            [move.ply, None if move.row is None else [move.row, move.col]] for move in played
        ],
    }
    if game.kind == Game.Kind.GO:
        review = Analysis.objects.filter(game=game).filter(katago_reviewed()).first()
        job["komi"] = game.komi
        job["moves"] = [
            [ply, str(move.color), point]
            for (ply, point), move in zip(job["moves"], played, strict=True)
        ]
        job["turns"] = [] if review is None else go_turns(review.plies)
        job["katago"] = settings.KATAGO
    return job


def katago_reviewed(prefix: str = "") -> Q:
    """The reviews (``prefix``: the path to them, ``"analysis__"`` from a game) done
    by KataGo: the Go games whose positions are mined."""
    return Q(**{f"{prefix}status": Analysis.Status.DONE, f"{prefix}engine__startswith": "KataGo"})


def minable() -> Q:
    """The finished games that can give puzzles (from ``Game``): Othello's, and where
    KataGo is installed the Go games it reviewed."""
    found = Q(kind=Game.Kind.OTHELLO)
    if settings.KATAGO is not None:
        found |= Q(kind=Game.Kind.GO) & katago_reviewed("analysis__")
    return Q(status=Game.Status.FINISHED) & found


def _store(game_id: int, found: list[dict[str, Any]]) -> int:
    """Store ``found`` (puzzles of the game ``game_id``) that are not stored yet; how many
    were new. Inside the caller's transaction."""
    kind, size = Game.objects.values_list("kind", "size").get(pk=game_id)
    return store_found(kind=kind, size=size, found=found, game_id=game_id)


def store_found(
    *, kind: str, size: int, found: list[dict[str, Any]], game_id: int | None = None
) -> int:
    """Store the puzzles ``found`` (as ``puzzles.mining.mine_job`` gives them) of ``kind``
    and ``size`` that are not stored yet, from the game ``game_id`` (None: the engine's
    self-play, stored nowhere); how many were new."""
    made = 0
    for entry in found:
        key = position_key(entry["rows"], entry["to_play"])
        if Puzzle.objects.filter(kind=kind, position=key).exists():
            continue
        try:
            with transaction.atomic():
                Puzzle.objects.create(
                    kind=kind,
                    size=size,
                    position=key,
                    rows=entry["rows"],
                    to_play=entry["to_play"],
                    solution_row=entry["solution"][0],
                    solution_col=entry["solution"][1],
                    value=entry["value"],
                    game_id=game_id,
                    ply=entry["ply"],
                )
        except IntegrityError:
            continue  # stored meanwhile by another process
        made += 1
    return made


def mine_game(*, game_id: int) -> int:
    """Mine the finished game ``game_id`` now (the solver runs in this process, outside any
    transaction) and store its new puzzles in one transaction; how many were new. A game
    that is not finished gives none."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None:
        return 0
    found = mine_job(mining_job(game))
    with transaction.atomic():
        made = _store(game_id, found)
        Mining.objects.update_or_create(
            game_id=game_id,
            defaults={
                "status": Mining.Status.DONE,
                "worker": "",
                "lease_until": None,
                "finished_at": timezone.now(),
                "found": made,
            },
        )
    return made


def game_finished(sender: object, *, game: Game, **kwargs: Any) -> None:
    """The receiver of ``games.signals.game_finished``: queue an Othello game's mining,
    inside the transaction that ends it, unless ``PUZZLE_MINING`` is off."""
    if settings.PUZZLE_MINING and game.kind == Game.Kind.OTHELLO:
        Mining.objects.get_or_create(game=game)


def review_done(sender: object, *, analysis: Analysis, **kwargs: Any) -> None:
    """The receiver of ``games.signals.review_done``: queue the mining of a Go game that
    KataGo reviewed, inside the transaction that ends the review, where KataGo is
    installed and unless ``PUZZLE_MINING`` is off."""
    game = analysis.game
    if not (settings.PUZZLE_MINING and settings.KATAGO is not None):
        return
    if game.kind == Game.Kind.GO and analysis.engine.startswith("KataGo"):
        Mining.objects.get_or_create(game=game)


def claim_minings(
    *, process: str, limit: int, now: datetime.datetime | None = None
) -> list[dict[str, Any]]:
    """Up to ``limit`` games to mine that no process holds (queued, or whose lease ran
    out), oldest first, each now held by ``process``; each as ``mining_job`` makes it.
    None while ``PUZZLE_MINING`` is off."""
    if not settings.PUZZLE_MINING:
        return []
    minings = claim_leased(
        Mining.objects.select_related("game").order_by("requested_at"),
        process=process,
        limit=limit,
        now=now or timezone.now(),
        lease=LEASE,
    )
    return [mining_job(mining.game) for mining in minings]


@transaction.atomic
def store_mined(*, job: dict[str, Any], process: str, found: list[dict[str, Any]]) -> bool:
    """Store the puzzles ``found`` in ``job``'s game and mark its mining done; False (and
    nothing stored) when ``process`` no longer holds it."""
    mining = Mining.objects.select_for_update().filter(game_id=job["game_id"]).first()
    if mining is None or mining.worker != process or mining.status != Mining.Status.RUNNING:
        return False
    mining.found = _store(job["game_id"], found)
    mining.status = Mining.Status.DONE
    mining.worker = ""
    mining.lease_until = None
    mining.finished_at = timezone.now()
    mining.save()
    return True


@transaction.atomic
def release_mining(*, job: dict[str, Any], process: str, failed: bool = False) -> None:
    """``process`` gives up ``job``'s mining: claimed again at a later tick, or marked
    failed (``failed``: the rules cannot replay the game)."""
    Mining.objects.filter(game_id=job["game_id"], worker=process).update(
        status=Mining.Status.FAILED if failed else Mining.Status.QUEUED,
        worker="",
        lease_until=None,
    )


# Solving


def parse_point(point: object, size: int) -> tuple[int, int]:
    """``point`` as ``[row, col]`` (JSON) or ``"row,col"`` (a form's field) on a ``size``
    board. Raises PuzzleError("bad_request", field "point") otherwise."""
    if isinstance(point, str):
        try:
            point = json.loads(f"[{point}]")
        except ValueError:
            point = None
    shaped = (
        isinstance(point, list | tuple)
        and len(point) == 2
        and all(isinstance(part, int) and not isinstance(part, bool) for part in point)
    )
    if not shaped:
        raise PuzzleError(
            "bad_request", gettext("point must be [row, col], two integers"), field="point"
        )
    row, col = point  # type: ignore[misc]
    if not (0 <= row < size and 0 <= col < size):
        raise PuzzleError(
            "bad_request",
            gettext("[%(row)s, %(col)s] is off the %(size)sx%(size)s board")
            % {"row": row, "col": col, "size": size},
            field="point",
        )
    return row, col


@dataclass(frozen=True)
class Answer:
    """What answering a puzzle told: whether it was right, the solution, the exact value
    (Othello), the ratings after (``player``: None for a guest) and whether it counted."""

    puzzle: Puzzle
    correct: bool
    counted: bool
    player: float | None

    def json(self) -> dict[str, Any]:
        puzzle = self.puzzle
        value = None if puzzle.value is None else round(puzzle.value)
        return {
            "correct": self.correct,
            "solution": list(puzzle.solution),
            "value": value if puzzle.kind == Puzzle.Kind.OTHELLO else puzzle.value,
            "rating": {
                "puzzle": round(puzzle.rating),
                "player": None if self.player is None else round(self.player),
            },
            "game": None
            if puzzle.game is None
            else {"id": puzzle.game.public_id, "ply": puzzle.ply},
        }


def _legal(puzzle: Puzzle, point: tuple[int, int]) -> bool:
    """Whether ``point`` is a legal move of the side to play in ``puzzle``."""
    position = rules.setup_position(
        puzzle.kind, puzzle.size, {"rows": puzzle.rows, "to_move": puzzle.to_play}
    )
    return point in position.legal_moves()


@transaction.atomic
def answer(*, puzzle_id: object, account_id: int | None, point: object) -> Answer:
    """Answer the puzzle ``puzzle_id`` with ``point``. An account's first answer to a
    puzzle moves both puzzle ratings (Glicko-2: the player won when right) and counts a
    play; its later answers, and a guest's, move nothing. Raises PuzzleError: 404
    ``not_found`` for no such puzzle, 400 ``bad_request`` naming ``point`` for a point
    malformed, off the board or not a legal move."""
    try:
        puzzle = (
            Puzzle.objects.select_for_update(of=("self",))
            .select_related("game")
            .get(pk=int(str(puzzle_id)))
        )
    except (Puzzle.DoesNotExist, ValueError):
        raise PuzzleError("not_found", gettext("there is no such puzzle")) from None
    where = parse_point(point, puzzle.size)
    if not _legal(puzzle, where):
        raise PuzzleError(
            "bad_request",
            gettext("[%(row)s, %(col)s] is not a legal move here")
            % {"row": where[0], "col": where[1]},
            field="point",
        )
    correct = where == puzzle.solution
    if account_id is None:
        return Answer(puzzle, correct, False, None)
    rating, _ = PuzzleRating.objects.select_for_update().get_or_create(account_id=account_id)
    if PuzzleAttempt.objects.filter(account_id=account_id, puzzle=puzzle).exists():
        return Answer(puzzle, correct, False, rating.rating)
    score = 1.0 if correct else 0.0
    player_after = glicko2.rate_game(rating.glicko, puzzle.glicko, score)
    puzzle_after = glicko2.rate_game(puzzle.glicko, rating.glicko, 1.0 - score)
    rating.rating, rating.rd, rating.volatility = (
        player_after.rating,
        player_after.rd,
        player_after.volatility,
    )
    rating.attempts += 1
    rating.solved += int(correct)
    rating.save()
    puzzle.rating, puzzle.rd, puzzle.volatility = (
        puzzle_after.rating,
        puzzle_after.rd,
        puzzle_after.volatility,
    )
    puzzle.plays += 1
    puzzle.save(update_fields=["rating", "rd", "volatility", "plays"])
    PuzzleAttempt.objects.create(
        account_id=account_id, puzzle=puzzle, correct=correct, rating_after=rating.rating
    )
    return Answer(puzzle, correct, True, rating.rating)


MINING = IdleWork(
    name="puzzles",
    claim=claim_minings,
    compute=mine_job,
    store=store_mined,
    release=release_mining,
    parts=go_parts,
)
"""The background mining as the engines' idle work: after the turns, the explores and the
reviews, never with the last free engine (games.workers.engines); a Go game's in KataGo's
lane, one position at a time."""
