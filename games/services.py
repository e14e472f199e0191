"""The use cases: every change to a game goes through one of these functions.

Each runs in one transaction, locks the game row (``select_for_update``; on SQLite the
immediate transaction's write lock does it), checks the caller against the contract's
error order, asks the rules module, writes the moves and the new snapshot, and schedules
its broadcast for after the commit (``games.events``). A failure raises ``GameError``
before anything is written.

Who is calling is a ``Player``, built by views and consumers from the request's or the
websocket's session and account, never from anything a client sends.
"""

from __future__ import annotations

import functools
import math
import secrets
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import events, rules
from games.models import Color, Game, Move
from games.rules import go, sgf
from games.selectors import COLORS, color_of, position_of, seat_token

# The contract's error codes, in the order that decides which one a request gets when
# several apply. rate_limited and unavailable come from outside the services (the
# websocket's flow control, the consumer when the database cannot be reached).
ERROR_CODES = (
    "rate_limited",
    "unavailable",
    "bad_request",
    "not_a_player",
    "game_over",
    "stale",
    "not_your_turn",
    "illegal_move",
)
NAME_MAX_LENGTH = 40
# The engine plays Othello on any even board; the server stops where a page still shows it.
OTHELLO_MAX_SIZE = 16
KOMI_LIMIT = 50
DEFAULT_KOMI = {"territory": 6.5, "area": 7.5}


class GameError(Exception):
    """A request the game refuses; ``code`` is one of the contract's ``ERROR_CODES``.

    When several apply, the first in ``ERROR_CODES`` is raised.
    """

    def __init__(self, code: str, message: str) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Player:
    """Whoever sends a request: a browser session and, when logged in, an account."""

    session_key: str | None = None
    user_id: int | None = None

    @classmethod
    def of(cls, session: Any, user: Any) -> Player:
        """The Player behind an HTTP request or a websocket: ``session`` (a Django
        session, or None) and ``user`` (the account, anonymous, or None)."""
        return cls(
            session_key=session.session_key if session is not None else None,
            user_id=user.pk if user is not None and user.is_authenticated else None,
        )

    @property
    def token(self) -> str | None:
        """An opaque id of the seat holder: the account when there is one, else the session.

        None for a visitor with neither, who can only watch.
        """
        return seat_token(session_key=self.session_key, user_id=self.user_id)


# Creating and joining


@transaction.atomic
def create_game(
    *,
    player: Player,
    kind: str,
    size: int,
    color: str,
    name: str,
    komi: float | None = None,
    scoring: str = "territory",
) -> Game:
    """A new game, waiting for an opponent, with ``player`` seated as ``color``.

    ``color`` is ``black``, ``white`` or ``random``; ``komi`` (default 6.5 for territory
    scoring, 7.5 for area) and ``scoring`` (``territory`` or ``area``) apply to Go only.
    Raises GameError("bad_request") for any option the game does not allow, a blank or
    too long name, or a player with neither session nor account.
    """
    name = _seat_name(player, name)
    if kind not in rules.KINDS:
        raise GameError("bad_request", f"kind must be one of {', '.join(rules.KINDS)}")
    if not _is_int(size):
        raise GameError("bad_request", "size must be an integer")
    if kind == Game.Kind.OTHELLO and size > OTHELLO_MAX_SIZE:
        raise GameError(
            "bad_request", f"Othello boards are at most {OTHELLO_MAX_SIZE}x{OTHELLO_MAX_SIZE}"
        )
    try:
        position = rules.new_position(kind, size)
    except rules.RulesError as error:
        raise GameError("bad_request", str(error)) from None
    if color == "random":
        color = secrets.choice(COLORS)
    elif color not in COLORS:
        raise GameError("bad_request", "color must be black, white or random")
    game = Game(
        kind=kind,
        size=size,
        creator_color=color,
        snapshot=position.to_snapshot(),
        to_move=position.to_move.value,
    )
    if kind == Game.Kind.GO:
        game.scoring_method = _scoring(scoring)
        game.komi = _komi(komi, game.scoring_method)
    game.score = _running_score(game, position)
    _seat(game, color, player, name)
    game.save()
    return game


