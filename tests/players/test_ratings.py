"""players.ratings through the games' services: rated or casual at creation, every way a
game ends moving both ratings once (in the transaction that ends it), the ply < 2 rule,
undo and rematch, two games of one player ending at once, G's ``ratings``, recompute and
annul.

Runs on SQLite by default and on PostgreSQL when DATABASE_URL is set (.ci/run).
"""

from __future__ import annotations

import datetime
import io
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from accounts.players import Player
from gamerules.clock import TimeControl
from games import selectors
from games.models import Game
from games.services import clock, lobby, play, presence, scoring, table
from games.services.errors import GameError
from live import state as states
from players import glicko2, ratings
from players.models import Rating, RatingChange
from tests.support.concurrency import at_once

pytestmark = pytest.mark.django_db

BLITZ = TimeControl.fischer(main_time=300, increment=3)  # E = 420 s: blitz
OTHELLO_BLITZ = "othello8-blitz"


def account(name: str) -> Player:
    user = User.objects.create_user(name, password="secret-pass-1")
    return Player(session_key=f"session-{name}", user_id=user.pk)


def rated_game(
    black: Player,
    white: Player,
    *,
    kind: str = "othello",
    size: int = 8,
    control: TimeControl = BLITZ,
) -> Game:
    game = lobby.create_game(
        player=black,
        new=lobby.NewGame(
            kind=kind, size=size, color="black", name="black", time_control=control, rated=True
        ),
    )
    return lobby.join_game(player=white, game_id=game.public_id, name="white")


def opening(game: Game, black: Player, white: Player, plies: int = 2) -> None:
    """``plies`` Othello moves (the first legal point each time)."""
    for ply in range(plies):
        game = Game.objects.get(pk=game.pk)
        point = selectors.position_of(game).legal_moves()[0]
        mover = black if ply % 2 == 0 else white
        play.play(player=mover, game_id=game.public_id, ply=game.ply, point=list(point))


def rating_of(player: Player, category: str = OTHELLO_BLITZ) -> glicko2.Rating:
    return Rating.objects.get(user_id=player.user_id, category=category).value


# Creating and joining


@pytest.mark.parametrize(
    ("who", "options", "reason"),
    [
        ("guest", {"time_control": BLITZ}, "account"),
        ("account", {"time_control": BLITZ, "opponent": "computer", "level": 1}, "computer"),
        ("account", {}, "clock"),
    ],
)
def test_a_rated_game_needs_an_account_a_person_and_a_clock(
    who: str, options: dict[str, Any], reason: str
) -> None:
    player = Player(session_key="guest") if who == "guest" else account("ann")
    with pytest.raises(GameError) as caught:
        lobby.create_game(
            player=player,
            new=lobby.NewGame(
                kind="othello", size=8, color="black", name="Ann", rated=True, **options
            ),
        )
    assert caught.value.code == "bad_request"
    assert "rated" in caught.value.message and reason in caught.value.message
    assert not Game.objects.exists()


def test_only_an_account_joins_a_rated_game() -> None:
    ann = account("ann")
    game = lobby.create_game(
        player=ann,
        new=lobby.NewGame(
            kind="othello", size=8, color="black", name="Ann", time_control=BLITZ, rated=True
        ),
    )
    with pytest.raises(GameError) as caught:
        lobby.join_game(player=Player(session_key="guest"), game_id=game.public_id, name="G")
    assert "log in" in caught.value.message
    assert Game.objects.get(pk=game.pk).status == Game.Status.WAITING
    joined = lobby.join_game(player=account("bob"), game_id=game.public_id, name="Bob")
    assert joined.status == Game.Status.ACTIVE and joined.rated


# The ways a game ends


def _resign(game: Game, black: Player, white: Player) -> None:
    play.resign(player=white, game_id=game.public_id)


def _time(game: Game, black: Player, white: Player) -> None:
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now())
    clock.flag(game_id=game.public_id)


def _forfeit(game: Game, black: Player, white: Player) -> None:
    gone = timezone.now() - datetime.timedelta(hours=1)
    Game.objects.filter(pk=game.pk).update(white_online=False, white_away_since=gone)
    presence.claim(player=black, game_id=game.public_id)


ENDINGS: dict[str, Callable[[Game, Player, Player], None]] = {
    "resignation": _resign,
    "time": _time,
    "forfeit": _forfeit,
}


