"""games.services.table: the chat, taking back a move, the rematch; and the lobby's
messages."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User

from accounts.players import Player
from gamerules import Move, OthelloPosition
from gamerules.clock import TimeControl
from gamerules.sgf import export_sgf
from games import records, selectors
from games.models import ChatMessage, Game
from games.services import computer, lobby, play, presence, table
from games.services.errors import GameError
from tests.conftest import FrozenClock
from tests.support.concurrency import at_once
from tests.support.helpers import Events, reload

pytestmark = pytest.mark.django_db

S = 1000


def start(black: Player, white: Player, **options: Any) -> Game:
    game = lobby.create_game(
        player=black,
        new=lobby.NewGame(
            kind=options.pop("kind", "othello"),
            size=options.pop("size", 8),
            color="black",
            name="Ann",
            **options,
        ),
    )
    return lobby.join_game(player=white, game_id=game.public_id, name="Bob")


def code(call: Any, **arguments: Any) -> str:
    with pytest.raises(GameError) as refused:
        call(**arguments)
    return refused.value.code


# The chat


def test_players_and_spectators_chat_and_the_history_keeps_the_last_100(
    black: Player,
    white: Player,
    spectator: Player,
    broadcasts: Events,
    django_capture_on_commit_callbacks: Any,
    frozen_clock: FrozenClock,
) -> None:
    game = start(black, white)
    with django_capture_on_commit_callbacks(execute=True):
        table.say(player=black, game_id=game.public_id, name="ignored", text="  good luck ")
        table.say(player=spectator, game_id=game.public_id, name="Cy", text="<b>hi</b>")

    said = [(m.name, m.color, m.text) for m in table.chat_history(game.public_id)]
    assert said == [("Ann", "black", "good luck"), ("Cy", "", "<b>hi</b>")]
    message = broadcasts[-1][1]
    assert message["type"] == "game.chat"
    assert message["message"]["text"] == "<b>hi</b>"  # stored and sent as it was: shown inert
    assert (message["message"]["name"], message["message"]["color"]) == ("Cy", None)

    for number in range(105):
        frozen_clock.advance(2)  # within the chat's limit
        table.say(player=white, game_id=game.public_id, name="", text=f"{number}")
    history = table.chat_history(game.public_id)
    assert len(history) == 100
    assert (history[0].text, history[-1].text) == ("5", "104")


@pytest.mark.parametrize("text", ["", "   ", "x" * 301, None, 5, ["hi"]])
def test_a_chat_text_must_be_1_to_300_characters(black: Player, text: Any) -> None:
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="go", size=9, color="black", name="Ann")
    )
    assert code(table.say, player=black, game_id=game.public_id, name="A", text=text) == (
        "bad_request"
    )
    assert ChatMessage.objects.count() == 0


def test_a_speaker_says_at_most_5_lines_in_10_s_in_a_game(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    """Counted by speaker and game in the database, whatever socket or process says it: an
    account by its account (from any browser), a guest by its session."""
    game = start(black, white)
    other = lobby.create_game(
        player=black, new=lobby.NewGame(kind="go", size=9, color="black", name="Ann")
    )

    def say(player: Player, text: Any = "hi", game_id: str = game.public_id) -> str:
        try:
            table.say(player=player, game_id=game_id, name="", text=text)
        except GameError as error:
            return error.code
        return "said"

    began = frozen_clock.now
    for _ in range(5):  # one a second
        assert say(black) == "said"
        frozen_clock.advance(1)
    assert say(black) == "rate_limited"
    assert say(black, "") == "rate_limited"  # the limit is answered first
    assert say(white) == "said"  # each speaker counts apart
    assert say(black, game_id=other.public_id) == "said"  # and each game
    frozen_clock.now = began + datetime.timedelta(seconds=9.9)
    assert say(black) == "rate_limited"
    frozen_clock.now = began + datetime.timedelta(seconds=10)  # the first line is 10 s old
    assert say(black) == "said"
    assert say(black) == "rate_limited"
    assert ChatMessage.objects.filter(game=game, color="black").count() == 6

    account = Player(session_key="one-browser", user_id=User.objects.create_user("carol").pk)
    for _ in range(5):
        assert say(account) == "said"
    assert say(Player(session_key="another-browser", user_id=account.user_id)) == "rate_limited"


@pytest.mark.django_db(transaction=True)
def test_two_processes_saying_at_once_store_5_lines_between_them(black: Player) -> None:
    """Two connections (two daphne processes) say a player's lines at the same moment: the
    game's lock makes them count one after the other."""
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="go", size=9, color="black", name="Ann")
    )

    def say_five() -> list[str]:
        said = []
        for number in range(5):
            try:
                table.say(player=black, game_id=game.public_id, name="", text=f"{number}")
                said.append("said")
            except GameError as error:
                said.append(error.code)
        return said

    outcomes = at_once(say_five, say_five)

    assert sorted(outcomes[0] + outcomes[1]).count("said") == 5
    assert ChatMessage.objects.count() == 5