@transaction.atomic
def join_game(*, player: Player, game_id: str, name: str) -> Game:
    """The game with ``player`` seated in its free seat, the game now active.

    A player already seated, or a game that is not waiting for an opponent, gets the
    game unchanged: the visitor watches. Raises GameError("bad_request") for an unknown
    game, or when there is a seat to take but the name is blank or too long or the
    player has neither session nor account.
    """
    game = _locked(game_id)
    if game.status != Game.Status.WAITING or color_of(game, player) is not None:
        return game
    free = Color.WHITE if game.creator_color == Color.BLACK else Color.BLACK
    _seat(game, free, player, _seat_name(player, name))
    game.status = Game.Status.ACTIVE
    game.save()
    _on_commit(lambda: events.broadcast_state(game))
    return game


@transaction.atomic
def abort(*, player: Player, game_id: str) -> Game:
    """The game called off by its creator before anyone joined; status ``aborted``.

    Raises GameError: bad_request (unknown game, or the game has started: resign
    instead), not_a_player, game_over.
    """
    game = _locked(game_id)
    if color_of(game, player) is None:
        raise GameError("not_a_player", "only the player who created the game can abort it")
    return _call_off(game)


@transaction.atomic
def abort_as_admin(*, game_id: str) -> Game:
    """The game called off from the admin before anyone joined; status ``aborted``.

    Raises GameError: bad_request (unknown game, or the game has started), game_over.
    """
    return _call_off(_locked(game_id))


def _call_off(game: Game) -> Game:
    _refuse_ended(game)
    if game.status != Game.Status.WAITING:
        raise GameError("bad_request", "the game has started: resign instead")
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    game.save()
    _on_commit(lambda: events.broadcast_state(game))
    return game


# Accounts


@transaction.atomic
def claim_guest_seats(*, guest_session_key: str, player: Player) -> list[Game]:
    """The games whose guest seats, held by the session ``guest_session_key``, now belong
    to ``player``'s account (and its current session): a guest who logs in or signs up
    keeps playing, and finds those games among the account's.

    A seat of a game in which the account already sits stays as it was (one account
    plays one side). Each changed game is broadcast (its seats changed hands). Raises
    GameError("bad_request") for a ``player`` without an account or a blank key.
    """
    if player.user_id is None or not guest_session_key:
        raise GameError("bad_request", "guest seats go to an account, from a session")
    held = Q(black_user=None, black_session_key=guest_session_key) | Q(
        white_user=None, white_session_key=guest_session_key
    )
    claimed = []
    for game in Game.objects.select_for_update().filter(held).order_by("pk"):
        if color_of(game, player) is not None:
            continue
        guest = Player(session_key=guest_session_key)
        color = color_of(game, guest)
        assert color is not None, "the query found the guest's seat"
        _seat(game, color, player, getattr(game, f"{color}_name"))
        game.save()
        _on_commit(functools.partial(events.broadcast_state, game))
        claimed.append(game)
    return claimed


# Moves


@transaction.atomic
def play(*, player: Player, game_id: str, ply: int, point: Any) -> list[Move]:
    """The stored moves: the placement on ``point`` ([row, col]), then any automatic pass.

    ``ply`` is the number of moves the caller has seen. Raises GameError, the first of:
    bad_request (a ply or point that is not integers, a point off the board, an unknown
    game), not_a_player, game_over, stale (``ply`` is not current), not_your_turn (also
    while waiting for an opponent), illegal_move (the rules' reason; also while Go is
    being scored).
    """
    _check_ply(ply)
    _check_point_shape(point)
    game = _locked(game_id)
    point = _on_board(game, point)
    _check_turn(game, player, ply)
    return _apply(game, rules.Move.place(point))