@pytest.mark.parametrize("ending", ENDINGS)
def test_each_way_of_ending_moves_both_ratings_once(ending: str) -> None:
    black, white = account("ann"), account("bob")
    game = rated_game(black, white)
    opening(game, black, white, plies=3)  # White to move: White runs out
    ENDINGS[ending](game, black, white)

    game = Game.objects.get(pk=game.pk)
    assert game.result.startswith("B+")
    won = glicko2.rate_game(glicko2.NEW_PLAYER, glicko2.NEW_PLAYER, 1.0)
    lost = glicko2.rate_game(glicko2.NEW_PLAYER, glicko2.NEW_PLAYER, 0.0)
    assert rating_of(black) == pytest.approx(won)
    assert rating_of(white) == pytest.approx(lost)
    changes = RatingChange.objects.filter(game=game)
    assert sorted(changes.values_list("color", flat=True)) == ["black", "white"]
    assert Rating.objects.get(user_id=black.user_id).games == 1


def test_the_count_of_a_go_game_moves_ratings() -> None:
    black, white = account("ann"), account("bob")
    control = TimeControl.byoyomi(main_time=600, periods=5, period_time=30)
    game = rated_game(black, white, kind="go", size=9, control=control)
    play.play(player=black, game_id=game.public_id, ply=0, point=[4, 4])
    play.pass_turn(player=white, game_id=game.public_id, ply=1)
    play.pass_turn(player=black, game_id=game.public_id, ply=2)
    scoring.accept(player=black, game_id=game.public_id)
    assert not RatingChange.objects.exists()  # one acceptance does not end it
    scoring.accept(player=white, game_id=game.public_id)

    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED and game.result.startswith("B+")
    category = "go9-classical"
    assert rating_of(black, category).rating > 1500 > rating_of(white, category).rating


def test_an_othello_game_played_out_moves_ratings() -> None:
    black, white = account("ann"), account("bob")
    game = rated_game(black, white, size=4)
    while (game := Game.objects.get(pk=game.pk)).status == Game.Status.ACTIVE:
        mover = black if game.to_move == "black" else white
        point = selectors.position_of(game).legal_moves()[0]
        play.play(player=mover, game_id=game.public_id, ply=game.ply, point=list(point))
    assert RatingChange.objects.filter(game=game).count() == 2
    score = ratings.black_score(game.result)
    expected = glicko2.rate_game(glicko2.NEW_PLAYER, glicko2.NEW_PLAYER, score)
    assert rating_of(black, "othello4-blitz") == pytest.approx(expected)


def test_a_game_ended_before_ply_2_moves_no_rating() -> None:
    black, white = account("ann"), account("bob")
    game = rated_game(black, white)
    play.resign(player=black, game_id=game.public_id)  # ply 1
    assert Game.objects.get(pk=game.pk).ply == 1
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert (
        states.game_state(Game.objects.get(pk=game.pk), you=None)["ratings"]["black"]["change"]
        is None
    )


@pytest.mark.parametrize(
    ("moves_before", "resigner", "counted"),
    [
        (0, "black", False),  # resigned at once
        (0, "white", False),  # White resigned before Black moved
        (1, "white", False),  # Black moved once, White resigned: White never moved
        (1, "black", False),  # Black moved once and resigned: White never moved
        (2, "white", True),  # each side has moved
        (2, "black", True),
    ],
)
def test_a_rated_game_moves_ratings_only_once_each_side_has_moved(
    moves_before: int, resigner: str, counted: bool
) -> None:
    """docs/api/README.md, G's `ratings`: a resignation (a timeout, a forfeit) is not a move."""
    black, white = account("ann"), account("bob")
    game = rated_game(black, white)
    opening(game, black, white, plies=moves_before)
    resigning = black if resigner == "black" else white
    play.resign(player=resigning, game_id=game.public_id)

    assert RatingChange.objects.filter(game=game).count() == (2 if counted else 0)
    assert Rating.objects.exists() is counted
    ratings.recompute()  # the rebuild applies the same rule
    assert RatingChange.objects.filter(game=game).count() == (2 if counted else 0)


def test_a_timeout_of_the_side_that_never_moved_moves_no_rating(
    frozen_clock: Any,
) -> None:
    black, white = account("ann"), account("bob")
    game = rated_game(black, white, control=TimeControl.correspondence(days=1))
    opening(game, black, white, plies=1)
    frozen_clock.advance(2 * 86_400)
    clock.flag(game_id=game.public_id)

    assert Game.objects.get(pk=game.pk).result == "B+T"
    assert not RatingChange.objects.exists()


