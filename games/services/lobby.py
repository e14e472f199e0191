"""Creating, joining and calling off games; a guest's seats passing to an account."""

from __future__ import annotations

import datetime
import functools
import math
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

import gamerules as rules
from accounts import names
from accounts import selectors as accounts
from accounts.players import GUEST_NAME, Player
from gamerules import go
from gamerules.clock import TimeControl
from gamerules.sgf import Setup
from games.models import ChatMessage, Color, Game, seat_columns, seat_q
from games.realtime import events
from games.selectors import COLORS, color_of
from games.services import clock, computer, tell
from games.services.after_commit import nudge_computer, on_commit
from games.services.ending import end_aborted
from games.services.errors import GameError, said
from games.services.fields import is_int, scoring_method
from games.services.lock import locked
from games.services.moves import running_score
from games.services.refusals import refuse_ended, refuse_engine

NAME_MAX_LENGTH = 40
# The engine plays Othello on any even board; the server stops where a page still shows it.
OTHELLO_MAX_SIZE = 16
KOMI_LIMIT = 50
DEFAULT_KOMI = {"territory": 6.5, "area": 7.5}
HANDICAP_KOMI = 0.5


@dataclass(frozen=True)
class NewGame:
    """What a new game is asked to be (``create_game``'s request), as a player fills the
    create form.

    ``color`` is ``black``, ``white`` or ``random``; ``name`` the creator's seat's name (a
    guest's: an account's seat takes its username whatever it says); ``komi`` (default
    6.5 for territory scoring, 7.5 for area) and ``scoring`` (``territory`` or ``area``)
    apply to Go only; ``time_control``: the clock, None for none (its clocks start when
    the game does). ``handicap`` (Go): 0, or as many black stones as the size takes
    (``go.handicap_counts``) on the standard points before the first move, White to play
    first, komi 0.5 unless given. ``opponent`` ``computer`` seats the computer at
    ``level`` (1..10) in the other seat at once: the game is active (and the computer, if
    it plays Black, moves first). ``rated``: the game moves both players' ratings when it
    ends (players.ratings); it needs the creator logged in, a human opponent and a clock.
    ``reserved_for``: a challenge's account (an id), the only one that may take the free
    seat.

    Nothing is checked here: the fields come from a form or a socket as sent, and
    ``create_game`` refuses what the game does not allow."""

    kind: str
    size: int
    color: str
    name: str
    komi: float | None = None
    scoring: str = "territory"
    time_control: TimeControl | None = None
    opponent: str = "human"
    level: int | None = None
    handicap: int = 0
    rated: bool = False
    reserved_for: int | None = None


@transaction.atomic
def create_game(*, player: Player, new: NewGame) -> Game:
    """A new game as ``new`` asks, waiting for an opponent, with ``player`` seated as
    ``new.color``.

    Raises GameError("bad_request") for any option the game does not allow, a blank or
    too long name, or a player with neither session nor account; GameError("not_allowed")
    naming ``rated`` for a rated game of an account marked for engine use.
    """
    game = _new_game(player, new, name=_seat_name(player, new.name))
    if new.reserved_for is not None:
        if new.opponent != "human" or new.reserved_for == player.user_id:
            raise GameError("bad_request", gettext("a challenge is for another person"))
        game.reserved_for_id = new.reserved_for
    if game.rated:
        refuse_engine(player.user_id, field="rated")
    game.save()
    if game.status == Game.Status.ACTIVE:  # against the computer: it starts at once
        tell.started([game])
    nudge_computer(game)
    return game


