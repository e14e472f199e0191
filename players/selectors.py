"""Reads of the players' world: a profile (its JSON too), a player's games, leaderboards.

Each read costs a fixed number of queries whatever the number of games (counted in
tests/games/test_selectors_queries.py): results by one aggregate, the rating history by one query
of the indexed RatingChange rows, the games list one page at a time.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.paginator import Page, Paginator
from django.db.models import Count, Max, Min, Q, QuerySet

from accounts import selectors as accounts
from accounts import standing
from games.models import Game, seat_q
from players import glicko2
from players.models import Rating, RatingChange

GAMES_PER_PAGE = 20
LEADERBOARD_SIZE = 100
IN_PLAY = (Game.Status.ACTIVE, Game.Status.SCORING)
RESULTS = ("won", "lost", "drawn")


def is_go(category: str) -> bool:
    return category.startswith("go")


def rating_json(rating: Rating) -> dict[str, Any]:
    """A category's entry of the profile's JSON."""
    return {
        "rating": rating.rating,
        "rd": rating.rd,
        "volatility": rating.volatility,
        "games": rating.games,
        "provisional": rating.provisional,
        "rank": glicko2.go_rank(rating.rating) if is_go(rating.category) else None,
    }


def ratings_of(user: AbstractBaseUser) -> list[Rating]:
    """The account's ratings, one per category it has played rated, by category."""
    return list(Rating.objects.filter(user=user).order_by("category"))


# A player's games are those of either seat. Each read asks once per seat, so that each
# query uses its seat's index: with "black_user = X OR white_user = X" SQLite scanned the
# whole table through the status index (0.8 s for a profile's JSON among 100,000 games).

SEATS = ("black", "white")


def _side(user: AbstractBaseUser, color: str) -> QuerySet[Game]:
    return Game.objects.filter(seat_q(color, user=user))


def results_of(user: AbstractBaseUser) -> dict[str, int]:
    """``{"won", "lost", "drawn"}``: the account's finished games, rated or not."""
    results = dict.fromkeys(RESULTS, 0)
    for color, mine, theirs in (("black", "B+", "W+"), ("white", "W+", "B+")):
        counts = (
            _side(user, color)
            .filter(status=Game.Status.FINISHED)
            .aggregate(
                won=Count("pk", filter=Q(result__startswith=mine)),
                lost=Count("pk", filter=Q(result__startswith=theirs)),
                drawn=Count("pk", filter=Q(result="Draw")),
            )
        )
        for key in RESULTS:
            results[key] += counts[key]
    return results


def _not_over(user: AbstractBaseUser) -> list[Game]:
    """The account's games waiting, active or being counted, newest first."""
    games = [
        game
        for color in SEATS
        for game in _side(user, color)
        .filter(status__in=(Game.Status.WAITING, *IN_PLAY))
        .only(
            "public_id",
            "kind",
            "size",
            "black_name",
            "white_name",
            "computer_color",
            "computer_level",
            "status",
            "rated",
            "created_at",
            "black_user_id",
            "white_user_id",
            "black_online",
            "white_online",
            # The rest of a seat (games.models.Seat reads all of it): a few small columns.
            "black_session_key",
            "white_session_key",
            "black_away_since",
            "white_away_since",
            "black_accepted",
            "white_accepted",
        )
    ]
    return sorted(games, key=lambda game: game.created_at, reverse=True)


def activity(user: AbstractBaseUser) -> tuple[list[Game], bool]:
    """The account's games being played now (active or being counted), newest first,
    and whether it is online: a socket of its is open on a seat of one of its games."""
    not_over = _not_over(user)
    seats = (seat for game in not_over for seat in game.seats)
    online = any(seat.online and seat.user_id == user.pk for seat in seats)
    return [game for game in not_over if game.status in IN_PLAY], online