# Taking back a move


def test_a_move_taken_back_leaves_the_record_as_if_never_played(
    black: Player, white: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    game = start(black, white)
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
    play.play(player=white, game_id=game.public_id, ply=1, point=[2, 2])
    before = reload(game)

    table.ask_undo(player=white, game_id=game.public_id, ply=2)
    assert selectors.game_state(reload(game), you=None)["undo"] == "white"
    with django_capture_on_commit_callbacks(execute=True):
        table.accept_undo(player=black, game_id=game.public_id, ply=2)

    game = reload(game)
    expected, _ = OthelloPosition.start(8).play(Move.place((2, 3)))
    assert (game.ply, game.to_move, game.snapshot) == (1, "white", expected.to_snapshot())
    assert [move.ply for move in game.moves.all()] == [1]
    assert game.score == {"black": 4, "white": 1}
    assert before.ply == 2
    [(_, undone)] = broadcasts
    assert undone["type"] == "game.undone"
    assert [move["ply"] for move in undone["game"]["moves"]] == [1]
    assert undone["game"]["undo"] is None


def test_an_othello_move_is_taken_back_with_the_automatic_pass_after_it(
    black: Player, white: Player
) -> None:
    game = start(black, white, size=4)
    for ply, point in enumerate([[0, 1], [0, 2], [2, 3]]):
        play.play(
            player=black if ply % 2 == 0 else white, game_id=game.public_id, ply=ply, point=point
        )
    play.play(player=white, game_id=game.public_id, ply=3, point=[0, 0])  # Black passes
    assert reload(game).ply == 5

    table.ask_undo(player=white, game_id=game.public_id, ply=5)
    table.accept_undo(player=black, game_id=game.public_id, ply=5)

    game = reload(game)
    assert (game.ply, game.to_move) == (3, "white")
    assert [move.action for move in game.moves.all()] == ["place"] * 3


def test_the_clocks_are_restored(black: Player, white: Player, frozen_clock: FrozenClock) -> None:
    control = TimeControl.fischer(main_time=60, increment=5)
    game = start(black, white, time_control=control)
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])  # first moves:
    play.play(player=white, game_id=game.public_id, ply=1, point=[2, 2])  # free
    frozen_clock.advance(10)
    play.play(player=black, game_id=game.public_id, ply=2, point=[3, 2])  # Black: 55
    frozen_clock.advance(20)
    play.play(player=white, game_id=game.public_id, ply=3, point=[2, 4])  # White: 45
    frozen_clock.advance(7)  # Black thinks

    table.ask_undo(player=white, game_id=game.public_id, ply=4)
    table.accept_undo(player=black, game_id=game.public_id, ply=4)
    frozen_clock.advance(2)

    clock = selectors.game_state(reload(game), you=None)["clock"]
    assert clock["running"] == "white"
    # White's time as before its move (as its first move left it), its turn starting at
    # the take-back; Black's as its own move left it (its 7 s of thinking meanwhile are
    # not charged).
    assert (clock["white"]["remaining_ms"], clock["black"]["remaining_ms"]) == (58 * S, 55 * S)