def _new_game(player: Player, new: NewGame, *, name: str) -> Game:
    """The game ``create_game`` makes, not yet saved (its defaults, checks and errors),
    ``player`` seated under ``name`` (``_seat_name``'s)."""
    _check_rated(new.rated, player=player, opponent=new.opponent, time_control=new.time_control)
    kind, size, color, komi = new.kind, new.size, new.color, new.komi
    if kind not in rules.KINDS:
        raise GameError(
            "bad_request",
            gettext("kind must be one of %(kinds)s") % {"kinds": ", ".join(rules.KINDS)},
        )
    if not is_int(size):
        raise GameError("bad_request", gettext("size must be an integer"))
    if kind == Game.Kind.OTHELLO and size > OTHELLO_MAX_SIZE:
        raise GameError(
            "bad_request",
            gettext("Othello boards are at most %(othello_max_size)sx%(othello_max_size)s")
            % {"othello_max_size": OTHELLO_MAX_SIZE},
        )
    try:
        position = rules.new_position(kind, size)
    except rules.RulesError as error:
        raise GameError("bad_request", said(error)) from None
    start = _handicap_start(kind, size, new.handicap)
    if start is not None:
        position = rules.GoPosition.from_rows(start.rows, start.to_move)
    if color == "random":
        color = secrets.choice(COLORS)
    elif color not in COLORS:
        raise GameError("bad_request", gettext("color must be black, white or random"))
    game = Game(
        kind=kind,
        size=size,
        creator_color=color,
        snapshot=position.to_snapshot(),
        start=None if start is None else start.to_json(),
        to_move=position.to_move.value,
        rated=new.rated,
    )
    if kind == Game.Kind.GO:
        game.scoring_method = scoring_method(new.scoring)
        if komi is None and start is not None:
            komi = HANDICAP_KOMI
        game.komi = _komi(komi, game.scoring_method)
    game.score = running_score(game, position)
    clock.start_clocks(game, new.time_control)
    _seat(game, color, player, name)
    if new.opponent == "computer":
        level = new.level
        if not is_int(level) or level not in computer.LEVELS:
            raise GameError("bad_request", gettext("level must be an integer from 1 to 10"))
        computer.seat_computer(game, rules.Color(color).opponent.value, level)
        game.status = Game.Status.ACTIVE
        clock.start_turn(game, timezone.now())
    elif new.opponent != "human":
        raise GameError("bad_request", gettext("opponent must be human or computer"))
    return game


@transaction.atomic
def join_game(*, player: Player, game_id: str, name: str) -> Game:
    """The game with ``player`` seated in its free seat, the game now active.

    A player already seated, a game that is not waiting for an opponent, or a seat kept
    for another account (``Game.reserved_for``: a challenge to someone else), gets the
    game unchanged: the visitor watches. Raises
    GameError("bad_request") for an unknown game, or when there is a seat to take but the
    player has neither session nor account, and (naming ``name``) when a guest's name is
    blank, too long or an account's; GameError("not_allowed") for a rated game's seat and
    an account marked for engine use.
    """
    game = locked(game_id)
    if game.status != Game.Status.WAITING or color_of(game, player) is not None:
        return game
    if game.reserved_for_id is not None and game.reserved_for_id != player.user_id:
        return game  # a challenge: only the challenged account takes the seat
    if game.rated:
        refuse_engine(player.user_id)
    _take_free_seat(game, player, name, now=timezone.now())
    game.save()
    tell.started([game])
    on_commit(lambda: events.broadcast_state(game))
    on_commit(events.broadcast_lobby)
    return game


def _take_free_seat(
    game: Game, player: Player, name: str, *, now: datetime.datetime, taken_as_guest: bool = False
) -> None:
    """``player`` seated in ``game``'s free seat (named as ``_seat_name`` says), the game
    active, its clock started at ``now`` (not saved). Raises GameError("bad_request") as
    ``join_game`` does."""
    if game.rated and player.user_id is None:
        raise GameError(
            "bad_request", gettext("rated games are for accounts: log in to play (or watch)")
        )
    free = Color.WHITE if game.creator_color == Color.BLACK else Color.BLACK
    _seat(game, free, player, _seat_name(player, name, taken_as_guest=taken_as_guest))
    game.status = Game.Status.ACTIVE
    clock.start_turn(game, now)


@dataclass(frozen=True)
class Entrant:
    """One side of a game ``start_games`` makes: who sits there, and under what name."""

    player: Player
    name: str


@dataclass(frozen=True)
class NewPair:
    """A game ``start_games`` makes between two people: ``first`` creates it (in
    ``color``: at random unless given, as a tournament's pairing gives it), ``second``
    joins it; kind, size, clock and ``rated`` as ``NewGame`` holds them."""

    first: Entrant
    second: Entrant
    kind: str
    size: int
    time_control: TimeControl | None
    rated: bool
    color: str = "random"


