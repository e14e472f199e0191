"""The ratings' use cases: a rated game's end, G's ``ratings``, annulling, recomputing.

Where it sits: above the games app, which never imports it. ``PlayersConfig.ready``
connects ``rate_on_finish`` to ``games.signals.game_finished``, which
``games.services.ending.finish`` (the one step every way of ending a game goes through)
sends inside the transaction that ends the game; ``game_ratings`` is G's ``ratings``
(``live.state`` puts it in G).

Locks: the game's row is locked by its service; the two players' Rating rows are then
locked in the order of their ids, so two games of one player ending at once are applied
one after the other, both counted, and no two endings wait for each other in a circle.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from gamerules.clock import TimeControl
from games.models import Game, Move
from players import glicko2
from players.models import Rating, RatingChange

COLORS = ("black", "white")
MIN_PLY = 2
"""A rated game whose ``ply`` is under this when it ends moves no rating."""
DAY_SECONDS = 86_400.0


def category_of(game: Game) -> str | None:
    """The rating category of ``game``, None without a clock."""
    if game.time_control is None:
        return None
    control = tuple(sorted(game.time_control.items()))
    return _category(str(game.kind), game.size, control)


@functools.lru_cache(maxsize=256)
def _category(kind: str, size: int, control: tuple[tuple[str, Any], ...]) -> str:
    return glicko2.category(kind, size, TimeControl.from_json(dict(control)))


def black_score(result: str) -> float:
    """Black's score for ``result``: 1 for ``B+...``, 0 for ``W+...``, 0.5 for a draw."""
    return {"B": 1.0, "W": 0.0}.get(result[:1], 0.5)


def counts(game: Game) -> bool:
    """Whether ``game``, finished, moves ratings: rated, between two accounts, with a
    clock, and each side has made a move of its own (``glicko2.both_sides_moved``: a
    resignation, a timeout or a forfeit is not one). Reads the first two moves."""
    if not (
        game.rated
        and game.black_user_id is not None
        and game.white_user_id is not None
        and game.time_control is not None
        and game.ply >= MIN_PLY
    ):
        return False
    first = Move.objects.filter(game=game, ply__lte=MIN_PLY).order_by("ply")
    return glicko2.both_sides_moved(list(first.values_list("action", flat=True)))


def _first_move_played(ply: int) -> Exists:
    """A filter of games: the move at ``ply`` is a move its side made itself."""
    return Exists(Move.objects.filter(game=OuterRef("pk"), ply=ply, action__in=glicko2.PLAYED))


def rate_on_finish(sender: Any, *, game: Game, **kwargs: Any) -> None:
    """``games.signals.game_finished``'s receiver: ``rate_finished_game(game)``."""
    rate_finished_game(game)


def rate_finished_game(game: Game) -> list[RatingChange]:
    """Both players' ratings moved by ``game``, which has just finished (its row locked,
    inside the transaction that ends it); the two RatingChange rows stored, and kept on
    ``game`` so that the broadcast's G reads them without a query. Nothing for a game
    that does not count (``counts``)."""
    if not counts(game):
        return []
    category = category_of(game)
    assert category is not None and game.finished_at is not None
    users = {seat.color: seat.user_id for seat in game.seats}
    ratings = _locked_ratings(users.values(), category)
    # The end is stamped again once the ratings are locked: of two games of one player
    # ending at once, the one rated second then also ended second, so that the history
    # (and a recompute, which replays games by their end) applies them in the same order.
    game.finished_at = max(game.finished_at, timezone.now())
    seats = {color: ratings[user_id] for color, user_id in users.items()}
    outcomes = _rate(result=game.result, ratings=seats, ended_at=game.finished_at)
    _store_ratings(ratings.values())
    changes = [
        outcome.row(game_id=game.pk, category=category, ended_at=game.finished_at)
        for outcome in outcomes
    ]
    RatingChange.objects.bulk_create(changes)
    for change in changes:  # what G shows of each: the username (the raw query's)
        change.username = seats[change.color].username  # type: ignore[attr-defined]
    game._rating_changes = changes  # type: ignore[attr-defined]
    return changes