@transaction.atomic
def pass_turn(*, player: Player, game_id: str, ply: int) -> list[Move]:
    """The stored pass (Go only). Two passes in a row end the game.

    Raises GameError in the order of ``play``; a pass in Othello is illegal_move (its
    passes are automatic).
    """
    _check_ply(ply)
    game = _locked(game_id)
    _check_turn(game, player, ply)
    if game.kind == Game.Kind.OTHELLO:
        raise GameError("illegal_move", "Othello has no voluntary pass: passes are automatic")
    return _apply(game, rules.Move.pass_turn())


@transaction.atomic
def resign(*, player: Player, game_id: str) -> list[Move]:
    """The stored resignation of ``player``, on either side's turn (Go's scoring phase
    too: the marking is dropped); the opponent wins.

    Raises GameError: bad_request (unknown game), not_a_player, game_over,
    not_your_turn (still waiting for an opponent).
    """
    game = _locked(game_id)
    color = color_of(game, player)
    if color is None:
        raise GameError("not_a_player", "only the players can resign")
    _refuse_ended(game)
    _refuse_waiting(game)
    move = Move(game=game, ply=game.ply + 1, color=color, action=Move.Action.RESIGN)
    move.diff = {_changed_key(game): []}
    game.ply = move.ply
    if game.status == Game.Status.SCORING:
        _drop_marking(game, position_of(game))
    _finish(game, result=f"{rules.Color(color).opponent.letter}+R")
    move.save()
    game.save()
    _on_commit(lambda: events.broadcast_moved(game, [move]))
    return [move]


# Go's scoring phase
#
# Two passes in a row (``_end_of_play``) put a Go game in ``scoring`` with the dead stones
# the rules guess (``go.estimate_dead``) and the count that follows. Either player then
# toggles chains dead or alive (``mark``), accepts the marking (``accept``; both: the game
# is finished with that count) or plays on (``resume``). Every change of the marking
# raises ``game.marking`` and withdraws both acceptances, so nobody is held to a marking
# they did not see; a client may also name the marking it acts on (``marking``), and an
# old number is answered ``stale``, like an old ``ply``.


@transaction.atomic
def mark(*, player: Player, game_id: str, point: Any, marking: Any = None) -> Game:
    """The game with the chain on ``point`` ([row, col]) toggled: dead if it was alive,
    alive if it was dead; both acceptances withdrawn, the count updated, ``marking`` + 1.

    Raises GameError, the first of: bad_request (a point or marking that is not integers,
    a point off the board, an unknown game), not_a_player, game_over, stale (``marking``
    given and not the current one), illegal_move (the game is not being scored, or there
    is no stone on ``point``).
    """
    _check_point_shape(point)
    _check_marking(marking)
    game = _locked(game_id)
    point = _on_board(game, point)
    _check_scoring(game, player, marking)
    position = _go_position(game)
    chain = position.chain(point)
    if not chain:
        where = position.format_point(point)
        raise GameError("illegal_move", f"there is no stone on {where} to mark")
    dead = {(row, col) for row, col in game.dead}
    _count(game, position, dead - chain if point in dead else dead | chain)
    game.black_accepted = game.white_accepted = False
    game.marking += 1
    game.save()
    _on_commit(lambda: events.broadcast_state(game))
    return game


@transaction.atomic
def accept(*, player: Player, game_id: str, marking: Any = None) -> Game:
    """The game with ``player``'s acceptance of the current marking; once both players
    have accepted it, the game is finished with its count (``result`` B+3.5, W+0.5, Draw).

    Accepting twice changes nothing. Raises GameError like ``mark`` (no point): stale for
    an old ``marking``, illegal_move outside the scoring phase.
    """
    _check_marking(marking)
    game = _locked(game_id)
    color = _check_scoring(game, player, marking)
    if getattr(game, f"{color}_accepted"):
        return game
    setattr(game, f"{color}_accepted", True)
    if game.black_accepted and game.white_accepted:
        dead = {(row, col) for row, col in game.dead}
        _finish(game, result=_count(game, _go_position(game), dead).result)
    game.save()
    _on_commit(lambda: events.broadcast_state(game))
    return game


