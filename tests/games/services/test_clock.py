"""games.services.clock with a frozen clock: the first moves (free, due within
FIRST_MOVE_SECONDS, else the game is aborted), charging moves, the flag, a move too late,
never flagging twice, the site's downtime credited; G's clock and M's clock_ms.

No test sleeps: Django's clock stands still (``frozen_clock``) and moves when told.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from accounts.players import Player
from gamerules.clock import TimeControl
from games import selectors
from games.models import Game, Move, ServerProcess
from games.services import clock as clock_services
from games.services import computer, lobby, play, presence, scoring, table
from games.services.errors import GameError
from tests.conftest import FrozenClock
from tests.support.helpers import Events, reload

pytestmark = pytest.mark.django_db

S = 1000
FISCHER = TimeControl.fischer(main_time=60, increment=5)
BYOYOMI = TimeControl.byoyomi(main_time=10, periods=2, period_time=5)
ABSOLUTE = TimeControl.absolute(main_time=3)


FIRST_MOVES = {"othello": ([2, 3], [2, 2]), "go": ([0, 0], [0, 1])}
"""Each side's first move (d3 c3; Go: a1 b1 from the top), made at no time."""


def seated(
    black: Player,
    white: Player,
    control: TimeControl | None,
    *,
    kind: str = "othello",
    size: int = 8,
) -> Game:
    """A game with ``control``, Ann (Black) and Bob (White) seated: no move yet."""
    game = lobby.create_game(
        player=black,
        new=lobby.NewGame(kind=kind, size=size, color="black", name="Ann", time_control=control),
    )
    return lobby.join_game(player=white, game_id=game.public_id, name="Bob")


def start(
    black: Player,
    white: Player,
    control: TimeControl | None,
    *,
    kind: str = "othello",
    size: int = 8,
) -> Game:
    """``seated``, then each side's first move at once: the clocks run from here, Black's
    (at ply 2) first."""
    game = seated(black, white, control, kind=kind, size=size)
    for ply, (player, point) in enumerate(zip((black, white), FIRST_MOVES[kind], strict=True)):
        play.play(player=player, game_id=game.public_id, ply=ply, point=point)
    return reload(game)


def clock(game: Game) -> dict[str, Any]:
    state = selectors.game_state(reload(game), you=None)
    assert state["clock"] is not None
    return dict(state["clock"])


def at(seconds: float, since: datetime.datetime) -> str:
    """The ISO 8601 moment ``seconds`` after ``since``, as G writes it."""
    return (since + datetime.timedelta(seconds=seconds)).isoformat()


# The first moves


def test_no_clock_runs_until_both_sides_have_made_their_first_move(
    black: Player, white: Player, frozen_clock: FrozenClock, settings: Any
) -> None:
    settings.FIRST_MOVE_SECONDS = 30
    game = lobby.create_game(
        player=black,
        new=lobby.NewGame(kind="othello", size=8, color="black", name="Ann", time_control=FISCHER),
    )
    frozen_clock.advance(100)
    waiting = clock(game)
    assert (waiting["running"], waiting["first_move_by"]) == (None, None)
    assert waiting["black"]["remaining_ms"] == 60 * S

    lobby.join_game(player=white, game_id=game.public_id, name="Bob")
    joined = frozen_clock.now
    frozen_clock.advance(7)
    before = clock(game)
    assert (before["running"], before["first_move_by"]) == (None, at(30, joined))
    assert before["first_move_ms"] == 23 * S
    assert (before["black"]["remaining_ms"], before["white"]["remaining_ms"]) == (60 * S, 60 * S)
    assert before["system"] == "fischer"
    assert (before["main_time"], before["increment"], before["periods"]) == (60, 5, None)

    frozen_clock.advance(20)  # 27 s: Black's first move costs nothing, earns nothing
    [move] = play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
    assert move.clock_ms == 60 * S
    moved = frozen_clock.now
    frozen_clock.advance(29)  # White's 30 s run from the start of its turn
    assert clock(game)["first_move_by"] == at(30, moved)
    assert clock(game)["running"] is None
    [move] = play.play(player=white, game_id=game.public_id, ply=1, point=[2, 2])
    assert move.clock_ms == 60 * S

    frozen_clock.advance(7)  # both have moved: Black's clock runs
    running = clock(game)
    assert (running["running"], running["first_move_by"], running["first_move_ms"]) == (
        "black",
        None,
        None,
    )
    assert (running["black"]["remaining_ms"], running["white"]["remaining_ms"]) == (53 * S, 60 * S)