@transaction.atomic
def start_games(pairs: Sequence[NewPair]) -> list[Game]:
    """The games of ``pairs``, started at once: each as ``create_game`` (its ``color``)
    by its ``first`` and ``join_game`` by its ``second`` would make it (the same checks,
    seats and names, the clock started, active), inserted together in one query, and the
    lobby told once after the commit. For the pairing pools, which start hundreds a
    second: one game at a time, each is two saves, a lock and a broadcast of its state
    (to the game's group, which nobody can have joined before it existed, so none is
    sent here).

    Raises GameError("bad_request") for any pair ``create_game`` or ``join_game`` would
    refuse, or whose two sides are one player (one account, or one guest's session);
    then nothing is stored.
    """
    games = []
    now = timezone.now()
    for pair in pairs:
        first = pair.first
        new = NewGame(
            kind=pair.kind,
            size=pair.size,
            color=pair.color,
            name=first.name,
            time_control=pair.time_control,
            rated=pair.rated,
        )
        game = _new_game(
            first.player, new, name=_seat_name(first.player, first.name, taken_as_guest=True)
        )
        if color_of(game, pair.second.player) is not None:
            raise GameError("bad_request", gettext("a player cannot play against themself"))
        _take_free_seat(game, pair.second.player, pair.second.name, now=now, taken_as_guest=True)
        games.append(game)
    made = Game.objects.bulk_create(games)
    if made:
        tell.started(made)
        on_commit(events.broadcast_lobby)
    return made


@transaction.atomic
def abort(*, player: Player, game_id: str) -> Game:
    """The game called off by its creator before anyone joined; status ``aborted``.

    Raises GameError: bad_request (unknown game, or the game has started: resign
    instead), not_a_player, game_over.
    """
    game = locked(game_id)
    if color_of(game, player) is None:
        raise GameError(
            "not_a_player", gettext("only the player who created the game can abort it")
        )
    return _call_off(game)


@transaction.atomic
def abort_as_admin(*, game_id: str) -> Game:
    """The game called off from the admin before anyone joined; status ``aborted``.

    Raises GameError: bad_request (unknown game, or the game has started), game_over.
    """
    return _call_off(locked(game_id))


def _call_off(game: Game) -> Game:
    refuse_ended(game)
    if game.status != Game.Status.WAITING:
        raise GameError("bad_request", gettext("the game has started: resign instead"))
    end_aborted(game, Game.AbortReason.CALLED_OFF)
    return game


@transaction.atomic
def claim_guest_seats(*, guest_session_key: str, player: Player) -> list[Game]:
    """The games whose guest seats, held by the session ``guest_session_key``, now belong
    to ``player``'s account (and its current session), named by its username: a guest who
    logs in or signs up keeps playing, and finds those games among the account's.

    A seat of a game in which the account already sits stays as it was (one account
    plays one side). Each changed game is broadcast (its seats changed hands). Raises
    GameError("bad_request") for a ``player`` without an account or a blank key.
    """
    if player.user_id is None or not guest_session_key:
        raise GameError("bad_request", gettext("guest seats go to an account, from a session"))
    held = Q(black_user=None, black_session_key=guest_session_key) | Q(
        white_user=None, white_session_key=guest_session_key
    )
    claimed = []
    name = _seat_name(player, None)
    for game in Game.objects.select_for_update().filter(held).order_by("pk"):
        if color_of(game, player) is not None:
            continue
        guest = Player(session_key=guest_session_key)
        color = color_of(game, guest)
        assert color is not None, "the query found the guest's seat"
        _seat(game, color, player, name)
        game.save()
        on_commit(functools.partial(events.broadcast_state, game))
        claimed.append(game)
    return claimed


def guest_logged_in(
    sender: Any, guest_session_key: str, session: Any, user: Any, **kwargs: Any
) -> None:
    """``accounts.signals.guest_logged_in`` receiver: the guest's seats go to the account."""
    claim_guest_seats(guest_session_key=guest_session_key, player=Player.of(session, user))