def test_take_back_refusals(black: Player, white: Player, spectator: Player) -> None:
    game = start(black, white)
    assert code(table.ask_undo, player=black, game_id=game.public_id, ply=0) == "illegal_move"
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
    assert code(table.ask_undo, player=spectator, game_id=game.public_id, ply=1) == ("not_a_player")
    assert code(table.ask_undo, player=black, game_id=game.public_id, ply=0) == "stale"
    assert code(table.ask_undo, player=white, game_id=game.public_id, ply=1) == (
        "illegal_move"  # not White's move
    )
    assert code(table.accept_undo, player=white, game_id=game.public_id, ply=1) == (
        "illegal_move"  # nothing asked
    )
    table.ask_undo(player=black, game_id=game.public_id, ply=1)
    assert code(table.ask_undo, player=black, game_id=game.public_id, ply=1) == (
        "illegal_move"  # one request at a time
    )
    assert code(table.accept_undo, player=black, game_id=game.public_id, ply=1) == (
        "illegal_move"  # not one's own
    )
    table.decline_undo(player=white, game_id=game.public_id, ply=1)
    assert code(table.ask_undo, player=black, game_id=game.public_id, ply=1) == (
        "illegal_move"  # declined: not again before the next move
    )
    play.resign(player=white, game_id=game.public_id)
    assert code(table.ask_undo, player=black, game_id=game.public_id, ply=2) == "game_over"


def test_a_new_move_cancels_a_pending_request(black: Player, white: Player) -> None:
    game = start(black, white)
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
    table.ask_undo(player=black, game_id=game.public_id, ply=1)
    play.play(player=white, game_id=game.public_id, ply=1, point=[2, 2])
    assert reload(game).undo_request == ""
    assert code(table.accept_undo, player=white, game_id=game.public_id, ply=2) == ("illegal_move")


def against_computer(person: Player, **options: Any) -> Game:
    return lobby.create_game(
        player=person,
        new=lobby.NewGame(
            kind="othello",
            size=options.pop("size", 8),
            color=options.pop("color", "black"),
            name="Ann",
            opponent="computer",
            level=1,
            **options,
        ),
    )


def test_the_computer_agrees_to_take_a_move_back(black: Player) -> None:
    game = against_computer(black)
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
    table.ask_undo(player=black, game_id=game.public_id, ply=1)
    assert (reload(game).ply, reload(game).to_move) == (0, "black")


def test_against_the_computer_a_move_is_taken_back_with_its_reply(
    black: Player,
    frozen_clock: FrozenClock,
    broadcasts: Events,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = against_computer(black, time_control=TimeControl.fischer(main_time=60, increment=5))
    frozen_clock.advance(10)
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])  # a first move: free
    computer.claim_turns(process="p1", limit=1)
    frozen_clock.advance(3)
    computer.computer_move(game_id=game.public_id, ply=1, point=[2, 2])  # free too
    frozen_clock.advance(4)  # Ann thinks: from here the clocks run
    after_first_moves = reload(game).snapshot
    play.play(player=black, game_id=game.public_id, ply=2, point=[2, 1])  # Ann: 61
    computer.claim_turns(process="p1", limit=1)
    frozen_clock.advance(3)
    reply = selectors.game_state(reload(game), you=None)["legal"][0]
    computer.computer_move(game_id=game.public_id, ply=3, point=reply)  # the computer: 62
    frozen_clock.advance(4)  # Ann thinks
    broadcasts.clear()

    with django_capture_on_commit_callbacks(execute=True):
        table.ask_undo(player=black, game_id=game.public_id, ply=4)

    game = reload(game)
    assert (game.ply, game.to_move, game.moves.count()) == (2, "black", 2)
    assert game.snapshot == after_first_moves
    clock = selectors.game_state(game, you="black")["clock"]
    assert (clock["running"], clock["black"]["remaining_ms"], clock["white"]["remaining_ms"]) == (
        "black",
        60 * S,
        60 * S,
    )
    [(_, undone)] = broadcasts
    assert (undone["type"], len(undone["game"]["moves"]), undone["game"]["undo"]) == (
        "game.undone",
        2,
        None,
    )
    # Ann's turn: the computer waits for her next move, and answers that one.
    assert computer.claim_turns(process="p1", limit=1) == []
    play.play(player=black, game_id=game.public_id, ply=2, point=[2, 1])
    [turn] = computer.claim_turns(process="p1", limit=1)
    assert turn.ply == 3


