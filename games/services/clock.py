"""The clock on the server: charging a move, starting a turn, the flag, and the time the
site was down.

The server is the only clock: a side is charged, when its move is stored, the time from
the start of its turn to that moment, both read from the server's own clock
(``timezone.now``) in the move's transaction. A turn starts when the game becomes active
(the second seat taken), when the opponent's move is stored, or when play resumes after
Go's count; Othello's automatic pass takes no time. The rules of each time control are
gamerules.clock's.

First moves (every clock but correspondence): no clock runs until each side has made
its first move (the game's first two moves), and those are free; the side to make one
has ``FIRST_MOVE_SECONDS`` from the start of its turn (``deadline``), else the game is
aborted (``expire``) instead of lost. The computer's first move has no such limit (it
moves at once, or the site is too busy to let it: its opponent is not blamed); the
person's deadline applies to the person.

When the side to move runs out, ``flag`` stores a ``timeout`` move (B+T / W+T), or aborts
the game when that was a first move; the processes' clock watch (games.workers.clockwatch)
calls it within a second of the deadline,
whether or not anyone is connected, and a request that finds the deadline passed first
flags the game itself (``on_time``) and is answered ``game_over``. ``flag`` locks the game
like every change, so processes racing to flag store one move.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.players import Player
from gamerules import Color
from gamerules.clock import SideClock, TimeControl
from games.models import Game, Move, ServerProcess
from games.realtime import events
from games.selectors import color_of, running
from games.services.after_commit import on_commit
from games.services.ending import end_aborted, end_with, ending_move, stop_clocks
from games.services.errors import GameError
from games.services.lock import locked
from games.services.refusals import refuse_ended

Result = TypeVar("Result")


class TimeRanOut(Exception):
    """Raised inside a service's transaction when the game's deadline has passed: the
    transaction is rolled back and ``on_time`` flags the game instead."""


def control_of(game: Game) -> TimeControl | None:
    """The game's time control, None without a clock."""
    return None if game.time_control is None else TimeControl.from_json(game.time_control)


def stored_clock(game: Game, color: str) -> SideClock:
    """``color``'s clock as stored: as of the start of its turn, or after its last move."""
    assert game.clocks is not None, "a game with a time control has clocks"
    return SideClock.from_json(game.clocks[color])


def elapsed_ms(game: Game, now: datetime.datetime) -> int:
    """How long the side to move has been thinking at ``now`` (0 when no clock runs)."""
    if game.turn_started_at is None:
        return 0
    return max(0, int((now - game.turn_started_at).total_seconds() * 1000))


def clock_at(game: Game, color: str, now: datetime.datetime) -> SideClock:
    """``color``'s clock as of ``now``: thinking since its turn began if it runs."""
    control = control_of(game)
    assert control is not None, "only a game with a time control has clocks"
    clock = stored_clock(game, color)
    if running(game) != color:
        return clock
    return control.thinking(clock, elapsed_ms(game, now))


def start_clocks(game: Game, control: TimeControl | None) -> None:
    """Set a new game's time control and each side's starting clock (none runs yet)."""
    if control is None:
        return
    game.time_control = control.to_json()
    game.clocks = {color.value: control.start().to_json() for color in Color}


def start_turn(game: Game, now: datetime.datetime) -> None:
    """The side to move's turn starts at ``now`` (if the game has a clock and is active):
    its clock runs, or for a first move its ``FIRST_MOVE_SECONDS`` (none for the
    computer's); otherwise every clock stops."""
    control = control_of(game)
    if control is None or game.status != Game.Status.ACTIVE:
        stop_clocks(game)
        return
    game.turn_started_at = now
    if control.first_move(game.ply) and game.to_move == game.computer_color:
        game.deadline = None
        return
    turn_ms = control.turn_ms(
        stored_clock(game, str(game.to_move)),
        ply=game.ply,
        first_move_ms=settings.FIRST_MOVE_SECONDS * 1000,
    )
    game.deadline = now + datetime.timedelta(milliseconds=turn_ms)


def charge(move: Move, game: Game, now: datetime.datetime) -> None:
    """Charge ``move``'s mover (the side to move) for the move it makes at ``now`` (a
    first move is free) and stamp ``move`` with its time left (``clock_ms``,
    ``overtime_left``); nothing without a clock. Raises TimeRanOut if it had run out: the
    move is never stored."""
    control = control_of(game)
    if control is None or game.clocks is None:
        return
    color = str(move.color)
    try:
        after = control.charged(stored_clock(game, color), elapsed_ms(game, now), ply=game.ply)
    except ValueError:
        raise TimeRanOut from None
    game.clocks = {**game.clocks, color: after.to_json()}
    stamp(move, after)


def stamp(move: Move, side: SideClock) -> None:
    """``move`` records its mover's time left: ``side``."""
    move.clock_ms = side.remaining_ms
    move.overtime_left = (
        (side.periods if side.stones is None else side.stones) if side.overtime else None
    )


def stamp_unmoved(move: Move, game: Game, now: datetime.datetime) -> None:
    """``move`` (a resignation, an automatic pass, a timeout, a forfeit) records its
    colour's time left at ``now``, without charging it; nothing without a clock."""
    if control_of(game) is not None:
        stamp(move, clock_at(game, str(move.color), now))


def check_on_time(game: Game, now: datetime.datetime) -> None:
    """Raises TimeRanOut if the game's running clock has run out at ``now``."""
    if game.deadline is not None and game.status == Game.Status.ACTIVE and now >= game.deadline:
        raise TimeRanOut