@transaction.atomic
def resume(*, player: Player, game_id: str, marking: Any = None) -> Game:
    """The game back in play (``active``) with the side to move after the passes; the
    marking and the acceptances dropped, ``marking`` + 1.

    Raises GameError like ``accept``.
    """
    _check_marking(marking)
    game = _locked(game_id)
    _check_scoring(game, player, marking)
    position = _go_position(game).resume()
    game.snapshot = position.to_snapshot()
    game.to_move = position.to_move.value
    game.status = Game.Status.ACTIVE
    _drop_marking(game, position)
    game.marking += 1
    game.save()
    _on_commit(lambda: events.broadcast_state(game))
    return game


# The steps


def _locked(game_id: str) -> Game:
    if not isinstance(game_id, str):
        raise GameError("bad_request", "game id must be a string")
    try:
        return Game.objects.select_for_update().get(public_id=game_id)
    except Game.DoesNotExist:
        raise GameError("bad_request", f"there is no game {game_id!r}") from None


def _check_ply(ply: object) -> None:
    if not _is_int(ply):
        raise GameError("bad_request", "ply must be an integer")


def _check_point_shape(point: object) -> None:
    if not (isinstance(point, list | tuple) and len(point) == 2 and all(map(_is_int, point))):
        raise GameError("bad_request", "point must be [row, col], two integers")


def _on_board(game: Game, point: Any) -> rules.Point:
    row, col = point
    if not (0 <= row < game.size and 0 <= col < game.size):
        raise GameError("bad_request", f"[{row}, {col}] is off the {game.size}x{game.size} board")
    return row, col


def _check_marking(marking: object) -> None:
    if marking is not None and not _is_int(marking):
        raise GameError("bad_request", "marking must be an integer")


def _check_scoring(game: Game, player: Player, marking: int | None) -> str:
    """The contract's order after bad_request, for mark, accept and resume: the caller's
    colour."""
    color = color_of(game, player)
    if color is None:
        raise GameError("not_a_player", "only the players score the game")
    _refuse_ended(game)
    if marking is not None and marking != game.marking:
        raise GameError("stale", f"the marking is number {game.marking}, not {marking}")
    if game.status != Game.Status.SCORING:
        raise GameError("illegal_move", "the game is not being scored: only after two passes")
    return color


def _check_turn(game: Game, player: Player, ply: int) -> None:
    """The contract's order after bad_request, for a placement or a pass."""
    color = color_of(game, player)
    if color is None:
        raise GameError("not_a_player", "spectators cannot play")
    _refuse_ended(game)
    if ply != game.ply:
        raise GameError("stale", f"the game is at ply {game.ply}, not {ply}")
    _refuse_waiting(game)
    if game.status == Game.Status.SCORING:
        raise GameError("illegal_move", "the game is being scored: resume it to play on")
    if color != game.to_move:
        raise GameError("not_your_turn", f"it is {game.to_move}'s turn")


def _refuse_ended(game: Game) -> None:
    if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise GameError("game_over", f"the game is {game.status}")


def _refuse_waiting(game: Game) -> None:
    if game.status == Game.Status.WAITING:
        raise GameError("not_your_turn", "waiting for an opponent")


