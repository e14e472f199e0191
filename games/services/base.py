"""What every use case shares: the error, the lock, the broadcast after commit, the checks
of a request's fields, and the steps that write a game's record (the caller, ``Player``,
is games.selectors', which reads seats by it)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_lazy

import gamerules as rules
from accounts import standing
from gamerules import go
from games import signals
from games.models import Game, Move
from games.realtime import events
from games.services import tell

# The contract's error codes, in the order that decides which one a request gets when
# several apply. rate_limited and unavailable come from outside the services (the
# websocket's flow control, the consumer when the database cannot be reached).
ERROR_CODES = (
    "rate_limited",
    "unavailable",
    "bad_request",
    "name_taken",
    "muted",
    "not_allowed",
    "not_a_player",
    "game_over",
    "stale",
    "not_your_turn",
    "illegal_move",
)


def said(error: Exception) -> str:
    """``error``'s message in the active language: the rules' errors and the clock's carry
    their message's template (``translated``); any other as written."""
    translate = getattr(error, "translated", None)
    return translate(translation) if callable(translate) else str(error)


# The colours as a sentence names them ("it is black's turn").
COLOR_WORDS = {"black": gettext_lazy("black"), "white": gettext_lazy("white")}


class GameError(Exception):
    """A request the game refuses; ``code`` is one of the contract's ``ERROR_CODES``, and
    ``field`` the request's field at fault when there is one (a form shows the message
    beside it); ``details``, what the refusal carries besides its code and message (a
    mute's ``until``).

    When several apply, the first in ``ERROR_CODES`` is raised.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        field: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.field = field
        self.details = details or {}


def refuse_muted(user_id: int | None) -> None:
    """Raises GameError("muted"), with the mute's ``until``, when staff muted the account
    ``user_id`` (accounts.standing)."""
    mute = standing.muted(user_id)
    if mute is not None:
        raise GameError("muted", mute.words(), details={"until": mute.until_json()})


def refuse_engine(user_id: int | None, *, field: str | None = None) -> None:
    """Raises GameError("not_allowed") when the account ``user_id`` is marked for engine
    use: it plays no rated game (accounts.standing)."""
    if standing.is_engine(user_id):
        raise GameError("not_allowed", gettext(standing.ENGINE_REFUSAL), field=field)


# The lock


def locked(game_id: str) -> Game:
    """The game ``game_id``, its row locked until the transaction ends. Raises
    GameError("bad_request") for an id that is no game."""
    if not isinstance(game_id, str):
        raise GameError("bad_request", gettext("game id must be a string"))
    try:
        return Game.objects.select_for_update().get(public_id=game_id)
    except Game.DoesNotExist:
        raise GameError(
            "bad_request", gettext("there is no game %(game_id)s") % {"game_id": repr(game_id)}
        ) from None


# The fields of a request


def check_ply(ply: object) -> None:
    """Raises GameError("bad_request") unless ``ply`` is an integer (not a bool)."""
    if not is_int(ply):
        raise GameError("bad_request", gettext("ply must be an integer"))


def check_point_shape(point: object) -> None:
    """Raises GameError("bad_request") unless ``point`` is two integers."""
    if not (isinstance(point, list | tuple) and len(point) == 2 and all(map(is_int, point))):
        raise GameError("bad_request", gettext("point must be [row, col], two integers"))


def on_board(game: Game, point: Any) -> rules.Point:
    """``point`` as a rules Point; GameError("bad_request") when off ``game``'s board."""
    row, col = point
    if not (0 <= row < game.size and 0 <= col < game.size):
        raise GameError(
            "bad_request",
            gettext("[%(row)s, %(col)s] is off the %(size)sx%(size)s board")
            % {"row": row, "col": col, "size": game.size},
        )
    return row, col


def check_marking(marking: object) -> None:
    """Raises GameError("bad_request") unless ``marking`` is None or an integer."""
    if marking is not None and not is_int(marking):
        raise GameError("bad_request", gettext("marking must be an integer"))