def rename_account_seats(
    sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any
) -> None:
    """``post_save`` receiver of accounts: an account's seats and chat lines take its
    username when it changed (an admin's edit), so that no seat shows a name its account
    no longer has (G's ``accounts`` reads the seat's name). A save that names its fields
    without ``username`` (a login's ``last_login``) changes nothing, at no cost."""
    if update_fields is not None and "username" not in update_fields:
        return
    name = instance.get_username()
    for color in COLORS:
        seats = Game.objects.filter(seat_q(color, user=instance)).exclude(seat_q(color, name=name))
        seats.update(**seat_columns(color, name=name))
    ChatMessage.objects.filter(user=instance).exclude(name=name).update(name=name)


def _check_rated(
    rated: object, *, player: Player, opponent: str, time_control: TimeControl | None
) -> None:
    if not isinstance(rated, bool):
        raise GameError("bad_request", gettext("rated must be true or false"))
    if not rated:
        return
    if player.user_id is None:
        raise GameError("bad_request", gettext("rated games need an account: log in to play one"))
    if opponent != "human":
        raise GameError(
            "bad_request", gettext("rated games are between two people, not the computer")
        )
    if time_control is None:
        raise GameError("bad_request", gettext("rated games need a clock"))


def _seat(game: Game, color: str, player: Player, name: str) -> None:
    game.set_seat(color, name=name, user_id=player.user_id, session_key=player.session_key or "")
    if not game.seat(color).online:
        # Away until a socket of theirs opens (games.services.presence).
        game.set_seat(color, away_since=timezone.now())


def _seat_name(player: Player, name: object, *, taken_as_guest: bool = False) -> str:
    """The name ``player``'s seat takes: an account's username, whatever ``name`` says;
    a guest's ``name`` in NFKC form, trimmed. Raises GameError("bad_request") for a player
    with neither session nor account, and (naming ``name``) for a guest's name holding a
    control or format character (before any other check: ``accounts.names``), blank, or
    too long; GameError("name_taken") naming ``name`` for one that looks like an account's
    username (the same skeleton: in any case, or with look-alike letters). With
    ``taken_as_guest`` (a seek's name, given before the account was made or the rules
    changed) a name refused so is seated as "Guest" instead."""
    if player.token is None:
        raise GameError("bad_request", gettext("taking a seat needs a session or an account"))
    if player.user_id is not None:
        return player.username or accounts.username_of(player.user_id)
    if not isinstance(name, str):
        raise GameError("bad_request", gettext("a seat needs a name"), field="name")
    try:
        name = names.normalised(name).strip()
    except names.BadName as error:
        if taken_as_guest:
            return GUEST_NAME
        raise GameError("bad_request", str(error), field="name") from None
    if not name:
        raise GameError("bad_request", gettext("a seat needs a name"), field="name")
    if len(name) > NAME_MAX_LENGTH:
        raise GameError(
            "bad_request",
            gettext("names are at most %(name_max_length)s characters")
            % {"name_max_length": NAME_MAX_LENGTH},
            field="name",
        )
    username = accounts.account_like(name)
    if username is None:
        return name
    if taken_as_guest:
        return GUEST_NAME
    if username.casefold() == name.casefold():
        message = gettext(
            "the name %(name)s belongs to an account: log in to play as %(name)s, or choose "
            "another name"
        ) % {"name": name}
    else:
        message = gettext(
            "the name %(name)s looks too much like %(username)s, an account's name: choose "
            "another name"
        ) % {"name": name, "username": username}
    raise GameError("name_taken", message, field="name")


def _handicap_start(kind: str, size: int, handicap: object) -> Setup | None:
    """The start of a Go game with ``handicap`` stones; None for none (0). Raises
    GameError("bad_request") naming ``handicap`` for Othello or a number the size does not
    take."""
    if not is_int(handicap):
        raise GameError("bad_request", gettext("handicap must be an integer"))
    if handicap == 0:
        return None
    if kind != Game.Kind.GO:
        raise GameError("bad_request", gettext("handicap is for Go only: 0 or absent in Othello"))
    try:
        position = go.handicap_position(size, handicap)
    except rules.RulesError as error:
        raise GameError(
            "bad_request", gettext("handicap: %(error)s") % {"error": said(error)}
        ) from None
    return Setup(tuple(position.rows()), position.to_move, handicap)


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
            "bad_request",
            gettext("komi must be a multiple of 0.5 from -%(komi_limit)s to %(komi_limit)s")
            % {"komi_limit": KOMI_LIMIT},
        )
    return float(komi)