def on_time(service: Callable[..., Result]) -> Callable[..., Result]:
    """A service that checks the clock (``check_on_time``): when the deadline had passed,
    its transaction is rolled back, the game is flagged in a transaction of its own, and
    the caller gets GameError("game_over"): the game was lost on time."""

    @functools.wraps(service)
    def checked(*, game_id: str, **kwargs: Any) -> Result:
        try:
            return service(game_id=game_id, **kwargs)
        except TimeRanOut:
            flag(game_id=game_id)
            raise GameError("game_over", gettext("the game is over: time ran out")) from None

    return checked


@transaction.atomic
def flag(*, game_id: str) -> list[Move]:
    """The ``timeout`` move of the side whose clock ran out (B+T if White ran out, W+T if
    Black did), stored and broadcast; when that side's first move was due instead, the
    game aborted (no move stored: []). [] too when the game's deadline has not passed
    (not yet, or it was flagged already, or the game moved on): a game never flags twice."""
    game = locked(game_id)
    now = timezone.now()
    try:
        check_on_time(game, now)
    except TimeRanOut:
        timeout = _expire(game, now)
        return [] if timeout is None else [timeout]
    return []


def flag_due(*, limit: int = 50) -> list[Game]:
    """``flag`` for up to ``limit`` games whose deadline has passed, earliest first (the
    games ended, on time or aborted),
    in one transaction (the clock watch calls it until it returns []). On PostgreSQL a
    game another process is flagging is skipped (SKIP LOCKED), so that processes share
    the work instead of queueing for the same rows. Nothing due: one read, no
    transaction (on SQLite a transaction takes the write lock that moves wait for)."""
    due = Game.objects.filter(status=Game.Status.ACTIVE, deadline__lte=timezone.now())
    if not due.exists():
        return []
    with transaction.atomic():
        now = timezone.now()
        skip_locked = connection.features.has_select_for_update_skip_locked
        locked_due = (
            Game.objects.select_for_update(skip_locked=skip_locked)
            .filter(status=Game.Status.ACTIVE, deadline__lte=now)
            .order_by("deadline")[:limit]
        )
        due_games = list(locked_due)
        for game in due_games:
            _expire(game, now)
        return due_games


def _expire(game: Game, now: datetime.datetime) -> Move | None:
    """``game``'s side to move is past its deadline at ``now``: the game aborted if that
    was its first move (None), else its timeout stored; broadcast after the commit."""
    control = control_of(game)
    if control is not None and control.first_move(game.ply):
        end_aborted(game, Game.AbortReason.FIRST_MOVE)
        return None
    return _time_out(game, now)


def _time_out(game: Game, now: datetime.datetime) -> Move:
    """Store the timeout of ``game``'s side to move (its clock has run out at ``now``) and
    schedule its broadcast."""
    loser = str(game.to_move)
    move = ending_move(game, color=loser, action=Move.Action.TIMEOUT)
    assert game.clocks is not None
    ran_out = clock_at(game, loser, game.deadline or now)
    stamp(move, ran_out)
    game.clocks = {**game.clocks, loser: ran_out.to_json()}
    [move] = end_with(game, move, result=f"{Color(loser).opponent.letter}+T")
    return move


# Halving one's clock (a tournament's berserk)


@transaction.atomic
def halve_clock(*, player: Player, game_id: str) -> tuple[Game, str]:
    """``player``'s own clock halved before its first move (an arena's berserk, which the
    tournaments app asks for): its main time (``remaining_ms``) is half what it was; the
    game and the colour. Broadcast (``state``) after the commit.

    Raises GameError: bad_request (unknown game, no clock, or the player has moved
    already), not_a_player, game_over.
    """
    game = locked(game_id)
    color = color_of(game, player)
    if color is None:
        raise GameError("not_a_player", gettext("only a player can halve their clock"))
    refuse_ended(game)
    if game.clocks is None or control_of(game) is None:
        raise GameError("bad_request", gettext("this game has no clock"))
    if Move.objects.filter(game=game, color=color).exists():
        raise GameError("bad_request", gettext("a clock is halved before one's first move"))
    side = stored_clock(game, color)
    halved = SideClock(
        remaining_ms=side.remaining_ms // 2,
        periods=side.periods,
        stones=side.stones,
        overtime=side.overtime,
    )
    game.clocks = {**game.clocks, color: halved.to_json()}
    game.save(update_fields=["clocks", "updated_at"])
    on_commit(lambda: events.broadcast_state(game))
    return game, color


# The site down


@transaction.atomic
def credit_downtime(*, process: str, gap: datetime.timedelta) -> list[str]:
    """Register the server process ``process`` as up; if no process had been seen for more
    than ``gap`` (the whole site was down: nobody watched the clocks), every running
    clock gets that time back, so that a restart never decides a game. The ids of the
    games credited.

    Locks the processes' table, so that processes starting together credit once.
    """
    now = timezone.now()
    list(ServerProcess.objects.select_for_update().all())
    last = ServerProcess.objects.order_by("-seen_at").values_list("seen_at", flat=True).first()
    ServerProcess.objects.update_or_create(
        name=process, defaults={"started_at": now, "seen_at": now}
    )
    if last is None or now - last <= gap:
        return []
    credited = []
    for game in Game.objects.select_for_update().filter(
        status=Game.Status.ACTIVE, turn_started_at__isnull=False
    ):
        assert game.turn_started_at is not None
        # The turn's time before the site went down was watched: only the rest is given.
        unwatched = now - max(last, game.turn_started_at)
        game.turn_started_at += unwatched
        if game.deadline is not None:  # none: the computer's first move
            game.deadline += unwatched
        game.save(update_fields=["turn_started_at", "deadline", "updated_at"])
        credited.append(game.public_id)
    return credited