RATING_FIELDS = ("rating", "rd", "volatility", "games", "last_played_at")


def _store_ratings(ratings: Iterable[Rating]) -> None:
    """One UPDATE statement for the rows: the ORM's bulk_update builds a CASE per field,
    which cost a game's end more than everything else it does."""
    table = Rating._meta.db_table
    quote = connection.ops.quote_name
    columns = ", ".join(f"{quote(field)} = %s" for field in RATING_FIELDS)
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {quote(table)} SET {columns} WHERE {quote('id')} = %s",
            [
                (
                    rating.rating,
                    rating.rd,
                    rating.volatility,
                    rating.games,
                    adapt(rating.last_played_at),
                    rating.pk,
                )
                for rating in ratings
            ],
        )


def _locked_ratings(user_ids: Iterable[int], category: str) -> dict[int, Rating]:
    """The Rating rows of ``user_ids`` in ``category`` with their accounts' usernames,
    created at the new player's values when missing, locked until the transaction ends
    (in the order of their ids)."""
    ids = sorted(set(user_ids))
    found = _lock(ids, category)
    if len(found) == len(ids):
        return found
    # Two transactions creating one player's first rating: the second waits for the
    # first's row and then leaves it (no IntegrityError), and locks it below.
    Rating.objects.bulk_create(
        [Rating(user_id=user_id, category=category) for user_id in ids if user_id not in found],
        ignore_conflicts=True,
    )
    return _lock(ids, category)


def _lock(ids: list[int], category: str) -> dict[int, Rating]:
    # A raw query (the ORM's compiler took half of a rated ending's extra cost): the
    # rows, each with its account's username, locked on PostgreSQL (SQLite's immediate
    # transaction already holds the database's write lock).
    quote = connection.ops.quote_name
    rating, user = quote(Rating._meta.db_table), quote(get_user_model()._meta.db_table)
    lock = f" FOR UPDATE OF {rating}" if connection.features.has_select_for_update else ""
    rows = Rating.objects.raw(
        f"SELECT {rating}.*, {user}.{quote('username')} AS username FROM {rating} "
        f"JOIN {user} ON {user}.{quote('id')} = {rating}.{quote('user_id')} "
        f"WHERE {rating}.{quote('category')} = %s AND {rating}.{quote('user_id')} IN "
        f"({', '.join(['%s'] * len(ids))}) ORDER BY {rating}.{quote('user_id')}{lock}",
        [category, *ids],
    )
    return {row.user_id: row for row in rows}


@dataclass(frozen=True)
class Outcome:
    """What one game did to one player's rating (RD ``before`` grown with inactivity)."""

    color: str
    user_id: int
    before: glicko2.Rating
    after: glicko2.Rating

    def row(self, *, game_id: int, category: str, ended_at: datetime.datetime) -> RatingChange:
        """The (unsaved) RatingChange row of this outcome."""
        return RatingChange(
            game_id=game_id,
            user_id=self.user_id,
            color=self.color,
            category=category,
            ended_at=ended_at,
            **dict(zip(CHANGE_VALUES, self.values(), strict=True)),
        )

    def values(self) -> tuple[float, ...]:
        """The values of CHANGE_VALUES."""
        before, after = self.before, self.after
        return (
            before.rating,
            before.rd,
            before.volatility,
            after.rating,
            after.rd,
            after.volatility,
            after.rating - before.rating,
        )


CHANGE_VALUES = (
    "rating_before",
    "rd_before",
    "volatility_before",
    "rating_after",
    "rd_after",
    "volatility_after",
    "change",
)