def test_a_casual_game_between_accounts_moves_no_rating() -> None:
    black, white = account("ann"), account("bob")
    game = lobby.create_game(
        player=black,
        new=lobby.NewGame(kind="othello", size=8, color="black", name="A", time_control=BLITZ),
    )
    lobby.join_game(player=white, game_id=game.public_id, name="B")
    opening(game, black, white)
    play.resign(player=white, game_id=game.public_id)
    assert not RatingChange.objects.exists()
    state = states.game_state(Game.objects.get(pk=game.pk), you=None)
    assert (state["rated"], state["ratings"]) == (False, None)


def test_a_take_back_never_counts_twice() -> None:
    black, white = account("ann"), account("bob")
    game = rated_game(black, white)
    opening(game, black, white, plies=3)
    table.ask_undo(player=black, game_id=game.public_id, ply=3)
    table.accept_undo(player=white, game_id=game.public_id, ply=3)
    assert not RatingChange.objects.exists()
    play.resign(player=black, game_id=game.public_id)
    assert RatingChange.objects.filter(game=game).count() == 2
    assert Rating.objects.get(user_id=black.user_id).games == 1


def test_a_rematch_of_a_rated_game_is_rated() -> None:
    black, white = account("ann"), account("bob")
    game = rated_game(black, white)
    opening(game, black, white)
    play.resign(player=white, game_id=game.public_id)
    table.offer_rematch(player=white, game_id=game.public_id)
    table.offer_rematch(player=black, game_id=game.public_id)
    rematch = Game.objects.get(pk=game.pk).rematch
    assert rematch is not None and rematch.rated
    # Colours swapped: Bob plays Black now, rated from his rating after the first game.
    opening(rematch, white, black)
    play.resign(player=black, game_id=rematch.public_id)
    assert Rating.objects.get(user_id=white.user_id).games == 2


def test_g_ratings_before_and_after_the_end() -> None:
    black, white = account("ann"), account("bob")
    game = rated_game(black, white)
    state = states.game_state(Game.objects.get(pk=game.pk), you=None)
    assert state["rated"] is True
    assert state["ratings"] == {
        "category": OTHELLO_BLITZ,
        "black": {
            "username": "ann",
            "rating": 1500.0,
            "rd": 350.0,
            "provisional": True,
            "change": None,
        },
        "white": {
            "username": "bob",
            "rating": 1500.0,
            "rd": 350.0,
            "provisional": True,
            "change": None,
        },
    }
    opening(game, black, white)
    play.resign(player=black, game_id=game.public_id)
    after = states.game_state(Game.objects.get(pk=game.pk), you=None)["ratings"]
    assert after["black"]["rating"] == 1500.0
    assert after["black"]["change"] == pytest.approx(rating_of(black).rating - 1500)
    assert after["white"]["change"] == pytest.approx(rating_of(white).rating - 1500)
    assert after["white"]["change"] > 0 > after["black"]["change"]


def test_rd_grows_with_the_days_since_the_last_rated_game() -> None:
    black, white, carol = account("ann"), account("bob"), account("carol")
    first = rated_game(black, white)
    opening(first, black, white)
    play.resign(player=white, game_id=first.public_id)
    month_ago = timezone.now() - datetime.timedelta(days=30)
    Rating.objects.filter(user_id=black.user_id).update(last_played_at=month_ago)
    stored = rating_of(black)

    second = rated_game(black, carol)
    opening(second, black, carol)
    play.resign(player=carol, game_id=second.public_id)

    change = RatingChange.objects.get(game=second, user_id=black.user_id)
    grown = glicko2.after_inactivity(stored, 30)
    assert change.rd_before == pytest.approx(grown.rd, abs=0.01)
    assert change.rd_before > stored.rd


@pytest.mark.django_db(transaction=True)
def test_two_games_of_one_player_ending_at_once_are_both_counted() -> None:
    ann, bob, carol = account("ann"), account("bob"), account("carol")
    games = [rated_game(ann, bob), rated_game(ann, carol)]
    for game, opponent in zip(games, (bob, carol), strict=True):
        opening(game, ann, opponent)
    outcomes = at_once(
        *(
            partial(play.resign, player=opponent, game_id=game.public_id)
            for game, opponent in zip(games, (bob, carol), strict=True)
        )
    )
    errors = [outcome for outcome in outcomes if isinstance(outcome, str)]  # shown if any
    assert errors == []
    ann_rating = Rating.objects.get(user_id=ann.user_id)
    assert ann_rating.games == 2
    history = RatingChange.objects.filter(user_id=ann.user_id).order_by("ended_at", "pk")
    first, second = history
    # The second was rated from the first's result, never from the same "before".
    assert second.rating_before == pytest.approx(first.rating_after)
    assert ann_rating.rating == pytest.approx(second.rating_after)
    # The games ended in the order they were rated: a recompute changes nothing.
    stored = snapshot()
    ratings.recompute()
    assert snapshot() == (approx_rows(stored[0]), approx_rows(stored[1]))


