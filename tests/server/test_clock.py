"""games.services.clock with a frozen clock: charging moves, the flag, a move too late,
never flagging twice, the site's downtime credited; G's clock and M's clock_ms.

No test sleeps: Django's clock stands still (``frozen_clock``) and moves when told.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from games import selectors, services
from games.models import Game, Move, ServerProcess
from games.rules.clock import TimeControl
from games.services import GameError, Player
from tests.conftest import FrozenClock
from tests.server.helpers import Events, reload

pytestmark = pytest.mark.django_db

S = 1000
FISCHER = TimeControl.fischer(main_time=60, increment=5)
BYOYOMI = TimeControl.byoyomi(main_time=10, periods=2, period_time=5)
ABSOLUTE = TimeControl.absolute(main_time=3)


def start(
    black: Player,
    white: Player,
    control: TimeControl | None,
    *,
    kind: str = "othello",
    size: int = 8,
) -> Game:
    game = services.create_game(
        player=black, kind=kind, size=size, color="black", name="Ann", time_control=control
    )
    return services.join_game(player=white, game_id=game.public_id, name="Bob")


def clock(game: Game) -> dict[str, Any]:
    state = selectors.game_state(reload(game), you=None)
    assert state["clock"] is not None
    return dict(state["clock"])


# Charging


def test_no_clock_runs_until_the_second_seat_is_taken(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    game = services.create_game(
        player=black, kind="othello", size=8, color="black", name="Ann", time_control=FISCHER
    )
    frozen_clock.advance(100)
    waiting = selectors.game_state(reload(game), you=None)["clock"]
    assert waiting["running"] is None
    assert waiting["black"]["remaining_ms"] == 60 * S

    services.join_game(player=white, game_id=game.public_id, name="Bob")
    frozen_clock.advance(7)
    running = clock(game)
    assert running["running"] == "black"
    assert (running["black"]["remaining_ms"], running["white"]["remaining_ms"]) == (53 * S, 60 * S)
    assert running["system"] == "fischer"
    assert (running["main_time"], running["increment"], running["periods"]) == (60, 5, None)


def test_each_move_charges_its_mover_by_the_servers_clock(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    game = start(black, white, FISCHER)
    frozen_clock.advance(10)
    [move] = services.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
    assert move.clock_ms == 55 * S  # 60 - 10 + 5
    frozen_clock.advance(2.5)
    [move] = services.play(player=white, game_id=game.public_id, ply=1, point=[2, 2])
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
    [move] = services.play(player=black, game_id=game.public_id, ply=0, point=[4, 4])
    assert move.clock_ms == 5 * S  # a move within a period resets it
    assert clock(game)["black"]["periods"] == 2


def test_othellos_automatic_pass_takes_no_time(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    # 4x4: after b1, c1, d3 and White's a1, Black has no move and passes automatically.
    game = start(black, white, FISCHER, size=4)
    line = [[0, 1], [0, 2], [2, 3]]
    for ply, point in enumerate(line):
        frozen_clock.advance(1)
        mover = black if ply % 2 == 0 else white
        services.play(player=mover, game_id=game.public_id, ply=ply, point=point)
    frozen_clock.advance(4)
    placed, passed = services.play(player=white, game_id=game.public_id, ply=3, point=[0, 0])
    # White: 60 - 1 + 5 at ply 1, then - 4 + 5 at ply 3; Black: 60 - 1 + 5, twice.
    assert (placed.clock_ms, passed.action, passed.color) == (65 * S, "pass", "black")
    assert passed.clock_ms == 68 * S  # Black's time as its last move left it
    frozen_clock.advance(3)
    now = clock(game)
    assert now["running"] == "white"  # White's turn again, since the pass
    assert (now["white"]["remaining_ms"], now["black"]["remaining_ms"]) == (62 * S, 68 * S)


def test_two_passes_stop_both_clocks_and_resuming_starts_them(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    game = start(black, white, FISCHER, kind="go", size=5)
    services.pass_turn(player=black, game_id=game.public_id, ply=0)
    services.pass_turn(player=white, game_id=game.public_id, ply=1)
    frozen_clock.advance(500)  # counting takes no time off anyone
    assert clock(game)["running"] is None
    assert reload(game).deadline is None

    services.resume(player=white, game_id=game.public_id)
    frozen_clock.advance(4)
    assert clock(game)["running"] == "black"
    assert clock(game)["black"]["remaining_ms"] == 61 * S


def test_a_game_without_a_clock_has_none(black: Player, white: Player) -> None:
    game = start(black, white, None)
    [move] = services.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
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
    assert services.flag(game_id=game.public_id) == []  # not yet
    frozen_clock.advance(0.001)  # exactly at the deadline: out

    with django_capture_on_commit_callbacks(execute=True):
        [move] = services.flag(game_id=game.public_id)

    game = reload(game)
    assert (move.action, move.color, move.clock_ms, move.ply) == ("timeout", "black", 0, 1)
    assert (game.status, game.result, game.deadline) == ("finished", "W+T", None)
    [(_, event)] = broadcasts
    assert event["type"] == "game.moved"
    assert (event["move"]["action"], event["move"]["notation"]) == ("timeout", "time")
    assert event["game"]["clock"]["black"]["remaining_ms"] == 0
    assert event["game"]["clock"]["running"] is None
    # Never twice.
    assert services.flag(game_id=game.public_id) == []
    assert services.flag_due() == []
    assert game.moves.count() == 1


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

    flagged = services.flag_due()

    assert [move.game.public_id for move in flagged] == [games[2].public_id, games[0].public_id]
    assert [reload(game).status for game in games] == ["finished", "active", "finished"]
    assert services.flag_due() == []


def test_a_move_after_the_deadline_is_never_stored_the_game_is_lost_on_time(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    game = start(black, white, ABSOLUTE)
    frozen_clock.advance(1)
    services.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
    frozen_clock.advance(3.5)  # White's 3 s are gone

    with pytest.raises(GameError) as late:
        services.play(player=white, game_id=game.public_id, ply=1, point=[2, 2])

    assert late.value.code == "game_over"
    game = reload(game)
    assert (game.status, game.result, game.ply) == ("finished", "B+T", 2)
    assert [move.action for move in game.moves.all()] == ["place", "timeout"]


@pytest.mark.parametrize("service", ["pass_turn", "resign", "claim"])
def test_every_request_of_a_player_after_the_deadline_is_game_over(
    black: Player, white: Player, frozen_clock: FrozenClock, service: str
) -> None:
    game = start(black, white, ABSOLUTE, kind="go", size=5)
    frozen_clock.advance(5)
    arguments = {"ply": 0} if service == "pass_turn" else {}

    with pytest.raises(GameError) as late:
        getattr(services, service)(player=black, game_id=game.public_id, **arguments)

    assert late.value.code == "game_over"
    assert reload(game).result == "W+T"


def test_a_spectator_after_the_deadline_is_still_not_a_player(
    black: Player, white: Player, spectator: Player, frozen_clock: FrozenClock
) -> None:
    game = start(black, white, ABSOLUTE)
    frozen_clock.advance(5)
    with pytest.raises(GameError) as refused:
        services.play(player=spectator, game_id=game.public_id, ply=0, point=[2, 3])
    assert refused.value.code == "not_a_player"


def test_resigning_stops_the_clocks_and_keeps_the_time_left(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    game = start(black, white, FISCHER)
    frozen_clock.advance(20)
    [move] = services.resign(player=black, game_id=game.public_id)
    assert move.clock_ms == 40 * S
    assert (reload(game).deadline, clock(game)["running"]) == (None, None)


# The site down


def test_a_restart_of_the_whole_site_gives_running_clocks_the_time_it_was_down(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    gap = datetime.timedelta(seconds=5)
    services.credit_downtime(process="old", gap=gap)
    game = start(black, white, FISCHER)
    frozen_clock.advance(10)
    services.heartbeat(process="old")  # the site is watched for 10 s of Black's turn
    frozen_clock.advance(3600)  # then down for an hour

    assert services.credit_downtime(process="new", gap=gap) == [game.public_id]

    assert clock(game)["black"]["remaining_ms"] == 50 * S
    frozen_clock.advance(50)
    assert [move.game.public_id for move in services.flag_due()] == [game.public_id]
    assert set(ServerProcess.objects.values_list("name", flat=True)) == {"old", "new"}


def test_a_process_restarting_while_another_runs_credits_nothing(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    gap = datetime.timedelta(seconds=5)
    services.credit_downtime(process="first", gap=gap)
    game = start(black, white, FISCHER)
    frozen_clock.advance(4)
    services.heartbeat(process="first")
    frozen_clock.advance(2)

    assert services.credit_downtime(process="second", gap=gap) == []
    assert clock(game)["black"]["remaining_ms"] == 54 * S


def test_the_first_start_ever_credits_nothing(frozen_clock: FrozenClock) -> None:
    assert services.credit_downtime(process="p", gap=datetime.timedelta(seconds=5)) == []
    assert Move.objects.count() == 0