def is_int(value: object) -> bool:
    """Whether ``value`` is an int and not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


# The state of the game


def refuse_ended(game: Game) -> None:
    """Raises GameError("game_over") for a finished or aborted game."""
    if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        finished = game.status == Game.Status.FINISHED
        raise GameError(
            "game_over",
            gettext("the game is finished") if finished else gettext("the game is aborted"),
        )


def refuse_waiting(game: Game) -> None:
    """Raises GameError("not_your_turn") while the game waits for an opponent."""
    if game.status == Game.Status.WAITING:
        raise GameError("not_your_turn", gettext("waiting for an opponent"))


def scoring_method(scoring: object) -> go.ScoringMethod:
    """``scoring`` checked: ``territory`` or ``area``, else GameError("bad_request")."""
    if scoring == "territory":
        return "territory"
    if scoring == "area":
        return "area"
    raise GameError("bad_request", gettext("scoring must be territory or area"))


# Writing


def ending_move(game: Game, *, color: str, action: str) -> Move:
    """The (unsaved) move that ends ``game`` without touching the board: ``action`` is
    resign, timeout or forfeit, ``color`` the side that resigned, ran out or left."""
    return Move(
        game=game, ply=game.ply + 1, color=color, action=action, diff={changed_key(game): []}
    )


def end_with(game: Game, move: Move, *, result: str) -> list[Move]:
    """Store ``move`` (an ``ending_move``) as ``game``'s last, the game finished with
    ``result`` and its clocks stopped; broadcast once the transaction commits."""
    game.ply = move.ply
    game.undo_request = ""
    stop_clocks(game)
    finish(game, result=result)
    move.save()
    game.save()
    on_commit(lambda: events.broadcast_moved(game, [move]))
    return [move]


def stop_clocks(game: Game) -> None:
    """No clock runs (scoring, over); what the side to move spent is not charged."""
    game.turn_started_at = None
    game.deadline = None


def finish(game: Game, *, result: str) -> None:
    """Mark ``game`` finished with ``result``, now, and tell ``signals.game_finished`` in
    this transaction (the players app moves a rated game's ratings); the lobby is told
    (its count of games in play changes)."""
    game.status = Game.Status.FINISHED
    game.result = result
    game.finished_at = timezone.now()
    signals.game_finished.send(sender=Game, game=game)
    tell.ended(game)
    on_commit(events.broadcast_lobby)


def end_aborted(game: Game, reason: str) -> None:
    """``game`` ends ``aborted`` now, for ``reason`` (a ``Game.AbortReason``): no result
    (so no winner, no rating change), no clock running, no request pending; saved, and
    ``signals.game_aborted`` told in this transaction; everyone gets ``state`` once the
    transaction commits (the lobby too: its lists change)."""
    game.status = Game.Status.ABORTED
    game.abort_reason = reason
    game.result = ""
    game.finished_at = timezone.now()
    game.undo_request = ""
    stop_clocks(game)
    game.save()
    signals.game_aborted.send(sender=Game, game=game)
    on_commit(lambda: events.broadcast_state(game))
    on_commit(events.broadcast_lobby)


def move_row(game: Game, ply: int, diff: rules.Diff) -> Move:
    """The Move row (unsaved) for ``diff``, played at ``ply``."""
    changed = diff.flipped if game.kind == Game.Kind.OTHELLO else diff.captured
    row, col = diff.point if diff.point is not None else (None, None)
    return Move(
        game=game,
        ply=ply,
        color=diff.color.value,
        action=diff.action,
        row=row,
        col=col,
        diff={changed_key(game): [list(point) for point in changed]},
    )


def changed_key(game: Game) -> str:
    """The diff's key of ``game``'s kind: ``flipped`` (Othello), ``captured`` (Go)."""
    return "flipped" if game.kind == Game.Kind.OTHELLO else "captured"


def running_score(game: Game, position: rules.Position) -> dict[str, float]:
    """Othello: the discs. Go while playing: the prisoners, plus komi for White."""
    if isinstance(position, rules.OthelloPosition):
        counts: dict[rules.Color, float] = dict(position.disc_counts())
    else:
        counts = dict(position.prisoners)
        counts[rules.Color.WHITE] += game.komi or 0.0
    return {color.value: counts[color] for color in rules.Color}


def nudge_computer(game: Game) -> None:
    """After the commit, tell this process when ``game`` leaves the computer a turn (a
    move, or a look at Go's count): its watch claims it at once (games.signals)."""
    owed = (game.status == Game.Status.ACTIVE and game.to_move == game.computer_color) or (
        game.status == Game.Status.SCORING and game.computer_dead is None
    )
    if game.computer_color and owed:
        game_id = game.public_id
        on_commit(lambda: signals.computer_owes.send(sender=Game, game_id=game_id))


def on_commit(broadcast: Callable[[], None]) -> None:
    """Run ``broadcast`` once the transaction commits."""
    # robust: the moves are stored whatever happens to the broadcast; a client that
    # missed it catches up with `sync` (the failure is logged by Django).
    transaction.on_commit(broadcast, robust=True)


# Leases


def claim_leased(
    rows: QuerySet[Any],
    *,
    process: str,
    limit: int,
    now: datetime.datetime,
    lease: datetime.timedelta,
) -> list[Any]:
    """Up to ``limit`` of ``rows`` (a queryset of a model with ``status`` queued, running,
    ``worker`` and ``lease_until``, in the order to take them) that no process holds
    (queued, or running with its lease run out), each now running and held by
    ``process`` until ``now + lease``; one transaction, the rows locked (SKIP LOCKED
    where the database has it), never opened when none is free (the check before it
    takes no lock). A review's queue and the apps' (the puzzles' mining) share it."""
    if limit <= 0:
        return []
    open_ = Q(status__in=["queued", "running"])
    free = Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    if not rows.filter(open_ & free).exists():
        return []
    with transaction.atomic():
        skip_locked = connection.features.has_select_for_update_skip_locked
        claimed = list(rows.select_for_update(skip_locked=skip_locked).filter(open_ & free)[:limit])
        for row in claimed:
            row.worker = process
            row.lease_until = now + lease
            row.status = "running"
            row.save(update_fields=["worker", "lease_until", "status"])
        return claimed