def test_an_othello_take_back_against_the_computer_goes_back_past_the_automatic_pass(
    black: Player,
) -> None:
    game = against_computer(black, size=4)
    # Ann b1, the computer c1, Ann d3, the computer a1: Ann has no move (the server
    # passes for her), and the computer is to move again.
    for ply, point in enumerate([[0, 1], [0, 2], [2, 3], [0, 0]]):
        if ply % 2 == 0:
            play.play(player=black, game_id=game.public_id, ply=ply, point=point)
        else:
            computer.computer_move(game_id=game.public_id, ply=ply, point=point)
    assert (reload(game).ply, reload(game).to_move) == (5, "white")

    table.ask_undo(player=black, game_id=game.public_id, ply=5)

    game = reload(game)
    assert (game.ply, game.to_move) == (2, "black")
    assert [(m.color, m.row, m.col) for m in game.moves.all()] == [
        ("black", 0, 1),
        ("white", 0, 2),
    ]


def test_an_answer_thought_before_the_take_back_is_never_played(
    black: Player, frozen_clock: FrozenClock
) -> None:
    game = against_computer(black)
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
    [old] = computer.claim_turns(process="p1", limit=1)
    table.ask_undo(player=black, game_id=game.public_id, ply=1)
    frozen_clock.advance(1)
    play.play(player=black, game_id=game.public_id, ply=0, point=[3, 2])
    [new] = computer.claim_turns(process="p1", limit=1)  # not held back by the old claim

    # The old answer (to d3, now the same ply of another position) arrives first.
    stale = computer.computer_move(
        game_id=game.public_id, ply=old.ply, point=[2, 2], claimed_at=old.claimed_at
    )
    assert (stale, reload(game).ply) == ([], 1)
    [move] = computer.computer_move(
        game_id=game.public_id, ply=new.ply, point=[2, 4], claimed_at=new.claimed_at
    )
    assert (move.row, move.col, reload(game).ply) == (2, 4, 2)


def test_nothing_to_take_back_against_the_computer(white: Player) -> None:
    game = against_computer(white, color="white")
    computer.computer_move(game_id=game.public_id, ply=0, point=[2, 3])  # the computer first
    assert code(table.ask_undo, player=white, game_id=game.public_id, ply=1) == ("illegal_move")
    assert reload(game).ply == 1


def test_a_rated_game_takes_nothing_back_against_the_computer(black: Player) -> None:
    game = against_computer(black)
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
    # No such game can be created (rated games are between two people): made by hand.
    Game.objects.filter(pk=game.pk).update(rated=True)

    assert code(table.ask_undo, player=black, game_id=game.public_id, ply=1) == ("illegal_move")
    assert reload(game).ply == 1


# The rematch