def _apply(game: Game, move: rules.Move) -> list[Move]:
    """Play ``move`` and Othello's automatic passes; store them and the new position."""
    position = position_of(game)
    try:
        position, diff = position.play(move)
    except rules.IllegalMoveError as error:
        raise GameError("illegal_move", str(error)) from None
    except rules.InvalidMoveError as error:
        raise GameError("bad_request", str(error)) from None
    diffs = [diff]
    while isinstance(position, rules.OthelloPosition) and position.must_pass:
        position, diff = position.play(rules.Move.pass_turn())
        diffs.append(diff)
    moves = [_move_row(game, game.ply + number, diff) for number, diff in enumerate(diffs, 1)]
    game.ply += len(moves)
    game.snapshot = position.to_snapshot()
    game.to_move = position.to_move.value
    game.score = _running_score(game, position)
    if position.is_over:
        _end_of_play(game, position)
    Move.objects.bulk_create(moves)
    game.save()
    _on_commit(lambda: events.broadcast_moved(game, moves))
    return moves


def _end_of_play(game: Game, position: rules.Position) -> None:
    if isinstance(position, rules.OthelloPosition):
        _finish(game, result=position.result() or "Draw")
        return
    # Two passes: the players now agree on the dead stones, starting from the rules' guess.
    game.status = Game.Status.SCORING
    game.black_accepted = game.white_accepted = False
    game.marking += 1
    _count(game, position, go.estimate_dead(position))


def _go_position(game: Game) -> rules.GoPosition:
    position = position_of(game)
    assert isinstance(position, rules.GoPosition), "only Go games reach the scoring phase"
    return position


def _count(game: Game, position: rules.GoPosition, dead: Collection[rules.Point]) -> go.GoScore:
    """Store on ``game`` the count of ``position`` with ``dead`` lifted: the dead stones,
    the territory, the breakdown and the totals (``score``)."""
    try:
        final = go.score(
            position, dead=dead, komi=game.komi or 0.0, method=_scoring(game.scoring_method)
        )
    except (rules.RulesError, rules.InvalidMoveError) as error:
        raise GameError("bad_request", str(error)) from None
    game.dead = sorted([row, col] for row, col in dead)
    game.territory = {
        color.value: sorted([row, col] for row, col in final.territory_points[color])
        for color in rules.Color
    }
    game.score_detail = {
        color.value: {
            "territory": final.territory[color],
            "prisoners": final.prisoners[color],
            "dead": final.dead[color],
            "stones": final.stones[color],
            "komi": final.komi[color],
            "total": final.total[color],
        }
        for color in rules.Color
    }
    game.score = {color.value: final.total[color] for color in rules.Color}
    return final


def _drop_marking(game: Game, position: rules.Position) -> None:
    """Forget the count of the scoring phase: no dead stones, the score of a game in play."""
    game.dead = []
    game.territory = None
    game.score_detail = None
    game.black_accepted = game.white_accepted = False
    game.score = _running_score(game, position)


def _finish(game: Game, *, result: str) -> None:
    game.status = Game.Status.FINISHED
    game.result = result
    game.finished_at = timezone.now()


def _move_row(game: Game, ply: int, diff: rules.Diff) -> Move:
    changed = diff.flipped if game.kind == Game.Kind.OTHELLO else diff.captured
    row, col = diff.point if diff.point is not None else (None, None)
    return Move(
        game=game,
        ply=ply,
        color=diff.color.value,
        action=diff.action,
        row=row,
        col=col,
        diff={_changed_key(game): [list(point) for point in changed]},
    )


def _changed_key(game: Game) -> str:
    return "flipped" if game.kind == Game.Kind.OTHELLO else "captured"


def _running_score(game: Game, position: rules.Position) -> dict[str, float]:
    """Othello: the discs. Go while playing: the prisoners, plus komi for White."""
    if isinstance(position, rules.OthelloPosition):
        counts: dict[rules.Color, float] = dict(position.disc_counts())
    else:
        counts = dict(position.prisoners)
        counts[rules.Color.WHITE] += game.komi or 0.0
    return {color.value: counts[color] for color in rules.Color}


def _seat(game: Game, color: str, player: Player, name: str) -> None:
    setattr(game, f"{color}_name", name)
    setattr(game, f"{color}_user_id", player.user_id)
    setattr(game, f"{color}_session_key", player.session_key or "")