# Recompute and annul


def random_rated_games(count: int, seed: int = 7) -> list[Player]:
    """``count`` rated games between random pairs of six accounts, random results, the
    clock of the finishes moved apart (hours to days) so that inactivity counts."""
    chooser = random.Random(seed)
    people = [account(f"p{number}") for number in range(6)]
    finished = timezone.now() - datetime.timedelta(days=400)
    for _ in range(count):
        black, white = chooser.sample(people, 2)
        game = rated_game(black, white)
        opening(game, black, white)
        finished += datetime.timedelta(hours=chooser.randint(1, 96))
        loser = chooser.choice((black, white))
        with time_at(finished):
            play.resign(player=loser, game_id=game.public_id)
    return people


@contextmanager
def time_at(moment: datetime.datetime) -> Iterator[None]:
    """timezone.now() frozen at ``moment`` inside the block."""
    patch = pytest.MonkeyPatch()
    patch.setattr(timezone, "now", lambda: moment)
    try:
        yield
    finally:
        patch.undo()


def snapshot() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    fields = ("user_id", "category", "rating", "rd", "volatility", "games", "last_played_at")
    history = (
        "game_id",
        "user_id",
        "rating_before",
        "rd_before",
        "volatility_before",
        "rating_after",
        "rd_after",
        "volatility_after",
        "change",
        "annulled",
    )
    return (
        list(Rating.objects.order_by("user_id", "category").values_list(*fields)),
        list(RatingChange.objects.order_by("game_id", "user_id").values_list(*history)),
    )


def approx_rows(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return [
        tuple(pytest.approx(value) if isinstance(value, float) else value for value in row)
        for row in rows
    ]


def test_recompute_equals_the_stored_ratings_after_200_random_rated_games() -> None:
    random_rated_games(200)
    stored_ratings, stored_history = snapshot()
    assert len(stored_history) == 400

    out = io.StringIO()
    call_command("recompute_ratings", stdout=out)
    assert "200 rated game(s)" in out.getvalue()

    ratings_now, history_now = snapshot()
    assert ratings_now == approx_rows(stored_ratings)
    assert history_now == approx_rows(stored_history)


def test_recompute_rebuilds_ratings_that_were_changed_by_hand() -> None:
    random_rated_games(20)
    stored_ratings, _ = snapshot()
    Rating.objects.update(rating=1000, rd=45, games=0)
    ratings.recompute()
    assert snapshot()[0] == approx_rows(stored_ratings)


def test_annulling_a_game_undoes_it_for_both_and_recomputes_later_games() -> None:
    ann, bob, carol = account("ann"), account("bob"), account("carol")
    cheat = rated_game(ann, bob)
    opening(cheat, ann, bob)
    play.resign(player=bob, game_id=cheat.public_id)
    later = rated_game(ann, carol)
    opening(later, ann, carol)
    play.resign(player=ann, game_id=later.public_id)

    assert ratings.annul(games=[cheat]) == 1

    assert set(RatingChange.objects.filter(game=cheat).values_list("annulled", flat=True)) == {True}
    new = glicko2.NEW_PLAYER
    assert rating_of(bob) == new
    assert Rating.objects.get(user_id=bob.user_id).games == 0
    # The later game is rated again as if the annulled one had never been played.
    assert rating_of(ann) == pytest.approx(glicko2.rate_game(new, new, 0.0))
    assert rating_of(carol) == pytest.approx(glicko2.rate_game(new, new, 1.0))
    assert RatingChange.objects.get(game=later, user_id=ann.user_id).rating_before == 1500
    assert ratings.annul(games=[cheat]) == 0
    state = states.game_state(Game.objects.get(pk=cheat.pk), you=None)
    assert state["ratings"]["black"]["change"] is None


def test_recompute_on_an_untouched_database_writes_nothing() -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    random_rated_games(12)
    with CaptureQueriesContext(connection) as captured:
        assert ratings.recompute() == 12
    writes = [
        query["sql"]
        for query in captured.captured_queries
        if query["sql"].split()[0] in ("INSERT", "UPDATE", "DELETE")
    ]
    assert writes == []
