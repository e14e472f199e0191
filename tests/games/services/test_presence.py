"""games.services.presence: a seat online while one of its sockets is open on any
process, a killed process's sockets forgotten, claiming a game the opponent left."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from accounts.players import Player
from games import selectors
from games.models import Connection, Game
from games.services import computer, lobby, play, presence
from games.services.errors import GameError
from tests.conftest import FrozenClock
from tests.support.helpers import Events, reload

pytestmark = pytest.mark.django_db


def start(black: Player, white: Player) -> Game:
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="othello", size=8, color="black", name="Ann")
    )
    return lobby.join_game(player=white, game_id=game.public_id, name="Bob")


def connect(player: Player, game: Game, channel: str, process: str = "p1") -> str | None:
    return presence.connected(
        player=player, game_id=game.public_id, process=process, channel_name=channel
    )


def online(game: Game) -> dict[str, bool]:
    return dict(selectors.game_state(reload(game), you=None)["online"])


def test_a_seat_is_online_while_one_of_its_sockets_is_open(
    black: Player, white: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    game = start(black, white)
    assert online(game) == {"black": False, "white": False}

    with django_capture_on_commit_callbacks(execute=True):
        assert connect(black, game, "tab-1") == "black"
        assert connect(black, game, "tab-2", process="p2") == "black"  # another process
    assert online(game) == {"black": True, "white": False}
    # One state for the change, not for the second tab; the new socket itself is skipped.
    assert [(event["type"], event["skip"]) for _, event in broadcasts] == [("game.state", "tab-1")]

    with django_capture_on_commit_callbacks(execute=True):
        presence.disconnected(channel_name="tab-1")
    assert online(game)["black"]
    with django_capture_on_commit_callbacks(execute=True):
        presence.disconnected(channel_name="tab-2")
        presence.disconnected(channel_name="tab-2")  # twice: nothing more
    assert online(game)["black"] is False
    assert len(broadcasts) == 2
    assert broadcasts[-1][1]["game"]["online"] == {"black": False, "white": False}


def test_a_spectators_socket_is_not_tracked(
    black: Player, white: Player, spectator: Player
) -> None:
    game = start(black, white)
    assert connect(spectator, game, "watcher") is None
    assert Connection.objects.count() == 0


def test_a_killed_processs_sockets_go_offline(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    game = start(black, white)
    presence.heartbeat(process="alive")
    presence.heartbeat(process="killed")
    connect(black, game, "b", process="alive")
    connect(white, game, "w", process="killed")
    frozen_clock.advance(15)
    presence.heartbeat(process="alive")  # the killed process writes no more

    assert presence.sweep(timeout=20) == []
    frozen_clock.advance(10)
    presence.heartbeat(process="alive")
    assert presence.sweep(timeout=20) == [game.public_id]

    assert online(game) == {"black": True, "white": False}
    assert list(Connection.objects.values_list("channel_name", flat=True)) == ["b"]


def test_the_lobby_lists_only_games_whose_creator_is_online(black: Player) -> None:
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="go", size=9, color="white", name="Ann")
    )
    assert list(selectors.open_games()) == []
    connect(black, game, "ann")
    assert list(selectors.open_games()) == [game]
    presence.disconnected(channel_name="ann")
    assert list(selectors.open_games()) == []


# Claiming


@override_settings(ABANDON_SECONDS=60)
def test_a_game_may_be_claimed_once_the_opponent_was_away_long_enough(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    game = start(black, white)
    connect(black, game, "b")
    connect(white, game, "w")
    presence.disconnected(channel_name="w")
    frozen_clock.advance(59)

    with pytest.raises(GameError) as early:
        presence.claim(player=black, game_id=game.public_id)
    assert early.value.code == "illegal_move"
    assert "in 2 s" in early.value.message
    assert reload(game).status == "active"

    frozen_clock.advance(1)
    [move] = presence.claim(player=black, game_id=game.public_id)

    game = reload(game)
    assert (move.action, move.color, move.ply) == ("forfeit", "white", 1)
    assert (game.status, game.result) == ("finished", "B+F")
    assert selectors.move_json(move)["notation"] == "forfeit"


@override_settings(ABANDON_SECONDS=60)
def test_an_opponent_who_never_came_may_be_claimed_against(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    game = start(black, white)  # White took the seat and never opened the game
    frozen_clock.advance(61)
    [move] = presence.claim(player=black, game_id=game.public_id)
    assert reload(game).result == "B+F"
    assert move.color == "white"


@override_settings(ABANDON_SECONDS=60)
def test_claims_refused(
    black: Player, white: Player, spectator: Player, frozen_clock: FrozenClock
) -> None:
    waiting = lobby.create_game(
        player=black, new=lobby.NewGame(kind="go", size=9, color="black", name="A")
    )
    game = start(black, white)
    connect(white, game, "w")
    frozen_clock.advance(120)

    def code(player: Player, game_id: str) -> str:
        with pytest.raises(GameError) as refused:
            presence.claim(player=player, game_id=game_id)
        return refused.value.code

    assert code(spectator, game.public_id) == "not_a_player"
    assert code(black, waiting.public_id) == "illegal_move"  # nobody to claim against
    assert code(black, game.public_id) == "illegal_move"  # White is here
    play.resign(player=white, game_id=game.public_id)
    assert code(black, game.public_id) == "game_over"


# Games nobody plays: the computer's opponent gone for a day


DAY = 24 * 3600


def against_computer(player: Player, *, color: str) -> Game:
    """An 8x8 Othello game of ``player`` (Ann) against the computer, Ann playing ``color``."""
    return lobby.create_game(
        player=player,
        new=lobby.NewGame(
            kind="othello", size=8, color=color, name="Ann", opponent="computer", level=1
        ),
    )


def test_a_computer_game_whose_person_never_moved_and_left_a_day_ago_is_aborted(
    black: Player,
    frozen_clock: FrozenClock,
    broadcasts: Events,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = against_computer(black, color="white")
    computer.computer_move(game_id=game.public_id, ply=0, point=[2, 3])  # the computer moved
    connect(black, game, "tab")
    frozen_clock.advance(3600)
    presence.disconnected(channel_name="tab")  # Ann leaves without a move
    frozen_clock.advance(DAY - 1)
    assert presence.end_deserted() == []  # a second short of a day

    frozen_clock.advance(1)
    with django_capture_on_commit_callbacks(execute=True):
        [ended] = presence.end_deserted()

    game = reload(game)
    assert ended.public_id == game.public_id
    assert (game.status, game.result, game.ply) == ("aborted", "", 1)
    [(_, event)] = broadcasts
    assert event["type"] == "game.state"
    assert event["game"]["aborted"] == {"reason": "left", "color": "white"}
    assert presence.end_deserted() == []


def test_a_computer_game_whose_person_moved_and_left_a_day_ago_is_resigned_for_them(
    black: Player, frozen_clock: FrozenClock
) -> None:
    game = against_computer(black, color="black")  # never opened: away since created
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
    frozen_clock.advance(DAY)

    [ended] = presence.end_deserted()

    game = reload(game)
    assert ended.public_id == game.public_id
    assert (game.status, game.result) == ("finished", "W+R")
    assert (game.moves.last().action, game.moves.last().color) == ("resign", "black")


def test_a_game_nobody_left_or_between_two_people_is_not_ended(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    here = against_computer(black, color="black")
    connect(black, here, "tab")  # online for two days
    people = start(black, white)  # nobody has opened it for two days: theirs to claim
    frozen_clock.advance(2 * DAY)

    assert presence.end_deserted() == []
    assert (reload(here).status, reload(people).status) == ("active", "active")