@pytest.mark.parametrize("first", ["black", "white"])
def test_a_first_move_not_made_in_time_aborts_the_game(
    black: Player,
    white: Player,
    frozen_clock: FrozenClock,
    settings: Any,
    broadcasts: Events,
    lobby_broadcasts: list[dict[str, Any]],
    django_capture_on_commit_callbacks: Any,
    first: str,
) -> None:
    settings.FIRST_MOVE_SECONDS = 30
    game = seated(black, white, ABSOLUTE)
    if first == "white":  # Black moved: White's turn, its first move due in 30 s
        frozen_clock.advance(10)
        play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
    frozen_clock.advance(29.999)
    assert clock_services.flag(game_id=game.public_id) == []  # not yet
    assert clock_services.flag_due() == []
    frozen_clock.advance(0.001)  # exactly at the deadline: too late

    with django_capture_on_commit_callbacks(execute=True):
        [ended] = clock_services.flag_due()

    game = reload(game)
    assert ended.public_id == game.public_id
    assert (game.status, game.result, game.deadline, game.turn_started_at) == (
        "aborted",
        "",
        None,
        None,
    )
    assert game.moves.count() == (0 if first == "black" else 1)  # nothing stored for it
    [(_, event)] = broadcasts
    assert event["type"] == "game.state"
    assert (event["game"]["status"], event["game"]["result"]) == ("aborted", None)
    assert event["game"]["aborted"] == {"reason": "first_move", "color": first}
    assert event["game"]["clock"]["running"] is None
    assert event["game"]["clock"]["first_move_by"] is None
    assert event["game"]["clock"][first]["remaining_ms"] == 3 * S  # no time was charged
    assert lobby_broadcasts  # its count of games being played changed
    # Never twice.
    assert clock_services.flag(game_id=game.public_id) == []
    assert clock_services.flag_due() == []


def test_a_first_move_after_its_deadline_is_never_stored_the_game_is_aborted(
    black: Player, white: Player, frozen_clock: FrozenClock, settings: Any
) -> None:
    settings.FIRST_MOVE_SECONDS = 30
    game = seated(black, white, FISCHER)
    frozen_clock.advance(31)

    with pytest.raises(GameError) as late:
        play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])

    assert late.value.code == "game_over"
    game = reload(game)
    assert (game.status, game.result, game.ply, game.moves.count()) == ("aborted", "", 0, 0)


