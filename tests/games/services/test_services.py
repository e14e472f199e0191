"""games.services: every use case, every error code in the contract's order, the events.

Runs on SQLite by default and on PostgreSQL when DATABASE_URL is set (.ci/run).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import User

from accounts.players import Player
from gamerules import Color, GoPosition, Move, OthelloPosition
from gamerules.clock import TimeControl
from games import selectors
from games.models import Game
from games.realtime import events
from games.services import lobby, play
from games.services import scoring as scoring_services
from games.services.errors import GameError
from live import events as live_events
from live import state as live_state
from tests.support.helpers import Events, Refused, reload

pytestmark = pytest.mark.django_db


def start(
    black: Player,
    white: Player,
    *,
    kind: str = "othello",
    size: int = 8,
    rows: Sequence[str] | None = None,
    to_move: Color = Color.BLACK,
) -> Game:
    """A game created by ``black`` and joined by ``white``, optionally from a diagram."""
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind=kind, size=size, color="black", name="Ann")
    )
    game = lobby.join_game(player=white, game_id=game.public_id, name="Bob")
    if rows is not None:
        position_class = OthelloPosition if kind == "othello" else GoPosition
        position = position_class.from_rows(rows, to_move)
        Game.objects.filter(pk=game.pk).update(
            snapshot=position.to_snapshot(), to_move=to_move.value
        )
    return Game.objects.get(pk=game.pk)


def error_of(call: Any, **kwargs: Any) -> str:
    with pytest.raises(GameError) as caught:
        call(**kwargs)
    return caught.value.code


# create_game


def test_create_game_seats_the_creator_and_waits(black: Player) -> None:
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="othello", size=8, color="white", name=" Ann ")
    )

    game = reload(game)
    assert game.status == Game.Status.WAITING
    assert (game.white_name, game.white_session_key, game.black_name) == (
        "Ann",
        "black-session",
        "",
    )
    assert game.creator_color == "white"
    assert game.snapshot == OthelloPosition.start(8).to_snapshot()
    assert (game.ply, game.to_move, game.score) == (0, "black", {"black": 2, "white": 2})
    assert (game.komi, game.scoring_method) == (None, "")
    assert selectors.color_of(game, black) == "white"


def test_public_ids_are_long_random_and_distinct(black: Player) -> None:
    ids = {
        lobby.create_game(
            player=black, new=lobby.NewGame(kind="go", size=9, color="black", name="A")
        ).public_id
        for _ in range(20)
    }
    assert len(ids) == 20
    assert all(len(public_id) >= 16 for public_id in ids)


def test_random_colour_seats_the_creator_on_one_side(black: Player) -> None:
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="othello", size=8, color="random", name="A")
    )

    assert game.creator_color in ("black", "white")
    assert selectors.color_of(game, black) == game.creator_color


@pytest.mark.parametrize(
    ("scoring", "komi", "expected"),
    [("territory", None, 6.5), ("area", None, 7.5), ("territory", 0.5, 0.5), ("area", -3, -3.0)],
)
def test_go_komi_and_scoring(black: Player, scoring: str, komi: float | None, expected: float):
    game = lobby.create_game(
        player=black,
        new=lobby.NewGame(kind="go", size=9, color="black", name="A", komi=komi, scoring=scoring),
    )

    game = reload(game)
    assert (game.komi, game.scoring_method) == (expected, scoring)
    assert game.score == {"black": 0, "white": expected}
    assert game.snapshot == GoPosition.start(9).to_snapshot()


@pytest.mark.parametrize(
    "options",
    [
        {"kind": "chess"},
        {"size": 7},
        {"size": 18},
        {"size": "8"},
        {"size": True},
        {"kind": "go", "size": 21},
        {"kind": "go", "size": 8},
        {"color": "red"},
        {"name": ""},
        {"name": "   "},
        {"name": "x" * 41},
        {"name": None},
        {"kind": "go", "size": 9, "komi": 6.3},
        {"kind": "go", "size": 9, "komi": 51},
        {"kind": "go", "size": 9, "komi": float("nan")},
        {"kind": "go", "size": 9, "komi": True},
        {"kind": "go", "size": 9, "komi": "6.5"},
        {"kind": "go", "size": 9, "scoring": "stones"},
    ],
)
def test_create_game_refuses_bad_options(black: Player, options: dict[str, Any]) -> None:
    arguments = {"kind": "othello", "size": 8, "color": "black", "name": "Ann", **options}

    assert error_of(lobby.create_game, player=black, new=lobby.NewGame(**arguments)) == (
        "bad_request"
    )
    assert not Game.objects.exists()


def test_create_game_needs_a_session_or_an_account() -> None:
    nobody = Player(session_key=None, user_id=None)

    new = lobby.NewGame(kind="othello", size=8, color="black", name="A")
    code = error_of(lobby.create_game, player=nobody, new=new)

    assert code == "bad_request"
    assert not Game.objects.exists()


# join_game


def test_join_takes_the_free_seat_and_starts_the_game(
    black: Player, white: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="othello", size=8, color="black", name="Ann")
    )

    with django_capture_on_commit_callbacks(execute=True):
        joined = lobby.join_game(player=white, game_id=game.public_id, name="Bob")

    game = reload(game)
    assert joined.status == game.status == Game.Status.ACTIVE
    assert (game.white_name, game.white_session_key) == ("Bob", "white-session")
    assert selectors.color_of(game, white) == "white"
    [(group, event)] = broadcasts
    assert group == events.group_name(game.public_id)
    assert event["type"] == "game.state"
    assert event["seats"] == {"black": black.token, "white": white.token}
    assert event["game"]["players"] == {"black": "Ann", "white": "Bob"}
    assert event["game"]["status"] == "active"
    assert type(event["game"]["status"]) is str  # plain JSON for any channel layer
    assert "you" not in event["game"]


def test_the_creator_cannot_join_twice(
    black: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="othello", size=8, color="black", name="Ann")
    )

    with django_capture_on_commit_callbacks(execute=True):
        lobby.join_game(player=black, game_id=game.public_id, name="Ann again")

    game = reload(game)
    assert (game.status, game.white_session_key, game.white_name) == ("waiting", "", "")
    assert broadcasts == []


@pytest.mark.parametrize("name", ["", "x" * 41])
def test_a_third_visitor_watches_whatever_the_name(
    black: Player, white: Player, spectator: Player, name: str
) -> None:
    game = start(black, white)

    lobby.join_game(player=spectator, game_id=game.public_id, name=name)

    assert reload(game).white_session_key == "white-session"
    assert selectors.color_of(game, spectator) is None


def test_join_refuses_a_blank_name_when_there_is_a_seat(black: Player, white: Player) -> None:
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="othello", size=8, color="black", name="Ann")
    )

    assert error_of(lobby.join_game, player=white, game_id=game.public_id, name=" ") == (
        "bad_request"
    )
    assert reload(game).status == Game.Status.WAITING


def test_join_an_unknown_game_is_a_bad_request(white: Player) -> None:
    assert error_of(lobby.join_game, player=white, game_id="nope", name="Bob") == "bad_request"


# start_games (the pairing pools' games)

GAME_FIELDS = (
    "kind",
    "size",
    "status",
    "rated",
    "snapshot",
    "to_move",
    "score",
    "komi",
    "scoring_method",
    "time_control",
    "clocks",
    "black_online",
    "white_online",
)


def new_pair(
    first: Player, second: Player, *, kind: str = "othello", size: int = 8, rated: bool = False
) -> lobby.NewPair:
    return lobby.NewPair(
        first=lobby.Entrant(first, "Ann"),
        second=lobby.Entrant(second, "Bob"),
        kind=kind,
        size=size,
        time_control=TimeControl.byoyomi(main_time=300, periods=5, period_time=10),
        rated=rated,
    )


@pytest.mark.parametrize(("kind", "size"), [("othello", 8), ("go", 9)])
def test_start_games_makes_each_game_as_create_and_join_would(
    black: Player, white: Player, kind: str, size: int
) -> None:
    control = TimeControl.byoyomi(main_time=300, periods=5, period_time=10)
    created = lobby.create_game(
        player=black,
        new=lobby.NewGame(kind=kind, size=size, color="black", name="Ann", time_control=control),
    )
    joined = reload(lobby.join_game(player=white, game_id=created.public_id, name="Bob"))
    others = [Player(session_key=f"guest-{n}") for n in range(4)]

    made = lobby.start_games(
        [
            new_pair(others[0], others[1], kind=kind, size=size),
            new_pair(others[2], others[3], kind=kind, size=size),
        ]
    )

    assert len(made) == 2 and Game.objects.count() == 3
    for game, (first, second) in zip(made, [others[0:2], others[2:4]], strict=True):
        game = reload(game)
        assert {field: getattr(game, field) for field in GAME_FIELDS} == {
            field: getattr(joined, field) for field in GAME_FIELDS
        }
        assert selectors.color_of(game, first) == game.creator_color
        assert selectors.color_of(game, second) == Color(game.creator_color).opponent.value
        assert game.black_away_since is not None and game.white_away_since is not None
        assert game.creator.name == "Ann"
        assert game.deadline - game.turn_started_at == joined.deadline - joined.turn_started_at


def test_start_games_draws_each_games_colours(black: Player) -> None:
    players = [Player(session_key=f"guest-{n}") for n in range(40)]
    made = lobby.start_games(
        [new_pair(players[n], players[n + 1]) for n in range(0, len(players), 2)]
    )
    assert {game.creator_color for game in made} == {"black", "white"}


def test_start_games_tells_the_lobby_once(
    lobby_broadcasts: list[dict[str, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    players = [Player(session_key=f"guest-{n}") for n in range(6)]
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start_games([new_pair(players[n], players[n + 1]) for n in (0, 2, 4)])
    assert len(lobby_broadcasts) == 1


def test_start_games_refuses_a_player_against_themself(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user("ann", password="pw")
    laptop = Player(session_key="laptop", user_id=user.pk)
    phone = Player(session_key="phone", user_id=user.pk)
    good = new_pair(Player(session_key="cid"), Player(session_key="dan"))
    for same in ([laptop, laptop], [laptop, phone], [Player("guest"), Player("guest")]):
        assert error_of(lobby.start_games, pairs=[good, new_pair(*same)]) == "bad_request"
    assert not Game.objects.exists()  # the good pair too: one transaction


def test_start_games_refuses_a_rated_game_for_a_guest(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user("ann", password="pw")
    account = Player(session_key="laptop", user_id=user.pk)
    for first, second in ((account, Player("guest")), (Player("guest"), account)):
        pair = new_pair(first, second, rated=True)
        assert error_of(lobby.start_games, pairs=[pair]) == "bad_request"
    assert not Game.objects.exists()


def test_an_account_holds_its_seat_from_any_browser(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user("ann", password="pw")
    laptop = Player(session_key="laptop", user_id=user.pk)
    phone = Player(session_key="phone", user_id=user.pk)
    logged_out = Player(session_key="laptop", user_id=None)

    game = lobby.create_game(
        player=laptop, new=lobby.NewGame(kind="go", size=9, color="white", name="Ann")
    )

    assert reload(game).white_user == user
    assert selectors.color_of(game, phone) == "white"
    assert selectors.color_of(game, logged_out) is None


# claim_guest_seats


def test_claim_hands_the_guest_seats_to_the_account(
    black: Player, white: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    playing = start(black, white)
    finished = start(black, white)
    play.resign(player=white, game_id=finished.public_id)
    as_white = start(white, black)
    strangers = start(white, Player(session_key="someone-else"))
    ann = User.objects.create_user("ann")  # signed up after playing as a guest
    account = Player(session_key="new-session", user_id=ann.pk)

    with django_capture_on_commit_callbacks(execute=True):
        claimed = lobby.claim_guest_seats(guest_session_key="black-session", player=account)

    assert [game.pk for game in claimed] == [playing.pk, finished.pk, as_white.pk]
    for game, color in ((playing, "black"), (finished, "black"), (as_white, "white")):
        game = reload(game)
        assert selectors.color_of(game, account) == color
        assert selectors.color_of(game, black) is None
        assert game.seat(color).session_key == "new-session"
    # The account's seats take its username (docs/api/README.md#one-name-per-player).
    assert (reload(as_white).white_name, reload(playing).black_name) == ("ann", "ann")
    assert selectors.color_of(reload(playing), white) == "white"
    assert reload(strangers).black_user is None
    assert [(group, event["type"], event["seats"]) for group, event in broadcasts] == [
        (events.group_name(game.public_id), "game.state", selectors.seat_tokens(reload(game)))
        for game in (playing, finished, as_white)
    ]
    assert broadcasts[0][1]["seats"]["black"] == account.token


def test_claim_leaves_a_seat_of_a_game_the_account_already_plays(black: Player) -> None:
    carol = User.objects.create_user("carol")
    account = Player(session_key="carol-session", user_id=carol.pk)
    game = start(black, account)

    assert lobby.claim_guest_seats(guest_session_key="black-session", player=account) == []
    game = reload(game)
    assert (selectors.color_of(game, black), selectors.color_of(game, account)) == (
        "black",
        "white",
    )


@pytest.mark.parametrize(
    ("key", "player"),
    [("black-session", Player(session_key="x")), ("", Player(session_key="x", user_id=1))],
)
def test_claim_needs_an_account_and_a_guest_session(key: str, player: Player) -> None:
    assert error_of(lobby.claim_guest_seats, guest_session_key=key, player=player) == (
        "bad_request"
    )


# play


def test_a_placement_is_stored_with_its_flips(black: Player, white: Player) -> None:
    game = start(black, white)

    [move] = play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])

    game = reload(game)
    assert (move.ply, move.color, move.action, move.row, move.col) == (1, "black", "place", 2, 3)
    assert move.diff == {"flipped": [[3, 3]]}
    assert list(game.moves.all()) == [move]
    expected, _ = OthelloPosition.start(8).play(Move.place((2, 3)))
    assert game.snapshot == expected.to_snapshot()
    assert (game.ply, game.to_move, game.score) == (1, "white", {"black": 4, "white": 1})


@pytest.mark.usefixtures("frozen_clock")  # G's away_ms is as of the moment it is built
def test_a_move_is_broadcast_once_the_transaction_commits(
    black: Player, white: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    game = start(black, white)

    with django_capture_on_commit_callbacks() as callbacks:
        play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
        assert broadcasts == []
    for callback in callbacks:
        callback()

    [(group, event)] = broadcasts
    assert group == events.group_name(game.public_id)
    assert event["type"] == "game.moved"
    assert event["move"] == {
        "ply": 1,
        "color": "black",
        "action": "place",
        "point": [2, 3],
        "flipped": [[3, 3]],
        "notation": "d3",
        "clock_ms": None,
    }
    expected = live_state.game_state(reload(game), you=None)
    # The event's G is the state without "you" (each socket fills it in) and without the
    # move list (the clients have it): its size does not grow with the game.
    del expected["you"], expected["moves"]
    assert event["game"] == expected
    assert event["seats"] == {"black": "s:black-session", "white": "s:white-session"}


def test_an_automatic_pass_is_its_own_move_and_event(
    black: Player, white: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    # Black takes b1 (row 0, col 1); White then has no move and passes automatically.
    game = start(black, white, size=4, rows=["W.WB", "BWB.", "BBW.", "B..."])

    with django_capture_on_commit_callbacks(execute=True):
        placed, passed = play.play(player=black, game_id=game.public_id, ply=0, point=[0, 1])

    game = reload(game)
    assert (placed.ply, placed.color, placed.action) == (1, "black", "place")
    assert (passed.ply, passed.color, passed.action, passed.row) == (2, "white", "pass", None)
    assert passed.diff == {"flipped": []}
    assert (game.ply, game.to_move, game.status) == (2, "black", "active")
    assert OthelloPosition.from_snapshot(game.snapshot).rows() == [
        "WBBB",
        "BBB.",
        "BBW.",
        "B...",
    ]
    assert [event["move"]["notation"] for _, event in broadcasts] == ["b1", "pass"]
    assert [event["game"]["ply"] for _, event in broadcasts] == [2, 2]


def test_the_last_move_finishes_othello(black: Player, white: Player) -> None:
    game = start(black, white, size=4, rows=["WBBB", ".WWW", "WWBB", "WBBB"])

    [move] = play.play(player=black, game_id=game.public_id, ply=0, point=[1, 0])

    game = reload(game)
    assert move.diff == {"flipped": [[2, 1]]}
    assert OthelloPosition.from_snapshot(game.snapshot).rows() == ["WBBB", "BWWW", "WBBB", "WBBB"]
    assert (game.status, game.result, game.ply) == ("finished", "B+4", 1)
    assert game.score == {"black": 10, "white": 6}
    assert game.finished_at is not None


def test_go_captures_and_prisoners(black: Player, white: Player) -> None:
    game = start(
        black,
        white,
        kind="go",
        size=5,
        rows=[".B...", "BW...", ".B...", ".....", "....."],
    )

    [move] = play.play(player=black, game_id=game.public_id, ply=0, point=[1, 2])

    game = reload(game)
    assert move.diff == {"captured": [[1, 1]]}
    assert game.snapshot["prisoners"] == {"black": 1, "white": 0}
    assert game.score == {"black": 1, "white": 6.5}
    state = selectors.game_state(game, you="white")
    assert state["prisoners"] == {"black": 1, "white": 0}
    assert state["last_move"]["captured"] == [[1, 1]]
    assert state["last_move"]["notation"] == "C4"


# The contract's error order: bad_request, not_a_player, game_over, stale,
# not_your_turn, illegal_move. An error changes nothing and sends nothing.


@pytest.mark.parametrize(
    ("ply", "point"),
    [
        ("0", [2, 3]),
        (True, [2, 3]),
        (0.0, [2, 3]),
        (None, [2, 3]),
        (0, [2]),
        (0, [2, 3, 4]),
        (0, "d3"),
        (0, [2, "3"]),
        (0, [True, 3]),
        (0, [2.0, 3]),
        (0, [8, 3]),
        (0, [2, -1]),
    ],
)
def test_malformed_moves_are_bad_requests_even_from_spectators(
    black: Player, white: Player, spectator: Player, refused: Refused, ply: Any, point: Any
) -> None:
    game = start(black, white)

    for player in (black, spectator):
        refused("bad_request", play.play, game, player=player, ply=ply, point=point)


def test_an_unknown_game_is_a_bad_request(black: Player) -> None:
    assert error_of(play.play, player=black, game_id="x", ply=0, point=[2, 3]) == ("bad_request")
    assert error_of(play.pass_turn, player=black, game_id="x", ply=0) == "bad_request"
    assert error_of(play.resign, player=black, game_id="x") == "bad_request"
    assert error_of(lobby.abort, player=black, game_id="x") == "bad_request"


def test_a_spectator_is_not_a_player_even_with_a_stale_ply(
    black: Player, white: Player, spectator: Player, refused: Refused
) -> None:
    game = start(black, white)

    for ply in (0, 7):
        refused("not_a_player", play.play, game, player=spectator, ply=ply, point=[2, 3])
    refused("not_a_player", play.pass_turn, game, player=spectator, ply=7)
    refused("not_a_player", play.resign, game, player=spectator)


def test_a_finished_game_is_game_over_even_with_a_stale_ply(
    black: Player, white: Player, refused: Refused
) -> None:
    game = start(black, white)
    play.resign(player=white, game_id=game.public_id)

    for player, ply in ((black, 1), (black, 0), (white, 0)):
        refused("game_over", play.play, game, player=player, ply=ply, point=[2, 3])
    refused("game_over", play.resign, game, player=black)
    refused("game_over", lobby.abort, game, player=black)


def test_a_duplicated_click_from_the_player_who_just_moved_is_stale(
    black: Player, white: Player, refused: Refused
) -> None:
    game = start(black, white)
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])

    refused("stale", play.play, game, player=black, ply=0, point=[2, 3])


def test_a_stale_ply_comes_before_the_turn_and_the_rules(
    black: Player, white: Player, refused: Refused
) -> None:
    game = start(black, white)

    # White is not to move and [0, 0] is illegal: the stale ply is answered first.
    refused("stale", play.play, game, player=white, ply=3, point=[0, 0])
    refused("stale", play.pass_turn, game, player=black, ply=3)


def test_playing_out_of_turn_is_not_your_turn(
    black: Player, white: Player, refused: Refused
) -> None:
    game = start(black, white)

    # ...even on a point that would be illegal anyway.
    refused("not_your_turn", play.play, game, player=white, ply=0, point=[0, 0])


def test_a_game_waiting_for_its_opponent_is_not_your_turn(black: Player, refused: Refused) -> None:
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="go", size=9, color="black", name="Ann")
    )

    with pytest.raises(GameError, match="waiting for an opponent"):
        play.play(player=black, game_id=game.public_id, ply=0, point=[4, 4])
    refused("not_your_turn", play.pass_turn, game, player=black, ply=0)
    refused("not_your_turn", play.resign, game, player=black)
    refused("stale", play.play, game, player=black, ply=1, point=[4, 4])


@pytest.mark.parametrize("point", [[3, 3], [0, 0], [2, 2]], ids=["occupied", "far", "no-flip"])
def test_a_move_the_rules_forbid_is_an_illegal_move(
    black: Player, white: Player, refused: Refused, point: list[int]
) -> None:
    game = start(black, white)

    refused("illegal_move", play.play, game, player=black, ply=0, point=point)


def test_go_suicide_is_an_illegal_move(black: Player, white: Player, refused: Refused) -> None:
    game = start(
        black, white, kind="go", size=5, rows=[".W...", "W....", ".....", ".....", "....."]
    )

    refused("illegal_move", play.play, game, player=black, ply=0, point=[0, 0])


def test_othello_has_no_voluntary_pass(black: Player, white: Player, refused: Refused) -> None:
    game = start(black, white)

    refused("illegal_move", play.pass_turn, game, player=black, ply=0)


def test_go_while_scoring_play_and_pass_are_illegal_moves(
    black: Player, white: Player, refused: Refused
) -> None:
    game = start(black, white, kind="go", size=9)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.SCORING)

    for player in (black, white):
        refused("illegal_move", play.play, game, player=player, ply=0, point=[4, 4])
        refused("illegal_move", play.pass_turn, game, player=player, ply=0)


# pass_turn


def test_two_go_passes_count_with_territory_scoring_and_komi(
    black: Player, white: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    game = start(black, white, kind="go", size=5)
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 2])

    with django_capture_on_commit_callbacks(execute=True):
        [first] = play.pass_turn(player=white, game_id=game.public_id, ply=1)
    assert (first.ply, first.color, first.action, first.diff) == (
        2,
        "white",
        "pass",
        {"captured": []},
    )
    assert reload(game).status == Game.Status.ACTIVE

    with django_capture_on_commit_callbacks(execute=True):
        play.pass_turn(player=black, game_id=game.public_id, ply=2)

    # Play has ended: the players count. Black's 24 empty points against White's komi.
    game = reload(game)
    assert (game.status, game.result, game.ply) == ("scoring", "", 3)
    assert game.score == {"black": 24, "white": 6.5}
    assert [event["move"]["notation"] for _, event in broadcasts] == ["pass", "pass"]
    assert broadcasts[-1][1]["game"]["status"] == "scoring"
    assert broadcasts[-1][1]["game"]["score"] == {"black": 24, "white": 6.5}

    scoring_services.accept(player=black, game_id=game.public_id)
    scoring_services.accept(player=white, game_id=game.public_id)
    game = reload(game)
    assert (game.status, game.result, game.score) == (
        "finished",
        "B+17.5",
        {"black": 24, "white": 6.5},
    )


def test_two_passes_with_area_scoring_count_stones(black: Player, white: Player) -> None:
    game = lobby.create_game(
        player=black,
        new=lobby.NewGame(kind="go", size=5, color="black", name="A", komi=7.5, scoring="area"),
    )
    lobby.join_game(player=white, game_id=game.public_id, name="B")
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 2])
    play.pass_turn(player=white, game_id=game.public_id, ply=1)
    play.pass_turn(player=black, game_id=game.public_id, ply=2)
    scoring_services.accept(player=white, game_id=game.public_id)
    scoring_services.accept(player=black, game_id=game.public_id)

    game = reload(game)
    assert (game.result, game.score) == ("B+17.5", {"black": 25, "white": 7.5})


# resign


def test_either_player_may_resign_on_any_turn(
    black: Player, white: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    game = start(black, white)
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])

    with django_capture_on_commit_callbacks(execute=True):
        [move] = play.resign(player=black, game_id=game.public_id)

    game = reload(game)
    assert (move.ply, move.color, move.action, move.row) == (2, "black", "resign", None)
    assert (game.status, game.result, game.ply) == ("finished", "W+R", 2)
    assert game.finished_at is not None
    [(_, event)] = broadcasts
    assert event["move"] == {
        "ply": 2,
        "color": "black",
        "action": "resign",
        "point": None,
        "flipped": [],
        "notation": "resign",
        "clock_ms": None,
    }
    assert event["game"]["result"] == "W+R"
    assert type(event["move"]["action"]) is str
    assert event["game"]["to_move"] is None
    assert event["game"]["legal"] == []


def test_white_resigning_go_gives_b_plus_r(black: Player, white: Player) -> None:
    game = start(black, white, kind="go", size=9)

    [move] = play.resign(player=white, game_id=game.public_id)

    assert move.diff == {"captured": []}
    assert reload(game).result == "B+R"


# abort


def test_the_creator_aborts_before_anyone_joins(
    black: Player, white: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="othello", size=8, color="black", name="Ann")
    )

    with django_capture_on_commit_callbacks(execute=True):
        aborted = lobby.abort(player=black, game_id=game.public_id)

    game = reload(game)
    assert aborted.status == game.status == Game.Status.ABORTED
    assert game.finished_at is not None
    [(_, event)] = broadcasts
    assert (event["type"], event["game"]["status"]) == ("game.state", "aborted")
    # An aborted game takes no one and no move.
    assert lobby.join_game(player=white, game_id=game.public_id, name="Bob").status == ("aborted")
    assert error_of(play.play, player=black, game_id=game.public_id, ply=0, point=[2, 3]) == (
        "game_over"
    )


def test_abort_refusals(black: Player, white: Player, spectator: Player, refused: Refused) -> None:
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="othello", size=8, color="black", name="Ann")
    )

    refused("not_a_player", lobby.abort, game, player=white)
    lobby.join_game(player=white, game_id=game.public_id, name="Bob")
    refused("not_a_player", lobby.abort, game, player=spectator)
    refused("bad_request", lobby.abort, game, player=black)
    refused("bad_request", lobby.abort, game, player=white)


def test_the_admin_aborts_a_waiting_game_without_a_seat(
    black: Player, white: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="go", size=9, color="white", name="Ann")
    )

    with django_capture_on_commit_callbacks(execute=True):
        aborted = lobby.abort_as_admin(game_id=game.public_id)

    assert aborted.status == reload(game).status == Game.Status.ABORTED
    [(_, event)] = broadcasts
    assert (event["type"], event["game"]["status"]) == ("game.state", "aborted")


def test_the_admin_aborts_only_waiting_games(
    black: Player, white: Player, refused: Refused
) -> None:
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="othello", size=8, color="black", name="Ann")
    )
    lobby.join_game(player=white, game_id=game.public_id, name="Bob")
    refused("bad_request", lobby.abort_as_admin, game)
    play.resign(player=white, game_id=game.public_id)
    refused("game_over", lobby.abort_as_admin, game)


# The events reach the group through the configured channel layer


def test_a_group_member_receives_the_move(
    black: Player, white: Player, django_capture_on_commit_callbacks: Any
) -> None:
    game = start(black, white)
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(events.group_name(game.public_id), channel)

    with django_capture_on_commit_callbacks(execute=True):
        play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])

    (message,) = live_events.decoded(async_to_sync(layer.receive)(channel))
    assert message["type"] == "game.moved"
    assert message["move"]["point"] == [2, 3]
    assert message["game"]["ply"] == 1
    async_to_sync(layer.group_discard)(events.group_name(game.public_id), channel)


# The positions a process keeps


def test_the_stored_snapshot_wins_over_the_position_a_process_remembers(
    black: Player, white: Player
) -> None:
    game = start(black, white, kind="go", size=9)
    play.play(player=black, game_id=game.public_id, ply=0, point=[4, 4])
    remembered = selectors.position_of(reload(game))
    assert selectors.position_of(reload(game)) is remembered  # read once, then kept

    # The row changed behind the process's back (another process, an admin's shell).
    other = GoPosition.from_rows(["." * 9] * 8 + ["W" + "." * 8], Color.BLACK)
    Game.objects.filter(pk=game.pk).update(snapshot=other.to_snapshot(), to_move="black")

    assert selectors.position_of(reload(game)).rows() == other.rows()
    play.play(player=black, game_id=game.public_id, ply=1, point=[0, 0])
    assert reload(game).snapshot["rows"][0] == "B........"
    assert reload(game).snapshot["rows"][8] == "W........"
