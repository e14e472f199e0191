"""Moves: a placement (with Othello's automatic passes), a pass, a resignation.

Each checks the clock (``clock.on_time``): a move that comes after the deadline is never
stored; the game is lost on time instead.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

import gamerules as rules
from accounts.players import Player
from gamerules import go
from games.models import Game, Move
from games.realtime import events
from games.selectors import color_of, position_of, remember_position
from games.services import clock, tell
from games.services.after_commit import nudge_computer, on_commit
from games.services.ending import end_with, ending_move, finish
from games.services.errors import GameError, said
from games.services.fields import check_ply, check_point_shape, on_board
from games.services.lock import insert, locked, write
from games.services.moves import move_row, running_score
from games.services.refusals import refuse_ended, refuse_stale, refuse_waiting
from games.services.scoring import count, drop_marking

# What a move changes while play goes on (apply_move, clock.charge, clock.start_turn;
# the computer's claim, released by computer.computer_move before its move).
# The colours as a sentence names them ("it is black's turn").
COLOR_WORDS = {"black": gettext_lazy("black"), "white": gettext_lazy("white")}

MOVED_FIELDS = (
    "ply",
    "undo_request",
    "snapshot",
    "to_move",
    "score",
    "clocks",
    "turn_started_at",
    "deadline",
    "computer_thinker",
    "computer_since",
    "updated_at",
)


@clock.on_time
@transaction.atomic
def play(*, player: Player, game_id: str, ply: int, point: Any) -> list[Move]:
    """The stored moves: the placement on ``point`` ([row, col]), then any automatic pass.

    ``ply`` is the number of moves the caller has seen. Raises GameError, the first of:
    bad_request (a ply or point that is not integers, a point off the board, an unknown
    game), not_a_player, game_over, stale (``ply`` is not current), not_your_turn (also
    while waiting for an opponent), illegal_move (the rules' reason; also while Go is
    being scored).
    """
    check_ply(ply)
    check_point_shape(point)
    game = locked(game_id)
    now = timezone.now()
    point = on_board(game, point)
    _check_turn(game, player, ply, now)
    return apply_move(game, rules.Move.place(point), now)


@clock.on_time
@transaction.atomic
def pass_turn(*, player: Player, game_id: str, ply: int) -> list[Move]:
    """The stored pass (Go only). Two passes in a row end the game.

    Raises GameError in the order of ``play``; a pass in Othello is illegal_move (its
    passes are automatic).
    """
    check_ply(ply)
    game = locked(game_id)
    now = timezone.now()
    _check_turn(game, player, ply, now)
    if game.kind == Game.Kind.OTHELLO:
        raise GameError(
            "illegal_move", gettext("Othello has no voluntary pass: passes are automatic")
        )
    return apply_move(game, rules.Move.pass_turn(), now)


@clock.on_time
@transaction.atomic
def resign(*, player: Player, game_id: str) -> list[Move]:
    """The stored resignation of ``player``, on either side's turn (Go's scoring phase
    too: the marking is dropped); the opponent wins.

    Raises GameError: bad_request (unknown game), not_a_player, game_over,
    not_your_turn (still waiting for an opponent).
    """
    game = locked(game_id)
    now = timezone.now()
    color = color_of(game, player)
    if color is None:
        raise GameError("not_a_player", gettext("only the players can resign"))
    refuse_ended(game)
    clock.check_on_time(game, now)
    refuse_waiting(game)
    return resign_as(game, color, now)


def resign_as(game: Game, color: str, now: datetime.datetime) -> list[Move]:
    """``color`` resigns ``game`` (locked, in play) at ``now``: the stored move."""
    move = ending_move(game, color=color, action=Move.Action.RESIGN)
    clock.stamp_unmoved(move, game, now)
    if game.status == Game.Status.SCORING:
        drop_marking(game, position_of(game))
    return end_with(game, move, result=f"{rules.Color(color).opponent.letter}+R")


def _check_turn(game: Game, player: Player, ply: int, now: datetime.datetime) -> None:
    """The contract's order after bad_request, for a placement or a pass (a deadline
    passed is game_over: clock.TimeRanOut)."""
    color = color_of(game, player)
    if color is None:
        raise GameError("not_a_player", gettext("spectators cannot play"))
    refuse_ended(game)
    clock.check_on_time(game, now)
    refuse_stale(game, ply)
    refuse_waiting(game)
    if game.status == Game.Status.SCORING:
        raise GameError("illegal_move", gettext("the game is being scored: resume it to play on"))
    if color != game.to_move:
        raise GameError(
            "not_your_turn",
            gettext("it is %(to_move)s's turn") % {"to_move": COLOR_WORDS[game.to_move]},
        )


def apply_move(game: Game, move: rules.Move, now: datetime.datetime) -> list[Move]:
    """Play ``move`` for the side to move of ``game`` (locked, checked) at ``now``, and
    Othello's automatic passes; store them and the new position; the mover's clock
    charged, the next turn's started; broadcast after commit. Raises GameError
    (illegal_move, bad_request) for a move the rules refuse."""
    position = position_of(game)
    try:
        position, diff = position.play(move)
    except rules.IllegalMoveError as error:
        raise GameError("illegal_move", said(error)) from None
    except rules.InvalidMoveError as error:
        raise GameError("bad_request", said(error)) from None
    diffs = [diff]
    while isinstance(position, rules.OthelloPosition) and position.must_pass:
        position, diff = position.play(rules.Move.pass_turn())
        diffs.append(diff)
    moves = [move_row(game, game.ply + number, diff) for number, diff in enumerate(diffs, 1)]
    clock.charge(moves[0], game, now)
    for automatic in moves[1:]:  # an automatic pass takes no time
        clock.stamp_unmoved(automatic, game, now)
    game.ply += len(moves)
    game.undo_request = ""  # a new move: a request to take back the last one lapses
    game.snapshot = position.to_snapshot()
    remember_position(game, position)
    game.to_move = position.to_move.value
    game.score = running_score(game, position)
    if position.is_over:
        _end_of_play(game, position)
    clock.start_turn(game, now)
    if position.is_over:
        insert(moves)
        game.save()
    else:
        # Only what a move changes, by a statement compiled once (games.services.lock):
        # building and encoding the UPDATE of every column (ten of them JSON) was a fifth
        # of a move's cost, and Django's building of the SQL half the rest. The moves'
        # rows go with it.
        write(game, MOVED_FIELDS, moves=moves)
    played = None if move.point is None else position.format_point(move.point)
    tell.moved(game, mover=moves[0].color, played=played)
    nudge_computer(game)
    on_commit(lambda: events.broadcast_moved(game, moves))
    return moves


def _end_of_play(game: Game, position: rules.Position) -> None:
    if isinstance(position, rules.OthelloPosition):
        finish(game, result=position.result() or "Draw")
        return
    # Two passes: the players now agree on the dead stones, starting from the rules' guess
    # (the computer, when it plays, looks at them next: games.services.computer).
    game.status = Game.Status.SCORING
    game.black_accepted = game.white_accepted = False
    game.computer_dead = None
    game.marking += 1
    count(game, position, go.estimate_dead(position))