def _rate(*, result: str, ratings: dict[str, Rating], ended_at: datetime.datetime) -> list[Outcome]:
    """Apply a game's ``result`` to both seats' ``ratings`` (changed in place, unsaved)."""
    before = {
        color: glicko2.after_inactivity(rating.value, _days_since(rating, ended_at))
        for color, rating in ratings.items()
    }
    scores = {"black": black_score(result), "white": 1.0 - black_score(result)}
    outcomes = []
    for color, opponent in (("black", "white"), ("white", "black")):
        after = glicko2.rate_game(before[color], before[opponent], scores[color])
        rating = ratings[color]
        rating.rating, rating.rd, rating.volatility = after.rating, after.rd, after.volatility
        rating.games += 1
        rating.last_played_at = ended_at
        outcomes.append(Outcome(color, rating.user_id, before[color], after))
    return outcomes


def _days_since(rating: Rating, now: datetime.datetime) -> float:
    if rating.last_played_at is None:
        return 0.0
    return max(0.0, (now - rating.last_played_at).total_seconds() / DAY_SECONDS)


# G's ratings


def game_ratings(game: Game) -> dict[str, Any] | None:
    """G's ``ratings``: None for a casual game, else ``{"category", "black": P,
    "white": P}``, P = ``{"username", "rating" (before the game), "rd", "provisional",
    "change" (None until the game's ratings change)}``; P is None for a free seat.
    Costs no query for a casual game, two for a rated one in play, one once it has
    moved the ratings."""
    category = category_of(game)
    if not game.rated or category is None:
        return None
    changes = {change.color: change for change in getattr(game, "_rating_changes", ())}
    if not changes and game.status == Game.Status.FINISHED:
        stored = RatingChange.objects.filter(game=game, annulled=False).select_related("user")
        changes = {change.color: change for change in stored}
    if changes:
        return {"category": category, **{c: _change_json(changes.get(c)) for c in COLORS}}
    users = {seat.color: seat.user_id for seat in game.seats}
    rows = {
        row["pk"]: row
        for row in get_user_model()
        .objects.filter(pk__in=[user_id for user_id in users.values() if user_id is not None])
        .values("pk", "username")
    }
    ratings = {
        rating.user_id: rating
        for rating in Rating.objects.filter(user_id__in=rows, category=category)
    }
    return {
        "category": category,
        **{
            color: None
            if user_id not in rows
            else _current_json(rows[user_id]["username"], ratings.get(user_id))
            for color, user_id in users.items()
        },
    }


def _change_json(change: RatingChange | None) -> dict[str, Any] | None:
    if change is None:
        return None
    return {
        "username": getattr(change, "username", None) or change.user.get_username(),
        "rating": change.rating_before,
        "rd": change.rd_before,
        "provisional": glicko2.Rating(
            change.rating_before, change.rd_before, change.volatility_before
        ).provisional,
        "change": change.change,
    }


def _current_json(username: str, rating: Rating | None) -> dict[str, Any]:
    value = rating.value if rating is not None else glicko2.NEW_PLAYER
    return {
        "username": username,
        "rating": value.rating,
        "rd": value.rd,
        "provisional": value.provisional,
        "change": None,
    }


# Annulling and recomputing


@transaction.atomic
def annul(*, games: Iterable[Game]) -> int:
    """The rating changes of ``games`` annulled (cheating): the games stay, their changes
    no longer count, and every rating of their categories is recomputed (later games
    included). Returns the number of games whose changes were annulled."""
    ids = [game.pk for game in games]
    pending = RatingChange.objects.filter(game_id__in=ids, annulled=False)
    touched = set(pending.values_list("game_id", flat=True))
    categories = set(pending.values_list("category", flat=True))
    pending.update(annulled=True)
    if touched:
        recompute(categories=categories)
    return len(touched)


