"""games.services.computer: the computer's seat, its turns claimed by one live process at a
time, its moves through the same steps as a person's, and Go's count against it.

The engines themselves are tested in tests/engine; here the answer is given by hand, or
by gameengine.answer where the engines' own choice matters.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from accounts.players import Player
from gameengine import gnugo
from gameengine.answer import answer
from gamerules import Color, GoPosition, OthelloPosition
from gamerules.clock import TimeControl
from games import selectors
from games.models import Game
from games.services import computer, lobby, play, presence, scoring
from games.services.errors import GameError
from tests.conftest import FrozenClock
from tests.support.helpers import Events, reload

pytestmark = pytest.mark.django_db


def against_computer(
    player: Player, *, kind: str = "othello", size: int = 8, **options: Any
) -> Game:
    return lobby.create_game(
        player=player,
        new=lobby.NewGame(
            kind=kind,
            size=size,
            color=options.pop("color", "white"),
            name="Ann",
            opponent="computer",
            level=options.pop("level", 3),
            **options,
        ),
    )


def test_the_computer_takes_the_other_seat_at_once(black: Player) -> None:
    game = against_computer(black, kind="go", size=9, level=7)

    state = selectors.game_state(reload(game), you="white")
    assert (state["status"], state["computer"]) == ("active", "black")
    assert state["players"] == {"black": "GNU Go 3.8 (level 7)", "white": "Ann"}
    assert state["online"]["black"] is True
    # Nobody can sit in the computer's seat.
    assert lobby.join_game(player=Player(session_key="x"), game_id=game.public_id, name="X")
    assert selectors.color_of(reload(game), Player(session_key="x")) is None
    assert "Engine (level 2)" in against_computer(black, level=2).black_name


@override_settings(KATAGO={"command": ["katago"], "top_visits": 16})
def test_the_computers_go_seat_names_katago_where_it_plays(black: Player) -> None:
    game = against_computer(black, kind="go", size=9, level=7)
    assert game.black_name == "KataGo (level 7)"
    assert against_computer(black, level=2).black_name == "Engine (level 2)"


@pytest.mark.parametrize(
    ("options", "message"),
    [({"level": 0}, "level"), ({"level": 11}, "level"), ({"level": "5"}, "level")],
)
def test_a_level_out_of_range_is_refused(
    black: Player, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(GameError) as refused:
        against_computer(black, **options)
    assert refused.value.code == "bad_request"
    assert message in refused.value.message
    assert Game.objects.count() == 0


def test_when_the_computer_plays_black_its_turn_is_claimed_at_once(black: Player) -> None:
    game = against_computer(black)  # Ann plays White

    [turn] = computer.claim_turns(process="p1", limit=2)

    assert (turn.game_id, turn.task, turn.ply, turn.color, turn.level) == (
        game.public_id,
        "move",
        0,
        "black",
        3,
    )
    assert computer.claim_turns(process="p1", limit=2) == []  # already being thought


def test_a_persons_turn_is_not_the_computers(white: Player) -> None:
    against_computer(white, color="black")
    assert computer.claim_turns(process="p1", limit=2) == []


@override_settings(PROCESS_TIMEOUT=20)
def test_another_process_takes_a_turn_over_once_the_thinker_is_gone(
    black: Player, frozen_clock: FrozenClock
) -> None:
    game = against_computer(black)
    presence.heartbeat(process="killed")
    presence.heartbeat(process="alive")
    [turn] = computer.claim_turns(process="killed", limit=1)

    frozen_clock.advance(15)
    presence.heartbeat(process="alive")
    assert computer.claim_turns(process="alive", limit=1) == []  # still thought

    frozen_clock.advance(10)  # the killed process has written nothing for 25 s
    [again] = computer.claim_turns(process="alive", limit=1)
    assert again.game_id == turn.game_id == game.public_id

    # The killed process's answer, should it still come, is the same move at the same ply:
    # whichever arrives first is stored, the other finds the game moved on.
    assert computer.computer_move(game_id=game.public_id, ply=0, point=[2, 3])
    assert computer.computer_move(game_id=game.public_id, ply=0, point=[2, 3]) == []
    assert reload(game).ply == 1


def test_the_computers_move_is_stored_and_broadcast_like_a_persons(
    black: Player,
    frozen_clock: FrozenClock,
    broadcasts: Events,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = against_computer(black, time_control=TimeControl.fischer(main_time=60, increment=2))
    computer.claim_turns(process="p1", limit=1)
    frozen_clock.advance(3)

    with django_capture_on_commit_callbacks(execute=True):
        [move] = computer.computer_move(game_id=game.public_id, ply=0, point=[2, 3])

    game = reload(game)
    assert (move.color, move.action, move.row, move.col) == ("black", "place", 2, 3)
    assert move.clock_ms == 60_000  # its first move is free, like a person's
    assert (game.ply, game.to_move, game.computer_thinker) == (1, "white", "")
    [(_, event)] = broadcasts
    assert event["move"]["point"] == [2, 3]
    # Now it is Ann's turn: nothing for the computer.
    assert computer.claim_turns(process="p1", limit=1) == []
    play.play(player=black, game_id=game.public_id, ply=1, point=[2, 2])
    [turn] = computer.claim_turns(process="p1", limit=1)
    assert turn.ply == 2
    frozen_clock.advance(3)
    [move] = computer.computer_move(game_id=game.public_id, ply=2, point=[3, 2])
    assert move.clock_ms == 59_000  # then its clock runs like a person's


def test_an_answer_the_rules_refuse_changes_nothing(black: Player) -> None:
    game = against_computer(black)
    computer.claim_turns(process="p1", limit=1)
    with pytest.raises(GameError) as refused:
        computer.computer_move(game_id=game.public_id, ply=0, point=[0, 0])
    assert refused.value.code == "illegal_move"
    assert reload(game).ply == 0


def test_the_computer_resigns(black: Player) -> None:
    game = against_computer(black, kind="go", size=9)
    [move] = computer.computer_move(game_id=game.public_id, ply=0, point="resign")
    assert (move.action, move.color) == ("resign", "black")
    assert reload(game).result == "W+R"


def test_the_engine_answers_a_claimed_othello_turn_with_a_legal_move(black: Player) -> None:
    game = against_computer(black)
    [turn] = computer.claim_turns(process="p1", limit=1)

    point = answer(turn.__dict__)["point"]

    assert tuple(point) in OthelloPosition.start(8).legal_moves()
    computer.computer_move(game_id=game.public_id, ply=0, point=point)
    assert reload(game).ply == 1


# Go's count against the computer


def two_passes(game: Game, person: Player) -> None:
    """The person passes, then the computer: play has ended."""
    computer.computer_move(game_id=game.public_id, ply=game.ply, point=None)
    play.pass_turn(player=person, game_id=game.public_id, ply=game.ply + 1)


@pytest.fixture
def counted(black: Player) -> Game:
    """A 5x5 game against the computer (Black) after two passes: a White stone lies dead
    inside Black's wall (the rules' guess too)."""
    game = against_computer(black, kind="go", size=5)
    rows = ["BBBBB", "B.W.B", "BBBBB", ".....", "....."]
    position = GoPosition.from_rows(rows, to_move=GoPosition.start(5).to_move)
    start = {"rows": rows, "to_move": "black", "handicap": None}  # as an imported setup
    Game.objects.filter(pk=game.pk).update(snapshot=position.to_snapshot(), start=start)
    game = reload(game)
    two_passes(game, black)
    return reload(game)


def test_the_computers_dead_stones_become_the_marking_and_it_accepts(
    black: Player, counted: Game
) -> None:
    [turn] = computer.claim_turns(process="p1", limit=1)
    assert (turn.task, turn.marking) == ("count", counted.marking)

    assert counted.dead == [[1, 2]]  # the rules' guess

    # The computer sees it otherwise: its marking replaces the guess, and it accepts.
    computer.computer_count(game_id=counted.public_id, marking=turn.marking, dead=[])

    game = reload(counted)
    assert game.dead == []
    assert (game.black_accepted, game.white_accepted) == (True, False)
    assert game.marking == counted.marking + 1
    scoring.accept(player=black, game_id=game.public_id)
    assert reload(game).status == "finished"


def test_the_computer_accepts_the_guess_when_it_sees_the_same(black: Player, counted: Game) -> None:
    computer.computer_count(game_id=counted.public_id, marking=counted.marking, dead=[[1, 2]])
    game = reload(counted)
    assert (game.marking, game.black_accepted) == (counted.marking, True)


def test_the_computer_waits_on_a_marking_not_its_own(black: Player, counted: Game) -> None:
    computer.computer_count(game_id=counted.public_id, marking=counted.marking, dead=[[1, 2]])
    marking = reload(counted).marking

    scoring.mark(player=black, game_id=counted.public_id, point=[1, 2], marking=marking)
    game = reload(counted)
    assert (game.dead, game.black_accepted) == ([], False)
    scoring.accept(player=black, game_id=game.public_id)
    assert reload(game).status == "scoring"  # the computer does not agree

    scoring.mark(player=black, game_id=counted.public_id, point=[1, 2])  # back to its own
    game = reload(counted)
    assert game.black_accepted is True
    scoring.accept(player=black, game_id=game.public_id)
    assert reload(game).status == "finished"


def test_a_count_answer_for_an_old_marking_changes_nothing(black: Player, counted: Game) -> None:
    scoring.mark(player=black, game_id=counted.public_id, point=[1, 2])
    computer.computer_count(game_id=counted.public_id, marking=counted.marking, dead=[[1, 2]])
    game = reload(counted)
    assert game.computer_dead is None and game.black_accepted is False


@pytest.mark.skipif(not gnugo.available(), reason="GNU Go (Debian's gnugo) is not installed")
def test_gnu_go_answers_a_claimed_go_turn(black: Player, counted: Game) -> None:
    [turn] = computer.claim_turns(process="p1", limit=1)
    assert answer(turn.__dict__)["dead"] == [[1, 2]]


def test_the_archive_and_the_admin_filter_games_against_the_computer(
    black: Player, white: Player, admin_client: Any
) -> None:
    computer_game = against_computer(black)
    people = lobby.create_game(
        player=black, new=lobby.NewGame(kind="go", size=9, color="black", name="Ann")
    )
    lobby.join_game(player=white, game_id=people.public_id, name="Bob")

    def archived(query: str) -> list[str]:
        response = admin_client.get(f"/games/?{query}")
        return [game.public_id for game in response.context["page"].object_list]

    assert archived("opponent=computer") == [computer_game.public_id]
    assert archived("opponent=human") == [people.public_id]
    assert len(archived("")) == 2
    listed = admin_client.get("/admin/games/game/?opponent=computer").context["cl"].result_list
    assert [game.public_id for game in listed] == [computer_game.public_id]


@pytest.mark.skipif(not gnugo.available(), reason="GNU Go (Debian's gnugo) is not installed")
def test_gnu_go_plays_white_first_in_a_handicap_game(black: Player) -> None:
    game = against_computer(black, kind="go", size=9, color="black", handicap=4)

    [turn] = computer.claim_turns(process="p1", limit=1)
    assert (turn.color, turn.ply, turn.komi) == ("white", 0, 0.5)
    assert turn.setup == {"black": [(2, 2), (2, 6), (6, 2), (6, 6)], "white": []}
    point = answer(turn.__dict__)["point"]

    start = GoPosition.from_rows(reload(game).start["rows"], Color.WHITE)
    assert tuple(point) in start.legal_moves()
    [move] = computer.computer_move(game_id=game.public_id, ply=0, point=point)
    assert move.color == "white"
    assert selectors.game_state(reload(game), you="black")["to_move"] == "black"
