"""Two submissions for the same ply at the same moment: exactly one lands.

Real threads, each with its own database connection, released together by a barrier,
round after round. On SQLite the immediate transaction's write lock serialises them, on
PostgreSQL the game row's lock (select_for_update); the loser then sees the new ply and
is answered ``stale``. Afterwards the stored history, replayed by the rules from the
start, must give the stored snapshot.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from django.utils import timezone

import gamerules as rules
from accounts.players import Player
from gamerules.clock import TimeControl
from games.models import Game, Move
from games.services import clock, lobby, play
from tests.support.concurrency import at_once

ROUNDS = 30


def race(game: Game, player: Player, points: tuple[rules.Point, rules.Point]) -> list[Any]:
    """Both points submitted by ``player`` for the game's current ply, at once: each one's
    moves or error code."""
    ids = {"player": player, "game_id": game.public_id, "ply": game.ply}
    return at_once(*(partial(play.play, **ids, point=point) for point in points))


def replay(game: Game) -> rules.Position:
    """The position reached by playing the stored moves from the start, diffs checked."""
    position = rules.new_position(game.kind, game.size)
    for move in Move.objects.filter(game=game).order_by("ply"):
        played = (
            rules.Move.place((move.row, move.col))
            if move.action == Move.Action.PLACE
            else rules.Move.pass_turn()
        )
        position, diff = position.play(played)
        changed = diff.flipped if game.kind == "othello" else diff.captured
        assert move.diff == {
            "flipped" if game.kind == "othello" else "captured": [list(p) for p in changed]
        }
        assert move.color == diff.color.value
    return position


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("kind", "size"), [("go", 9), ("othello", 8)])
def test_racing_submissions_for_one_ply_land_exactly_once(kind: str, size: int) -> None:
    players = {
        "black": Player(session_key="black-session", user_id=None),
        "white": Player(session_key="white-session", user_id=None),
    }
    game = lobby.create_game(
        player=players["black"], new=lobby.NewGame(kind=kind, size=size, color="black", name="Ann")
    )
    lobby.join_game(player=players["white"], game_id=game.public_id, name="Bob")

    for round_number in range(ROUNDS):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            break
        legal = rules.position_from_snapshot(kind, game.snapshot).legal_moves()
        # Two different points when there are two; the same point twice otherwise.
        points = (legal[round_number % len(legal)], legal[-1 - round_number % len(legal)])
        ply = game.ply

        outcomes = race(game, players[game.to_move], points)

        landed = [outcome for outcome in outcomes if isinstance(outcome, list)]
        assert len(landed) == 1, outcomes
        assert [outcome for outcome in outcomes if not isinstance(outcome, list)] == ["stale"]
        assert landed[0][0].ply == ply + 1
        assert (landed[0][0].row, landed[0][0].col) in points
        game = Game.objects.get(pk=game.pk)
        assert game.ply == Move.objects.filter(game=game).count() == ply + len(landed[0])

    assert game.ply >= ROUNDS
    assert replay(game).to_snapshot() == game.snapshot


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("first_moves", [True, False])
def test_processes_racing_to_flag_one_game_store_one_timeout(first_moves: bool) -> None:
    """As the clock watches of several processes do when a deadline passes: each flags,
    and a move arriving at that moment too; one timeout is stored, nothing else (before
    the first moves were made: the game is aborted, nothing stored)."""
    black = Player(session_key="black-session", user_id=None)
    white = Player(session_key="white-session", user_id=None)
    game = lobby.create_game(
        player=black,
        new=lobby.NewGame(
            kind="othello",
            size=8,
            color="black",
            name="Ann",
            time_control=TimeControl.absolute(main_time=60),
        ),
    )
    lobby.join_game(player=white, game_id=game.public_id, name="Bob")
    line = [(black, (2, 3)), (white, (2, 2))] if first_moves else []
    for ply, (player, point) in enumerate(line):
        play.play(player=player, game_id=game.public_id, ply=ply, point=point)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now())
    late = (3, 2) if first_moves else (2, 3)

    def flag() -> int:
        return len(clock.flag(game_id=game.public_id))

    move = partial(play.play, player=black, game_id=game.public_id, ply=len(line), point=late)
    outcomes = at_once(flag, flag, flag, move)

    # The move comes too late whoever flags first: the flag or the move's own check.
    assert "game_over" in outcomes
    assert sum(outcome for outcome in outcomes if isinstance(outcome, int)) <= 1
    actions = [move.action for move in Move.objects.filter(game=game)]
    ended = Game.objects.get(pk=game.pk)
    if first_moves:
        assert (actions, ended.status, ended.result) == (
            ["place", "place", "timeout"],
            "finished",
            "W+T",
        )
    else:
        assert (actions, ended.status, ended.result) == ([], "aborted", "")
