"""Loading a game costs the same few queries after 3 moves or after 300.

The position comes from the stored snapshot, never from replaying the history, and the
moves come in one query.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

import gamerules as rules
from accounts.players import Player
from gamerules.clock import TimeControl
from games.models import Game, Move
from games.services import lobby, table
from games.services import play as play_services
from live import state as states

pytestmark = pytest.mark.django_db


def played_game(black: Player, white: Player, moves: int) -> Game:
    """A 19x19 Go game of ``moves`` random legal placements, stored with bulk_create."""
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="go", size=19, color="black", name="Ann")
    )
    lobby.join_game(player=white, game_id=game.public_id, name="Bob")
    choose = random.Random(moves).choice
    position = rules.new_position("go", 19)
    rows = []
    for ply in range(1, moves + 1):
        position, diff = position.play(rules.Move.place(choose(position.legal_moves())))
        assert diff.point is not None
        rows.append(
            Move(
                game=game,
                ply=ply,
                color=diff.color.value,
                action=Move.Action.PLACE,
                row=diff.point[0],
                col=diff.point[1],
                diff={"captured": [list(point) for point in diff.captured]},
            )
        )
    Move.objects.bulk_create(rows)
    Game.objects.filter(pk=game.pk).update(
        snapshot=position.to_snapshot(), ply=moves, to_move=position.to_move.value
    )
    return Game.objects.get(pk=game.pk)


def queries(call: Any) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        call()
    return [query["sql"] for query in captured.captured_queries]


def test_loading_a_game_of_300_moves_costs_two_queries(
    black: Player, white: Player, django_assert_num_queries: Any
) -> None:
    game = played_game(black, white, 300)
    # The first G of a game a process builds also reads whether the pools made it
    # (pairing.selectors.game_paired) and whether a tournament did
    # (tournaments.selectors.game_tournament), both kept after.
    with django_assert_num_queries(4):
        states.state_for(game.public_id, you=black)

    with django_assert_num_queries(2):
        state = states.state_for(game.public_id, you=black)

    assert state is not None
    assert len(state["moves"]) == 300
    assert state["ply"] == 300
    assert state["you"] == "black"
    assert state["board"] == rules.position_from_snapshot("go", game.snapshot).rows()
    assert state["last_move"] == state["moves"][-1]
    assert [move["ply"] for move in state["moves"]] == list(range(1, 301))


def test_the_query_count_does_not_grow_with_the_history(black: Player, white: Player) -> None:
    short = played_game(black, white, 3)
    long = played_game(black, white, 300)

    def load(game: Game) -> None:
        states.game_state(Game.objects.get(pk=game.pk), you=None)

    assert len(queries(lambda: load(long))) == len(queries(lambda: load(short)))


def test_a_move_costs_the_same_queries_after_300_moves(black: Player, white: Player) -> None:
    short = played_game(black, white, 3)
    long = played_game(black, white, 300)

    def play(game: Game) -> None:
        point = rules.position_from_snapshot("go", game.snapshot).legal_moves()[0]
        player = black if game.to_move == "black" else white
        play_services.play(player=player, game_id=game.public_id, ply=game.ply, point=list(point))

    assert len(queries(lambda: play(long))) == len(queries(lambda: play(short)))
    assert Game.objects.get(pk=long.pk).ply == 301


def test_a_move_writes_what_it_changed_and_only_that(black: Player, white: Player) -> None:
    """The UPDATE names the columns a move changes (not the names, the settings, ...), and
    everything the service changed is stored: the game as the service left it equals the
    game read back, field by field."""
    fischer = TimeControl.fischer(main_time=60, increment=5)
    game = lobby.create_game(
        player=black,
        new=lobby.NewGame(kind="go", size=9, color="black", name="Ann", time_control=fischer),
    )
    lobby.join_game(player=white, game_id=game.public_id, name="Bob")
    play_services.play(player=black, game_id=game.public_id, ply=0, point=[2, 2])
    play_services.play(player=white, game_id=game.public_id, ply=1, point=[6, 6])  # first moves
    table.ask_undo(player=white, game_id=game.public_id, ply=2)  # lapses with the move

    with CaptureQueriesContext(connection) as captured:
        (move,) = play_services.play(player=black, game_id=game.public_id, ply=2, point=[4, 4])
    # On PostgreSQL the UPDATE goes in one statement after the move's INSERT.
    sent = [query["sql"] for query in captured]
    (update,) = [sql[sql.index("UPDATE") :] for sql in sent if 'UPDATE "games_game"' in sql]
    assert "snapshot" in update
    assert "black_name" not in update
    assert "time_control" not in update

    kept = Game.objects.get(pk=game.pk)
    assert kept.undo_request == ""
    assert kept.clocks["black"] != fischer.start().to_json()  # Black was charged
    for field in Game._meta.concrete_fields:
        assert getattr(kept, field.attname) == getattr(move.game, field.attname), field.name


# The players' pages: a fixed number of queries, whatever a player's history (no N+1)


def rated_history(games: int) -> None:
    """``games`` finished rated games between ann and bob, results alternating."""
    from tests.players.test_ratings import account, opening, rated_game

    ann, bob = account(f"ann{games}"), account(f"bob{games}")
    for number in range(games):
        game = rated_game(ann, bob)
        opening(game, ann, bob)
        play_services.resign(player=bob if number % 2 else ann, game_id=game.public_id)
    rated_game(ann, bob)  # and one being played


def test_a_profile_costs_the_same_queries_after_2_or_12_rated_games() -> None:
    from django.test import Client

    rated_history(2)
    rated_history(12)
    browser = Client()
    browser.get("/players/ann2/")  # every visitor gets a session: made once, here

    def profile(name: str) -> None:
        assert browser.get(f"/players/{name}/").status_code == 200

    def profile_json(name: str) -> None:
        assert browser.get(f"/players/{name}.json").status_code == 200

    # Sessions and the like aside, a profile page is a fixed handful of queries.
    assert len(queries(lambda: profile("ann2"))) == len(queries(lambda: profile("ann12")))
    assert len(queries(lambda: profile_json("ann2"))) == len(queries(lambda: profile_json("ann12")))
    # A handful: with the one that asks whether it is a bot, and the session's (the
    # account itself is told whom it follows).
    assert len(queries(lambda: profile_json("ann12"))) <= 8


def test_a_rated_games_state_costs_two_queries_more_than_a_casual_ones(
    black: Player, white: Player
) -> None:
    from tests.players.test_ratings import account, opening, rated_game

    casual = played_game(black, white, 3)
    ann, bob = account("ann"), account("bob")
    rated = rated_game(ann, bob)

    def load(game: Game) -> None:
        states.game_state(Game.objects.get(pk=game.pk), you=None)

    # Whether its seats are bots, and whether the pools made it: asked once a process
    # (games.selectors, pairing.selectors).
    load(rated)
    load(casual)
    assert len(queries(lambda: load(rated))) == len(queries(lambda: load(casual))) + 2
    opening(rated, ann, bob)
    play_services.resign(player=bob, game_id=rated.public_id)
    # Once over: the game's two rating changes and their accounts, in one query.
    assert len(queries(lambda: load(rated))) == len(queries(lambda: load(casual))) + 1


def test_the_leaderboards_cost_one_query_a_board() -> None:
    from django.test import Client

    from players.models import Rating

    users = [User.objects.create_user(f"u{n}") for n in range(30)]
    for category in ("othello8-blitz", "go19-classical"):
        Rating.objects.bulk_create(
            Rating(user=user, category=category, rating=1500 + n, rd=50, games=5)
            for n, user in enumerate(users)
        )
    browser = Client()
    browser.get("/players/top/")  # every visitor gets a session: made once, here
    top = queries(lambda: browser.get("/players/top/"))
    # the session, the categories, then each category's people's and bots' boards
    assert len(top) == 1 + 1 + 2 * 2
    board = queries(lambda: browser.get("/players/top.json?category=go19-classical"))
    assert len(board) == 1  # the board (JSON reads no session)
