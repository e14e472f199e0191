"""The puzzles' reads: a puzzle as the API shows it, the next puzzle for a player, the
puzzle of the day, an account's puzzle rating and history."""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.core.cache import cache
from django.db.models import Exists, Max, Min, OuterRef
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy

import gamerules as rules
from games import board_svg
from players import glicko2
from puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating
from puzzles.services import Answer

NEAR = 8
"""The next puzzle is drawn from this many unanswered puzzles nearest the player's
rating (either side)."""
COLOR_NAMES = {"black": gettext_lazy("Black"), "white": gettext_lazy("White")}
DAY_SECONDS = 24 * 3600
HISTORY = 20
"""The answers a profile lists."""


def legal_points(puzzle: Puzzle) -> list[list[int]]:
    """The points the side to play may choose in ``puzzle``."""
    position = rules.setup_position(
        puzzle.kind, puzzle.size, {"rows": puzzle.rows, "to_move": puzzle.to_play}
    )
    return [list(point) for point in position.legal_moves()]


def puzzle_data(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle as ``next.json`` answers it (and the page draws it): ``legal`` added to
    the contract's keys, so the board marks the moves as a game's does."""
    return {
        "id": puzzle.pk,
        "kind": puzzle.kind,
        "size": puzzle.size,
        "to_play": puzzle.to_play,
        "board": puzzle.rows,
        "rating": round(puzzle.rating),
        "plays": puzzle.plays,
        "legal": legal_points(puzzle),
    }


def player_rating(account_id: int | None) -> glicko2.Rating:
    """The puzzle rating of ``account_id`` (a guest's, None: a new player's)."""
    if account_id is not None:
        found = PuzzleRating.objects.filter(account_id=account_id).first()
        if found is not None:
            return found.glicko
    return glicko2.NEW_PLAYER


def shown_rating(account_id: int | None) -> int | None:
    """The puzzle rating the page shows: None for a guest."""
    return None if account_id is None else round(player_rating(account_id).rating)


def next_puzzle(
    *, kind: str, account_id: int | None, rng: random.Random | None = None
) -> Puzzle | None:
    """A puzzle of ``kind`` near the player's puzzle rating (a guest's: 1500) that the
    account has not answered: one of the ``NEAR`` nearest either side, at random; None
    when there is none. Two index range scans, however many puzzles are stored."""
    rating = player_rating(account_id).rating
    puzzles = Puzzle.objects.filter(kind=kind)
    if account_id is not None:
        answered = PuzzleAttempt.objects.filter(account_id=account_id, puzzle=OuterRef("pk"))
        puzzles = puzzles.filter(~Exists(answered))
    above = list(puzzles.filter(rating__gte=rating).order_by("rating")[:NEAR])
    below = list(puzzles.filter(rating__lt=rating).order_by("-rating")[:NEAR])
    nearest = sorted(above + below, key=lambda puzzle: abs(puzzle.rating - rating))[:NEAR]
    if not nearest:
        return None
    return (rng or random).choice(nearest)


def puzzle_of_the_day(today: datetime.date | None = None) -> Puzzle | None:
    """The day's Othello puzzle, the same for everyone all day: drawn by the date among
    the stored ones (an index seek, not a count), then kept for the day in the cache
    that the processes share; None when there are none."""
    today = today or timezone.localdate()
    key = f"puzzles:daily:{today.isoformat()}"
    kept = cache.get(key)
    if kept is not None:
        puzzle = Puzzle.objects.filter(pk=kept).first()
        if puzzle is not None:
            return puzzle
    othello = Puzzle.objects.filter(kind=Puzzle.Kind.OTHELLO)
    bounds = othello.aggregate(low=Min("pk"), high=Max("pk"))
    if bounds["low"] is None:
        return None
    drawn = random.Random(today.toordinal()).randint(bounds["low"], bounds["high"])
    puzzle = othello.filter(pk__gte=drawn).order_by("pk").first()
    assert puzzle is not None
    cache.set(key, puzzle.pk, DAY_SECONDS)
    return puzzle


def daily_part() -> dict[str, Any] | None:
    """What the home page shows of the puzzle of the day: the puzzle and its board as a
    picture; None when there is no puzzle."""
    puzzle = puzzle_of_the_day()
    if puzzle is None:
        return None
    label = gettext("The puzzle of the day: %(color)s to play") % {
        "color": COLOR_NAMES[puzzle.to_play]
    }
    picture = board_svg.draw(
        kind=puzzle.kind, size=puzzle.size, rows=puzzle.rows, label=label, ident="daily-puzzle"
    )
    return {"puzzle": puzzle, "picture": mark_safe(picture), "label": label}


def history(account_id: int) -> list[PuzzleAttempt]:
    """The account's last ``HISTORY`` answers, newest first, with their puzzles."""
    return list(
        PuzzleAttempt.objects.filter(account_id=account_id).select_related("puzzle__game")[:HISTORY]
    )


def profile_part(account_id: int) -> dict[str, Any] | None:
    """What a profile shows of an account's puzzles: its rating, how many it answered and
    solved, its last answers; None when it never answered one."""
    rating = PuzzleRating.objects.filter(account_id=account_id).first()
    if rating is None or not rating.attempts:
        return None
    return {
        "rating": round(rating.rating),
        "provisional": rating.glicko.provisional,
        "attempts": rating.attempts,
        "solved": rating.solved,
        "history": history(account_id),
    }


def answered_context(told: Answer) -> dict[str, Any]:
    """The page telling an answer given by a form (no script)."""
    puzzle = told.puzzle
    position = rules.setup_position(
        puzzle.kind, puzzle.size, {"rows": puzzle.rows, "to_move": puzzle.to_play}
    )
    return {
        "answer": told.json(),
        "puzzle": puzzle,
        "solution": position.format_point(puzzle.solution),
    }