def test_a_correspondence_clock_has_no_first_moves(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    game = seated(black, white, TimeControl.correspondence(days=1))
    frozen_clock.advance(3600)
    state = clock(game)
    assert (state["running"], state["first_move_by"]) == ("black", None)
    assert state["black"]["remaining_ms"] == 23 * 3600 * S
    frozen_clock.advance(23 * 3600)
    [ended] = clock_services.flag_due()
    assert (reload(ended).status, reload(ended).result) == ("finished", "W+T")


def test_taking_back_a_first_move_gives_its_side_a_new_first_move(
    black: Player, white: Player, frozen_clock: FrozenClock, settings: Any
) -> None:
    settings.FIRST_MOVE_SECONDS = 30
    game = seated(black, white, FISCHER)
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
    frozen_clock.advance(20)
    play.play(player=white, game_id=game.public_id, ply=1, point=[2, 2])
    frozen_clock.advance(5)
    table.ask_undo(player=white, game_id=game.public_id, ply=2)
    table.accept_undo(player=black, game_id=game.public_id, ply=2)
    undone = frozen_clock.now

    frozen_clock.advance(29)
    state = clock(game)
    assert (state["running"], state["first_move_by"]) == (None, at(30, undone))
    assert state["white"]["remaining_ms"] == 60 * S
    frozen_clock.advance(1)
    [ended] = clock_services.flag_due()
    assert reload(ended).status == "aborted"


def test_against_the_computer_the_persons_first_move_is_due_not_the_computers(
    black: Player, frozen_clock: FrozenClock, settings: Any
) -> None:
    settings.FIRST_MOVE_SECONDS = 30
    game = lobby.create_game(
        player=black,
        new=lobby.NewGame(
            kind="othello",
            size=8,
            color="white",
            name="Ann",
            time_control=FISCHER,
            opponent="computer",
            level=1,
        ),
    )
    # The computer (Black) moves at once; however long the site takes to let it, nobody
    # is blamed for that.
    assert clock(game)["first_move_by"] is None
    frozen_clock.advance(100)
    assert clock_services.flag_due() == []
    [move] = computer.computer_move(game_id=game.public_id, ply=0, point=[2, 3])
    assert move.clock_ms == 60 * S  # free

    assert clock(game)["first_move_by"] == at(30, frozen_clock.now)
    frozen_clock.advance(30)  # Ann never moves
    [ended] = clock_services.flag_due()
    assert reload(ended).status == "aborted"
    state = selectors.game_state(reload(game), you="white")
    assert state["aborted"] == {"reason": "first_move", "color": "white"}


def test_a_rematch_starts_with_first_moves(
    black: Player, white: Player, frozen_clock: FrozenClock, settings: Any
) -> None:
    settings.FIRST_MOVE_SECONDS = 30
    game = start(black, white, FISCHER)
    play.resign(player=black, game_id=game.public_id)
    table.offer_rematch(player=black, game_id=game.public_id)
    table.offer_rematch(player=white, game_id=game.public_id)
    rematch = reload(game).rematch
    assert rematch is not None and rematch.black_session_key == white.session_key

    assert clock(rematch)["first_move_by"] == at(30, frozen_clock.now)
    frozen_clock.advance(30)  # Bob, Black now, never moves: aborted, nobody wins
    [ended] = clock_services.flag_due()
    assert (reload(ended).status, reload(ended).result) == ("aborted", "")


# Charging


def test_each_move_charges_its_mover_by_the_servers_clock(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    game = start(black, white, FISCHER)
    frozen_clock.advance(10)
    [move] = play.play(player=black, game_id=game.public_id, ply=2, point=[3, 2])
    assert move.clock_ms == 55 * S  # 60 - 10 + 5
    frozen_clock.advance(2.5)
    [move] = play.play(player=white, game_id=game.public_id, ply=3, point=[2, 4])
    assert move.clock_ms == 62_500  # 60 - 2.5 + 5

    frozen_clock.advance(1)
    now = clock(game)
    assert now["running"] == "black"
    assert (now["black"]["remaining_ms"], now["white"]["remaining_ms"]) == (54 * S, 62_500)
    assert selectors.move_json(reload(game).moves.last())["clock_ms"] == 62_500


def test_byoyomi_periods_in_g(black: Player, white: Player, frozen_clock: FrozenClock) -> None:
    game = start(black, white, BYOYOMI, kind="go", size=9)
    frozen_clock.advance(12)  # main time gone, 2 s into the first period
    assert clock(game)["black"] == {
        "remaining_ms": 3 * S,
        "periods": 2,
        "stones": None,
        "overtime": True,
    }
    [move] = play.play(player=black, game_id=game.public_id, ply=2, point=[4, 4])
    assert move.clock_ms == 5 * S  # a move within a period resets it
    assert clock(game)["black"]["periods"] == 2


def test_othellos_automatic_pass_takes_no_time(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    # 4x4: after b1, c1, d3 and White's a1, Black has no move and passes automatically.
    game = seated(black, white, FISCHER, size=4)
    line = [[0, 1], [0, 2], [2, 3]]
    for ply, point in enumerate(line):
        frozen_clock.advance(1)
        mover = black if ply % 2 == 0 else white
        play.play(player=mover, game_id=game.public_id, ply=ply, point=point)
    frozen_clock.advance(4)
    placed, passed = play.play(player=white, game_id=game.public_id, ply=3, point=[0, 0])
    # The first moves (b1, c1) free; then White: 60 - 4 + 5 at ply 3; Black: 60 - 1 + 5.
    assert (placed.clock_ms, passed.action, passed.color) == (61 * S, "pass", "black")
    assert passed.clock_ms == 64 * S  # Black's time as its last move left it
    frozen_clock.advance(3)
    now = clock(game)
    assert now["running"] == "white"  # White's turn again, since the pass
    assert (now["white"]["remaining_ms"], now["black"]["remaining_ms"]) == (58 * S, 64 * S)


def test_two_passes_stop_both_clocks_and_resuming_starts_them(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    game = seated(black, white, FISCHER, kind="go", size=5)
    # Voluntary passes are first moves too: free.
    frozen_clock.advance(10)
    [passed] = play.pass_turn(player=black, game_id=game.public_id, ply=0)
    assert passed.clock_ms == 60 * S
    frozen_clock.advance(10)
    play.pass_turn(player=white, game_id=game.public_id, ply=1)
    frozen_clock.advance(500)  # counting takes no time off anyone
    assert clock(game)["running"] is None
    assert reload(game).deadline is None

    scoring.resume(player=white, game_id=game.public_id)
    frozen_clock.advance(4)
    assert clock(game)["running"] == "black"
    assert clock(game)["black"]["remaining_ms"] == 56 * S


def test_a_game_without_a_clock_has_none(black: Player, white: Player) -> None:
    game = seated(black, white, None)
    [move] = play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
    assert move.clock_ms is None
    assert selectors.game_state(reload(game), you=None)["clock"] is None
    assert reload(game).deadline is None


# The flag


def test_the_flag_stores_a_timeout_and_ends_the_game(
    black: Player,
    white: Player,
    frozen_clock: FrozenClock,
    broadcasts: Events,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = start(black, white, ABSOLUTE)
    frozen_clock.advance(2.999)
    assert clock_services.flag(game_id=game.public_id) == []  # not yet
    frozen_clock.advance(0.001)  # exactly at the deadline: out

    with django_capture_on_commit_callbacks(execute=True):
        [move] = clock_services.flag(game_id=game.public_id)

    game = reload(game)
    assert (move.action, move.color, move.clock_ms, move.ply) == ("timeout", "black", 0, 3)
    assert (game.status, game.result, game.deadline) == ("finished", "W+T", None)
    [(_, event)] = broadcasts
    assert event["type"] == "game.moved"
    assert (event["move"]["action"], event["move"]["notation"]) == ("timeout", "time")
    assert event["game"]["clock"]["black"]["remaining_ms"] == 0
    assert event["game"]["clock"]["running"] is None
    # Never twice.
    assert clock_services.flag(game_id=game.public_id) == []
    assert clock_services.flag_due() == []
    assert game.moves.count() == 3


def test_the_watch_flags_every_game_due_earliest_first_and_no_other(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    games = [start(black, white, control) for control in (ABSOLUTE, FISCHER, ABSOLUTE)]
    frozen_clock.advance(2)
    Game.objects.filter(pk=games[2].pk).update(deadline=reload(games[0]).deadline)
    Game.objects.filter(pk=games[0].pk).update(
        deadline=reload(games[0]).deadline + datetime.timedelta(milliseconds=1)
    )
    frozen_clock.advance(1.5)

    flagged = clock_services.flag_due()

    assert [game.public_id for game in flagged] == [games[2].public_id, games[0].public_id]
    assert [reload(game).status for game in games] == ["finished", "active", "finished"]
    assert clock_services.flag_due() == []


def test_a_move_after_the_deadline_is_never_stored_the_game_is_lost_on_time(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    game = start(black, white, ABSOLUTE)
    frozen_clock.advance(1)
    play.play(player=black, game_id=game.public_id, ply=2, point=[3, 2])
    frozen_clock.advance(3.5)  # White's 3 s are gone

    with pytest.raises(GameError) as late:
        play.play(player=white, game_id=game.public_id, ply=3, point=[2, 4])

    assert late.value.code == "game_over"
    game = reload(game)
    assert (game.status, game.result, game.ply) == ("finished", "B+T", 4)
    assert [move.action for move in game.moves.all()] == ["place"] * 3 + ["timeout"]


@pytest.mark.parametrize("service", [play.pass_turn, play.resign, presence.claim])
def test_every_request_of_a_player_after_the_deadline_is_game_over(
    black: Player, white: Player, frozen_clock: FrozenClock, service: Any
) -> None:
    game = start(black, white, ABSOLUTE, kind="go", size=5)
    frozen_clock.advance(5)
    arguments = {"ply": 2} if service is play.pass_turn else {}

    with pytest.raises(GameError) as late:
        service(player=black, game_id=game.public_id, **arguments)

    assert late.value.code == "game_over"
    assert reload(game).result == "W+T"


def test_a_spectator_after_the_deadline_is_still_not_a_player(
    black: Player, white: Player, spectator: Player, frozen_clock: FrozenClock
) -> None:
    game = start(black, white, ABSOLUTE)
    frozen_clock.advance(5)
    with pytest.raises(GameError) as refused:
        play.play(player=spectator, game_id=game.public_id, ply=2, point=[3, 2])
    assert refused.value.code == "not_a_player"


def test_resigning_stops_the_clocks_and_keeps_the_time_left(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    game = start(black, white, FISCHER)
    frozen_clock.advance(20)
    [move] = play.resign(player=black, game_id=game.public_id)
    assert move.clock_ms == 40 * S
    assert (reload(game).deadline, clock(game)["running"]) == (None, None)


# The site down


def test_a_restart_of_the_whole_site_gives_running_clocks_the_time_it_was_down(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    gap = datetime.timedelta(seconds=5)
    clock_services.credit_downtime(process="old", gap=gap)
    game = start(black, white, FISCHER)
    frozen_clock.advance(10)
    presence.heartbeat(process="old")  # the site is watched for 10 s of Black's turn
    frozen_clock.advance(3600)  # then down for an hour

    assert clock_services.credit_downtime(process="new", gap=gap) == [game.public_id]

    assert clock(game)["black"]["remaining_ms"] == 50 * S
    frozen_clock.advance(50)
    assert [game.public_id for game in clock_services.flag_due()] == [game.public_id]
    assert set(ServerProcess.objects.values_list("name", flat=True)) == {"old", "new"}


def test_a_process_restarting_while_another_runs_credits_nothing(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    gap = datetime.timedelta(seconds=5)
    clock_services.credit_downtime(process="first", gap=gap)
    game = start(black, white, FISCHER)
    frozen_clock.advance(4)
    presence.heartbeat(process="first")
    frozen_clock.advance(2)

    assert clock_services.credit_downtime(process="second", gap=gap) == []
    assert clock(game)["black"]["remaining_ms"] == 54 * S


def test_the_first_start_ever_credits_nothing(frozen_clock: FrozenClock) -> None:
    assert clock_services.credit_downtime(process="p", gap=datetime.timedelta(seconds=5)) == []
    assert Move.objects.count() == 0


def test_halving_ones_clock_before_ones_first_move(
    black: Player, white: Player, spectator: Player
) -> None:
    """An arena's berserk (the tournaments app asks for it): one's own main time halved,
    before one's first move only."""
    game = seated(black, white, FISCHER)
    _, color = clock_services.halve_clock(player=white, game_id=game.public_id)
    assert color == "white"
    assert clock(game)["white"]["remaining_ms"] == 30 * S
    assert clock(game)["black"]["remaining_ms"] == 60 * S
    play.play(player=black, game_id=game.public_id, ply=0, point=FIRST_MOVES["othello"][0])
    with pytest.raises(GameError) as refused:
        clock_services.halve_clock(player=black, game_id=game.public_id)
    assert refused.value.code == "bad_request"
    with pytest.raises(GameError) as refused:
        clock_services.halve_clock(player=spectator, game_id=game.public_id)
    assert refused.value.code == "not_a_player"
    untimed = seated(black, white, None)
    with pytest.raises(GameError) as refused:
        clock_services.halve_clock(player=black, game_id=untimed.public_id)
    assert refused.value.code == "bad_request"
    assert clock(game)["black"]["remaining_ms"] == 60 * S