def test_a_rematch_offered_and_accepted_swaps_the_colours(
    black: Player, white: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    game = start(
        black,
        white,
        kind="go",
        size=9,
        komi=0.5,
        scoring="area",
        time_control=TimeControl.byoyomi(main_time=60, periods=3, period_time=10),
    )
    assert code(table.offer_rematch, player=black, game_id=game.public_id) == "illegal_move"
    play.resign(player=white, game_id=game.public_id)

    table.offer_rematch(player=white, game_id=game.public_id)
    assert selectors.game_state(reload(game), you=None)["rematch"] == "white"
    with django_capture_on_commit_callbacks(execute=True):
        table.offer_rematch(player=black, game_id=game.public_id)

    new = reload(game).rematch
    assert new is not None
    assert selectors.game_state(reload(game), you=None)["rematch"] == new.public_id
    assert (new.kind, new.size, new.komi, new.scoring_method, new.status) == (
        "go",
        9,
        0.5,
        "area",
        "active",
    )
    assert new.time_control == game.time_control
    assert selectors.color_of(new, black) == "white"
    assert selectors.color_of(new, white) == "black"
    assert (new.black_name, new.white_name) == ("Bob", "Ann")
    assert [event["type"] for _, event in broadcasts][-1] == "game.rematch"
    assert broadcasts[-1][1]["game_id"] == new.public_id
    assert code(table.offer_rematch, player=black, game_id=game.public_id) == "illegal_move"


def test_a_rematch_against_the_computer_starts_at_once(black: Player) -> None:
    game = lobby.create_game(
        player=black,
        new=lobby.NewGame(
            kind="othello", size=6, color="black", name="Ann", opponent="computer", level=4
        ),
    )
    play.resign(player=black, game_id=game.public_id)

    table.offer_rematch(player=black, game_id=game.public_id)

    new = reload(game).rematch
    assert new is not None
    assert (new.computer_color, new.computer_level, new.status) == ("black", 4, "active")
    assert selectors.color_of(new, black) == "white"
    assert new.black_name == "Engine (level 4)" and new.black_online


# The lobby


def test_the_lobby_is_told_when_its_list_changes(
    black: Player,
    white: Player,
    lobby_broadcasts: list[dict[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = lobby.create_game(
            player=black, new=lobby.NewGame(kind="go", size=9, color="black", name="Ann")
        )
        presence.connected(player=black, game_id=game.public_id, process="p", channel_name="a")
    assert [entry["id"] for entry in lobby_broadcasts[-1]["games"]] == [game.public_id]
    assert lobby_broadcasts[-1]["playing"] == 0

    with django_capture_on_commit_callbacks(execute=True):
        lobby.join_game(player=white, game_id=game.public_id, name="Bob")
    # Not offered any more; not being played either until a move is made (below).
    assert (lobby_broadcasts[-1]["games"], lobby_broadcasts[-1]["playing"]) == ([], 0)


def test_games_being_played_are_those_with_a_move_in_the_last_ten_minutes(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    nobody_moved = lobby.create_game(
        player=black,
        new=lobby.NewGame(
            kind="othello", size=8, color="white", name="Ann", opponent="computer", level=1
        ),
    )
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="go", size=9, color="black", name="Ann")
    )
    lobby.join_game(player=white, game_id=game.public_id, name="Bob")
    assert selectors.playing_count() == 0

    play.play(player=black, game_id=game.public_id, ply=0, point=[4, 4])
    assert list(selectors.being_played()) == [game]
    assert selectors.playing_count() == 1

    frozen_clock.advance(9 * 60 + 59)
    play.pass_turn(player=white, game_id=game.public_id, ply=1)
    play.pass_turn(player=black, game_id=game.public_id, ply=2)  # being counted: in play
    frozen_clock.advance(9 * 60 + 59)
    assert selectors.playing_count() == 1
    frozen_clock.advance(2)  # over ten minutes since its last move: nobody plays it
    assert selectors.playing_count() == 0
    assert reload(nobody_moved).status == "active"  # in progress, but not being played


def test_the_rematch_of_a_handicap_game_keeps_the_handicap(black: Player, white: Player) -> None:
    game = start(black, white, kind="go", size=13, handicap=5)
    play.resign(player=white, game_id=game.public_id)
    table.offer_rematch(player=black, game_id=game.public_id)
    table.offer_rematch(player=white, game_id=game.public_id)

    new = reload(game).rematch
    assert new is not None
    seen = selectors.game_state(new, you="black")
    assert (seen["handicap"], seen["komi"], seen["to_move"], seen["status"]) == (
        5,
        0.5,
        "white",
        "active",
    )
    assert seen["board"] == reload(game).start["rows"]
    assert seen["players"] == {"black": "Bob", "white": "Ann"}


def test_chat_said_after_a_move_taken_back_follows_the_move_before_it(
    black: Player, white: Player, spectator: Player
) -> None:
    game = start(black, white, kind="go", size=9)
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 2])
    table.say(player=white, game_id=game.public_id, name="", text="after the first")
    play.play(player=white, game_id=game.public_id, ply=1, point=[6, 6])
    table.say(player=black, game_id=game.public_id, name="", text="oops")
    table.ask_undo(player=white, game_id=game.public_id, ply=2)
    table.say(player=spectator, game_id=game.public_id, name="Cy", text="while asked")
    table.accept_undo(player=black, game_id=game.public_id, ply=2)
    play.play(player=white, game_id=game.public_id, ply=1, point=[4, 4])
    play.resign(player=white, game_id=game.public_id)

    game = reload(game)
    said = [(message.text, message.ply) for message in game.chat.all()]
    assert said == [("after the first", 1), ("oops", 1), ("while asked", 1)]
    replayed = [(message["text"], message["ply"]) for message in records.replay_data(game)["chat"]]
    assert replayed == [("after the first", 1), ("oops", 1)]  # the players'
    sgf = export_sgf(records.record_of(game))
    assert "B[cc]C[Bob: after the first\nAnn: oops]W[ee]" in sgf.replace(";", "")
