"""Around the board: the chat, taking back a move, and a rematch.

- ``say``: a message to the game's chat, from a player or a spectator, stored and
  broadcast (``chat``); the last ``CHAT_HISTORY`` are sent to a socket on connect.
- ``ask_undo`` / ``accept_undo`` / ``decline_undo``: the player who made the last move
  asks to take it back; the opponent accepts (the move, with an automatic pass that
  followed it, leaves the record as if never played: its rows deleted, the position and
  both clocks as they were before it) or declines (the same move may not be asked again
  until the next one). One request at a time; any new move, a resignation or the end of
  the game cancels it. The computer accepts at once. What was said after a move taken
  back follows the move before it.
- ``offer_rematch``: after the game, one player offers, the other accepts the same way: a
  new game with the same settings and the colours swapped (against the computer it
  starts at once).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

import gamerules as rules
from accounts.players import Player
from gamerules.clock import SideClock
from games import limits
from games.models import ChatMessage, Color, Game, Move
from games.realtime import events
from games.selectors import color_of
from games.services import clock
from games.services.after_commit import nudge_computer, on_commit
from games.services.errors import GameError
from games.services.fields import check_ply
from games.services.lock import locked
from games.services.moves import running_score
from games.services.refusals import refuse_ended, refuse_muted, refuse_stale, refuse_waiting

CHAT_MAX = 300
CHAT_HISTORY = 100
UNDOABLE = (Move.Action.PLACE, Move.Action.PASS)


# The chat


@transaction.atomic
def say(*, player: Player, game_id: str, name: str, text: Any) -> ChatMessage:
    """``text`` (trimmed, 1 to 300 characters) said in the game's chat by ``player``,
    named ``name`` (a player: the seat's name), stored and broadcast. Raises GameError:
    rate_limited (``player`` said ``limits.CHAT_LINES`` in this game within the last
    ``limits.CHAT_WINDOW``, from whatever sockets), bad_request (an unknown game, a text
    that is not 1 to 300 characters), muted (staff muted the account: ``until`` in
    ``details``)."""
    game = locked(game_id)
    if limits.chat_flooding(game.chat.all(), speaker=player, now=timezone.now()):
        raise GameError("rate_limited", limits.chat_limit_message())
    if not isinstance(text, str) or not text.strip():
        raise GameError("bad_request", gettext("text must be 1 to 300 characters"))
    text = text.strip()
    if len(text) > CHAT_MAX:
        raise GameError(
            "bad_request",
            gettext("text must be 1 to %(chat_max)s characters") % {"chat_max": CHAT_MAX},
        )
    refuse_muted(player.user_id)
    color = color_of(game, player) or ""
    if color:
        name = game.seat(color).name or name
    message = ChatMessage.objects.create(
        game=game,
        name=(name or "Guest")[:40],
        color=color,
        user_id=player.user_id,
        session_key=player.session_key or "",
        text=text,
        ply=game.ply,
    )
    on_commit(lambda: events.broadcast_chat(game, message))
    return message


def chat_history(game_id: str) -> list[ChatMessage]:
    """The last ``CHAT_HISTORY`` messages of the game, oldest first."""
    last = (
        ChatMessage.objects.filter(game__public_id=game_id)
        .select_related("user")
        .order_by("-created_at", "-pk")
    )
    return list(reversed(last[:CHAT_HISTORY]))


# Taking back a move


@transaction.atomic
def ask_undo(*, player: Player, game_id: str, ply: Any) -> Game:
    """``player`` asks to take back the last move, which is theirs (``ply``: the game's
    ply as they saw it); against the computer their own last move goes at once, with
    what followed it. Raises GameError: bad_request, not_a_player, game_over, stale,
    not_your_turn (no opponent yet), illegal_move (not their move, a request pending or
    declined for this move, the game being counted; against the computer: no move of
    theirs, a rated game)."""
    check_ply(ply)
    game = locked(game_id)
    color = _player_of(game, player)
    refuse_stale(game, ply)
    refuse_waiting(game)
    if game.status != Game.Status.ACTIVE:
        raise GameError("illegal_move", gettext("a move can be taken back only while playing"))
    if game.computer_color:
        return _take_back_from_computer(game, color)
    last = _last_move_of(game)
    if last is None or last.color != color:
        raise GameError(
            "illegal_move", gettext("only the last move, by whoever made it, can be taken back")
        )
    if game.undo_request:
        raise GameError("illegal_move", gettext("a request to take back a move is already pending"))
    if game.undo_declined_ply == game.ply:
        raise GameError(
            "illegal_move", gettext("your opponent declined: not again before the next move")
        )
    game.undo_request = color
    game.save(update_fields=["undo_request", "updated_at"])
    on_commit(lambda: events.broadcast_state(game))
    return game


@transaction.atomic
def accept_undo(*, player: Player, game_id: str, ply: Any) -> Game:
    """The opponent of the asking player agrees: the last move (and an automatic pass
    after it) is taken back. Raises GameError like ``ask_undo``; illegal_move when no
    request is pending or ``player`` is the one who asked."""
    game = _answering(player, game_id, ply)
    last = _last_move_of(game)
    assert last is not None, "a request is pending for a move"
    return _take_back(game, last, timezone.now())


@transaction.atomic
def decline_undo(*, player: Player, game_id: str, ply: Any) -> Game:
    """The opponent of the asking player refuses; the same move may not be asked back
    again. Raises GameError like ``accept_undo``."""
    game = _answering(player, game_id, ply)
    game.undo_request = ""
    game.undo_declined_ply = game.ply
    game.save(update_fields=["undo_request", "undo_declined_ply", "updated_at"])
    on_commit(lambda: events.broadcast_state(game))
    return game


def _answering(player: Player, game_id: str, ply: Any) -> Game:
    check_ply(ply)
    game = locked(game_id)
    color = _player_of(game, player)
    refuse_stale(game, ply)
    if not game.undo_request or game.undo_request == color:
        raise GameError("illegal_move", gettext("there is no request of your opponent's to answer"))
    return game


def _player_of(game: Game, player: Player) -> str:
    color = color_of(game, player)
    if color is None:
        raise GameError("not_a_player", gettext("only the players take back moves"))
    refuse_ended(game)
    return color


def _last_move_of(game: Game) -> Move | None:
    """The last move a player chose: the placement or pass before any automatic passes."""
    for move in game.moves.order_by("-ply")[:2]:
        if move.action not in UNDOABLE:
            return None
        if not _automatic(game, move):
            return move
    return None


def _take_back_from_computer(game: Game, color: str) -> Game:
    """Against the computer, which agrees at once: the person's last chosen move is taken
    back with everything after it (the computer's reply, automatic passes). Raises
    GameError("illegal_move") in a rated game, or when the person has no move to take
    back."""
    if game.rated:
        raise GameError("illegal_move", gettext("moves are not taken back in a rated game"))
    mine = game.moves.filter(color=color, action__in=UNDOABLE).order_by("-ply")
    last = next((move for move in mine if not _automatic(game, move)), None)
    if last is None:
        raise GameError("illegal_move", gettext("you have no move to take back"))
    game.undo_request = color
    return _take_back(game, last, timezone.now())


def _automatic(game: Game, move: Move) -> bool:
    """An Othello pass is always the server's (Othello has no voluntary pass)."""
    return game.kind == Game.Kind.OTHELLO and move.action == Move.Action.PASS


def _take_back(game: Game, last: Move, now: datetime.datetime) -> Game:
    """Delete ``last`` and every move after it; restore the position (replayed from the
    start by the rules) and the clocks of the sides whose chosen moves went as they were
    before those moves; ``last``'s mover is to play again, its turn starting now. A turn
    of the computer's being thought is given up (its answer is for a position gone)."""
    assert game.undo_request
    undone = list(game.moves.filter(ply__gte=last.ply))
    kept = list(game.moves.filter(ply__lt=last.ply).order_by("ply"))
    position = _replayed(game, kept)
    Move.objects.filter(pk__in=[move.pk for move in undone]).delete()
    game.ply = last.ply - 1
    _reattach_chat(game)
    game.snapshot = position.to_snapshot()
    game.to_move = position.to_move.value
    game.score = running_score(game, position)
    if game.clocks is not None:
        movers = {str(move.color) for move in undone if not _automatic(game, move)}
        restored = {color: _clock_before(game, kept, color).to_json() for color in movers}
        game.clocks = {**game.clocks, **restored}
    game.undo_request = ""
    game.undo_declined_ply = None
    game.computer_thinker = ""
    game.computer_since = None
    clock.start_turn(game, now)
    game.save()
    nudge_computer(game)
    on_commit(lambda: events.broadcast_undone(game))
    return game


def _reattach_chat(game: Game) -> None:
    """What was said after a move now taken back follows the move before it (in the replay
    and the SGF's comments), not the move that will be played in its place."""
    ChatMessage.objects.filter(game=game, ply__gt=game.ply).update(ply=game.ply)


def _replayed(game: Game, moves: Sequence[Move]) -> rules.Position:
    """The position after ``moves``, played by the rules from the game's start."""
    position = rules.setup_position(str(game.kind), game.size, game.start)
    for move in moves:
        point = None if move.row is None else (move.row, move.col)
        played = rules.Move.place(point) if point is not None else rules.Move.pass_turn()
        position, _ = position.play(played)
    return position


def _clock_before(game: Game, kept: Sequence[Move], color: str) -> SideClock:
    """``color``'s clock before its undone move: as its previous move left it, or at the
    start of the game."""
    control = clock.control_of(game)
    assert control is not None
    previous = next((m for m in reversed(kept) if m.color == color and m.action in UNDOABLE), None)
    if previous is None or previous.clock_ms is None:
        return control.start()
    return control.restored(previous.clock_ms, previous.overtime_left)


# The rematch


@transaction.atomic
def offer_rematch(*, player: Player, game_id: str) -> Game:
    """``player`` offers (or, when the opponent offered, accepts) a rematch of the game,
    which is over. Accepted: the new game, same settings, colours swapped, both seated
    (against the computer: at once). Raises GameError: bad_request, not_a_player,
    illegal_move (the game is not over, was called off, or already has its rematch)."""
    game = locked(game_id)
    color = color_of(game, player)
    if color is None:
        raise GameError("not_a_player", gettext("only the players can play again"))
    if game.status != Game.Status.FINISHED:
        raise GameError("illegal_move", gettext("a rematch is offered once the game is over"))
    if game.rematch_id is not None:
        raise GameError("illegal_move", gettext("this game already has its rematch"))
    if (game.rematch_offer and game.rematch_offer != color) or game.computer_color:
        return _start_rematch(game)
    game.rematch_offer = color
    game.save(update_fields=["rematch_offer", "updated_at"])
    on_commit(lambda: events.broadcast_state(game))
    return game


def _start_rematch(game: Game) -> Game:
    now = timezone.now()
    swapped = Color.WHITE if game.creator_color == Color.BLACK else Color.BLACK
    position = _replayed(game, [])  # the same start: a handicap game's stones
    new = Game(
        kind=game.kind,
        size=game.size,
        start=game.start,
        komi=game.komi,
        scoring_method=game.scoring_method,
        creator_color=swapped,
        snapshot=position.to_snapshot(),
        to_move=position.to_move.value,
        status=Game.Status.ACTIVE,
        computer_color=_other(game.computer_color),
        computer_level=game.computer_level,
        rated=game.rated,
    )
    for seat in game.seats:
        # Online once a socket of theirs opens on the new game (the computer: always).
        computer = seat.opponent.color == new.computer_color
        new.set_seat(
            seat.opponent.color,
            name=seat.name,
            user_id=seat.user_id,
            session_key=seat.session_key,
            online=computer,
            away_since=None if computer else now,
        )
    new.score = running_score(new, position)
    clock.start_clocks(new, clock.control_of(game))
    clock.start_turn(new, now)
    new.save()
    game.rematch = new
    game.rematch_offer = ""
    game.save(update_fields=["rematch", "rematch_offer", "updated_at"])
    nudge_computer(new)
    on_commit(lambda: events.broadcast_rematch(game, new))
    return game


def _other(color: str) -> str:
    return {"black": "white", "white": "black"}.get(color, "")