def profile_json(user: AbstractBaseUser, *, viewer: Any = None) -> dict[str, Any]:
    """``GET /players/<username>.json``: username, bot, engine (marked for engine use by
    staff), closed, joined, online, ratings per category, results, the ids of the games
    being played, how many follow it; for the account itself (``viewer``), whom it
    follows (``following_json``); for a staff member, ``muted_until`` (ISO 8601, or null:
    not muted or muted for good, then ``muted_for_good``)."""
    playing, online = activity(user)
    found = {
        "username": user.get_username(),
        "bot": accounts.is_bot(user),
        "engine": standing.engine_of(user),
        "closed": not user.is_active,
        "joined": user.date_joined.isoformat(),  # type: ignore[attr-defined]
        "online": online,
        "ratings": {rating.category: rating_json(rating) for rating in ratings_of(user)},
        "results": results_of(user),
        "playing": [game.public_id for game in playing],
        "followers": accounts.follower_count(user),
    }
    if viewer is not None and viewer.pk == user.pk:
        found["following"] = following_json(user)
    if viewer is not None and viewer.is_staff:
        mute = standing.muted(user.pk)
        found["muted_until"] = mute.until_json() if mute is not None else None
        found["muted_for_good"] = mute is not None and mute.until is None
    return found


def following(user: AbstractBaseUser) -> list[dict[str, Any]]:
    """The accounts ``user`` follows, by username: each ``{"player" (the account),
    "online", "playing" (its games being played, newest first)}``."""
    rows = []
    for followed in accounts.followed_accounts(user.pk):
        playing, online = activity(followed)
        rows.append({"player": followed, "online": online, "playing": playing})
    return rows


def following_json(user: AbstractBaseUser) -> list[dict[str, Any]]:
    """``"following"`` of the account's own profile JSON: ``[{"username", "online",
    "playing": [game ids]}]``."""
    return [
        {
            "username": row["player"].get_username(),
            "online": row["online"],
            "playing": [game.public_id for game in row["playing"]],
        }
        for row in following(user)
    ]


@dataclass(frozen=True)
class History:
    """A category's rating before its first rated game (``start``: 1500 for a new
    player), the ratings after each rated game, in order, and the days of the first and
    the last of those games."""

    start: float
    ratings: list[float]
    first: datetime.datetime
    last: datetime.datetime


def history_of(user: AbstractBaseUser) -> dict[str, History]:
    """The account's rating before its first rated game that counts and after each one,
    per category, in order.

    Two queries: the ratings (numbers only: turning 5,000 dates into datetimes was most
    of a long history's cost) and each category's first and last dates."""
    counted = RatingChange.objects.filter(user=user, annulled=False)
    starts: dict[str, float] = {}
    ratings: dict[str, list[float]] = {}
    rows = counted.order_by("category", "ended_at", "pk").values_list(
        "category", "rating_before", "rating_after"
    )
    for category, before, after in rows:
        starts.setdefault(category, before)
        ratings.setdefault(category, []).append(after)
    spans = counted.values("category").annotate(first=Min("ended_at"), last=Max("ended_at"))
    return {
        span["category"]: History(
            starts[span["category"]], ratings[span["category"]], span["first"], span["last"]
        )
        for span in spans.order_by()
    }


@dataclass(frozen=True)
class GameFilters:
    """The profile's filters of the games list; None: any."""

    kind: str | None = None
    size: int | None = None
    rated: bool | None = None
    result: str | None = None

    @classmethod
    def parse(cls, query: Any) -> GameFilters:
        """The filters from a query dict; a value that is not a choice is ignored."""
        kind = query.get("kind")
        size = query.get("size", "")
        rated = query.get("rated")
        result = query.get("result")
        return cls(
            kind=kind if kind in Game.Kind.values else None,
            size=int(size) if size.isdigit() and len(size) <= 2 else None,
            rated={"1": True, "0": False}.get(rated or ""),
            result=result if result in RESULTS else None,
        )