@transaction.atomic
def recompute(*, categories: Iterable[str] | None = None) -> int:
    """Every rating (of ``categories``, default all) rebuilt from the rated games that
    count (``counts``) in the order they ended, those whose changes were annulled left
    out: each game's RatingChange rows rewritten (or written, when missing), each Rating
    row set as the last game left it. Only the rows whose values differ are written, so
    on an untouched database nothing changes. Returns the number of games replayed."""
    wanted = None if categories is None else set(categories)
    annulled = set(
        RatingChange.objects.filter(annulled=True).values_list("game_id", flat=True).distinct()
    )
    stored_changes = RatingChange.objects.filter(annulled=False)
    stored_ratings = Rating.objects.select_for_update()
    if wanted is not None:
        stored_changes = stored_changes.filter(category__in=wanted)
        stored_ratings = stored_ratings.filter(category__in=wanted)
    fields = ("game_id", "user_id", "category", "ended_at", *CHANGE_VALUES, "pk")
    before = {(row[0], row[1]): row for row in stored_changes.values_list(*fields)}
    current: dict[tuple[int, str], Rating] = {}
    kept_ratings: dict[int, tuple[Any, ...]] = {}
    for rating in stored_ratings:
        kept_ratings[rating.pk] = _rating_row(rating)
        current[rating.user_id, rating.category] = rating
        new = glicko2.NEW_PLAYER
        rating.rating, rating.rd, rating.volatility = new.rating, new.rd, new.volatility
        rating.games, rating.last_played_at = 0, None
    changed: list[RatingChange] = []
    seen: set[tuple[int, int]] = set()
    replayed = 0
    for game_id, kind, size, control, result, black, white, ended_at in _rated_games():
        category = _category(kind, size, tuple(sorted(control.items())))
        if game_id in annulled or (wanted is not None and category not in wanted):
            continue
        seats = {}
        for color, user_id in (("black", black), ("white", white)):
            rating = current.get((user_id, category))
            if rating is None:
                rating = current[user_id, category] = Rating(user_id=user_id, category=category)
            seats[color] = rating
        for outcome in _rate(result=result, ratings=seats, ended_at=ended_at):
            key = (game_id, outcome.user_id)
            seen.add(key)
            old = before.get(key)
            if old is None or old[2:-1] != (category, ended_at, *outcome.values()):
                row = outcome.row(game_id=game_id, category=category, ended_at=ended_at)
                row.pk = None if old is None else old[-1]
                changed.append(row)
        replayed += 1
    stale = [row[-1] for key, row in before.items() if key not in seen]
    _replace(RatingChange, changed, stale)
    _replace(
        Rating,
        [
            rating
            for rating in current.values()
            if rating.pk is None or kept_ratings[rating.pk] != _rating_row(rating)
        ],
        [],
    )
    return replayed


def _rating_row(rating: Rating) -> tuple[Any, ...]:
    return tuple(getattr(rating, field) for field in RATING_FIELDS)


BATCH = 500


def _replace(model: type[Rating] | type[RatingChange], rows: list[Any], gone: list[int]) -> None:
    """Write ``rows`` (new ones inserted, changed ones replaced under their own ids) and
    delete the rows ``gone``: a delete and an insert cost what the rows do, where
    bulk_update's CASE over a batch grows with the batch's square."""
    existing = [row.pk for row in rows if row.pk is not None] + gone
    for start in range(0, len(existing), BATCH):
        model.objects.filter(pk__in=existing[start : start + BATCH]).delete()
    model.objects.bulk_create(rows, batch_size=BATCH)


def _rated_games() -> Iterable[tuple[Any, ...]]:
    """The finished games that count (``counts``: the same rule, as a query), in the
    order they ended: id, kind,
    size, time control, result, Black's and White's accounts, when it ended."""
    return (
        Game.objects.filter(
            _first_move_played(1),
            _first_move_played(2),
            rated=True,
            status=Game.Status.FINISHED,
            black_user__isnull=False,
            white_user__isnull=False,
            time_control__isnull=False,
        )
        .order_by("finished_at", "pk")
        .values_list(
            "pk",
            "kind",
            "size",
            "time_control",
            "result",
            "black_user_id",
            "white_user_id",
            "finished_at",
        )
        .iterator(chunk_size=2000)
    )