def _seat_name(player: Player, name: object) -> str:
    if player.token is None:
        raise GameError("bad_request", "taking a seat needs a session or an account")
    if not isinstance(name, str) or not name.strip():
        raise GameError("bad_request", "a seat needs a name")
    if len(name.strip()) > NAME_MAX_LENGTH:
        raise GameError("bad_request", f"names are at most {NAME_MAX_LENGTH} characters")
    return name.strip()


def _scoring(scoring: object) -> go.ScoringMethod:
    if scoring == "territory":
        return "territory"
    if scoring == "area":
        return "area"
    raise GameError("bad_request", "scoring must be territory or area")


def _komi(komi: object, scoring: str) -> float:
    if komi is None:
        return DEFAULT_KOMI[scoring]
    if (
        not isinstance(komi, int | float)
        or isinstance(komi, bool)
        or not math.isfinite(komi)
        or abs(komi) > KOMI_LIMIT
        or komi * 2 != int(komi * 2)
    ):
        raise GameError(
            "bad_request", f"komi must be a multiple of 0.5 from -{KOMI_LIMIT} to {KOMI_LIMIT}"
        )
    return float(komi)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _on_commit(broadcast: Callable[[], None]) -> None:
    # robust: the moves are stored whatever happens to the broadcast; a client that
    # missed it catches up with `sync` (the failure is logged by Django).
    transaction.on_commit(broadcast, robust=True)


# Records


@transaction.atomic
def import_game(*, record: sgf.GameRecord) -> Game:
    """A finished game stored from ``record`` (an imported SGF file), every move replayed.

    The seats carry the record's names (``Black`` and ``White`` when it has none) and
    belong to no session or account: nobody plays on in an imported game. A game played
    to its end is counted (Go: with the record's dead stones, ``MA``); the result is the
    record's when it has one, else that count, else blank. It was played on the day the
    record's ``DT`` names (``played_on``; none when it names no day). It starts from the
    record's setup when it has one (``start``); a setup without moves is a finished game at
    ply 0 whose result is the record's, else an Othello board's count when nobody can move,
    else blank (a Go position is not counted).
    Raises GameError("bad_request") for a record the rules refuse (kind, size, setup, a
    move); nothing is stored then.
    """
    if record.kind == Game.Kind.OTHELLO and record.size > OTHELLO_MAX_SIZE:
        raise GameError(
            "bad_request", f"Othello boards are at most {OTHELLO_MAX_SIZE}x{OTHELLO_MAX_SIZE}"
        )
    try:
        played = sgf.replay(record)
    except sgf.RecordError as error:
        raise GameError("bad_request", str(error)) from None
    position = played[-1][0] if played else sgf.start_position(record)
    game = Game(
        kind=record.kind,
        size=record.size,
        start=None if record.setup is None else record.setup.to_json(),
        creator_color=Color.BLACK,
        black_name=_record_name(record.black_name, "Black"),
        white_name=_record_name(record.white_name, "White"),
        snapshot=position.to_snapshot(),
        ply=len(played),
        to_move=position.to_move.value,
        played_on=record.played_on,
    )
    if record.kind == Game.Kind.GO:
        game.scoring_method = "territory"
        game.komi = record.komi or 0.0
    game.score = _running_score(game, position)
    counted = None
    if isinstance(position, rules.OthelloPosition) and position.is_over:
        counted = position.result()
    elif isinstance(position, rules.GoPosition) and position.is_over:
        counted = _count(game, position, record.dead).result
    result = record.result or counted or ""
    _finish(game, result=result[: Game._meta.get_field("result").max_length])
    game.save()
    Move.objects.bulk_create(
        [_move_row(game, ply, diff) for ply, (_, diff) in enumerate(played, start=1)]
    )
    return game


def _record_name(name: str | None, default: str) -> str:
    return (name or "").strip()[:NAME_MAX_LENGTH] or default