def _filtered(games: QuerySet[Game], color: str, filters: GameFilters) -> QuerySet[Game]:
    """One seat's games (``games``, the account's as ``color``) narrowed by ``filters``."""
    if filters.kind is not None:
        games = games.filter(kind=filters.kind)
    if filters.size is not None:
        games = games.filter(size=filters.size)
    if filters.rated is not None:
        games = games.filter(rated=filters.rated)
    mine, theirs = ("B+", "W+") if color == "black" else ("W+", "B+")
    if filters.result == "won":
        games = games.filter(result__startswith=mine)
    elif filters.result == "lost":
        games = games.filter(result__startswith=theirs)
    elif filters.result == "drawn":
        games = games.filter(result="Draw")
    # Not the games called off before anyone joined.
    return games.exclude(status=Game.Status.ABORTED, finished_at__isnull=True)


class _BothSeats:
    """The account's games of both seats, newest first, as a sequence Paginator can
    slice: a count is one COUNT a seat, a page asks each seat only for its newest games up
    to the page's end (each on its seat's index) and merges them."""

    def __init__(self, user: AbstractBaseUser, filters: GameFilters) -> None:
        self.sides = [_filtered(_side(user, color), color, filters) for color in SEATS]

    def count(self) -> int:
        return sum(side.count() for side in self.sides)

    def __getitem__(self, window: slice) -> list[int]:
        newest = [
            key
            for side in self.sides
            for key in side.order_by("-created_at", "-pk").values_list("created_at", "pk")[
                : window.stop
            ]
        ]
        return [pk for _, pk in sorted(newest, reverse=True)[window]]


def games_page(user: AbstractBaseUser, filters: GameFilters, number: object) -> Page[Game]:
    """One page of the account's games (``filters`` applied), newest first, each game
    with ``my_change``: the account's rating change in it (None for a game that moved no
    rating of theirs). A fixed number of queries whatever the number of games."""
    page = Paginator(_BothSeats(user, filters), GAMES_PER_PAGE).get_page(number)  # type: ignore[arg-type]
    ids = list(page.object_list)
    found = (
        Game.objects.filter(pk__in=ids)
        .select_related("black_user", "white_user")
        .defer("snapshot", "start", "territory", "score_detail", "dead")
        .in_bulk()
    )
    games = [found[pk] for pk in ids if pk in found]
    changes = dict(
        RatingChange.objects.filter(user=user, annulled=False, game__in=ids).values_list(
            "game_id", "change"
        )
    )
    for game in games:
        game.my_change = changes.get(game.pk)  # type: ignore[attr-defined]
    page.object_list = games
    return page


def categories() -> list[str]:
    """Every category someone holds a rating in, in order."""
    return list(Rating.objects.order_by("category").values_list("category", flat=True).distinct())


def leaderboard(category: str, *, bots: bool = False) -> list[Rating]:
    """The best ``LEADERBOARD_SIZE`` non-provisional ratings of ``category``, best first:
    the people's, or with ``bots`` the bots' (kept apart, as lichess does); never an
    account marked for engine use or closed (``accounts.standing.in_good_standing``)."""
    return list(
        Rating.objects.filter(
            accounts.bot_filter("user", bots=bots),
            standing.in_good_standing("user"),
            category=category,
            rd__lte=glicko2.PROVISIONAL_RD,
        )
        .select_related("user")
        .order_by("-rating", "pk")[:LEADERBOARD_SIZE]
    )


def leaderboards() -> dict[bool, list[tuple[str, list[Rating]]]]:
    """Every category's leaderboard that has someone in it, in the categories' order: the
    people's (``False``) and the bots' (``True``), one query a board."""
    categories_now = categories()
    boards: dict[bool, list[tuple[str, list[Rating]]]] = {}
    for bots in (False, True):
        found = [(category, leaderboard(category, bots=bots)) for category in categories_now]
        boards[bots] = [(category, rows) for category, rows in found if rows]
    return boards


def leaderboard_json(category: str, *, bots: bool = False) -> dict[str, Any]:
    """``GET /players/top.json?category=C`` (``&bots=1``: the bots' board)."""
    return {
        "category": category,
        "players": [
            {
                "username": rating.user.get_username(),
                "rating": rating.rating,
                "rd": rating.rd,
                "games": rating.games,
            }
            for rating in leaderboard(category, bots=bots)
        ],
    }
