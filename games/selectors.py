"""Reads: who sits where (for an ``accounts.players.Player``: a session, an account), the
game state as JSON, and the lists of games.

``game_state`` builds what a stored game says of itself in the state object G that the
websocket, ``state.json`` and the pages all send (the live app adds the rest:
``live.state``). It reads the position from the game's snapshot, never by replaying the
history, and fetches the moves in one query: loading a game costs the same number of
queries after 3 moves or after 300.
"""

from __future__ import annotations

import datetime
import functools
import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext, pgettext

import gamerules as rules
from accounts import selectors as accounts
from accounts.players import Player, seat_token
from gamerules.clock import SideClock, TimeControl
from games.models import COLORS, ChatMessage, Game, Move, Seat

LOBBY_LIMIT = 50
RECENT_LIMIT = 20
IN_PLAY = (Game.Status.WAITING, Game.Status.ACTIVE, Game.Status.SCORING)


# Seats


def seat_tokens(game: Game) -> dict[str, str | None]:
    """``{"black": token, "white": token}``: who holds each seat, None while it is free."""
    return {
        seat.color: seat_token(session_key=seat.session_key, user_id=seat.user_id)
        for seat in game.seats
    }


def color_of(game: Game, player: Player) -> str | None:
    """The colour ``player`` plays in ``game``, None for a spectator.

    A seat belongs to the account that took it, or to the browser session of a guest.
    """
    token = player.token
    if token is None:
        return None
    return next((color for color, held in seat_tokens(game).items() if held == token), None)


def seat_accounts(seats: Iterable[Seat]) -> dict[str, str | None]:
    """G's ``accounts`` (``seats``: a game's, ``Game.seats``): the username of each seat's
    account, None for a guest's seat, the computer's, a free one, or an imported game's
    (whose seats belong to nobody, whatever their names: ``Game.imported``). An account's
    seat is named by its username (the services seat it so, and rename its seats when it
    changes: ``rename_account_seats``)."""
    return {seat.color: seat.name if seat.user_id else None for seat in seats}


COMPUTER_ENGINES = {"go": "GNU Go 3.8", "othello": "Engine"}
"""Who plays the computer's seat, by game, in its stored name (``KataGo`` plays Go where
the server has it: ``games.services.computer``)."""


def computer_seat_name(engine: str, level: int) -> str:
    """The stored name of the computer's seat: ``Engine (level 3)``, ``GNU Go 3.8 (level
    5)``. It is data, as a person's name is (G's ``players``, the SGF, the archive's
    search): ``shown_name`` says it in the reader's language."""
    return f"{engine} (level {level})"


def shown_name(game: Game, color: str) -> str | None:
    """The name of ``game``'s seat ``color`` as the pages show it (None while free): the
    stored name, but for the computer's, said in the active language (``Engine (level 3)`` reads
    "Moteur (niveau 3)" in French; a program's own name, ``GNU Go 3.8``, stays)."""
    name: str | None = game.seat(color).name or None
    level = game.computer_level
    if name is None or game.computer_color != color or level is None:
        return name
    engine = name.removesuffix(computer_seat_name("", level))
    if engine == name:  # not a name this server gave (an older form): as stored
        return name
    if engine == COMPUTER_ENGINES["othello"]:
        engine = pgettext("the computer's seat", "Engine")
    return gettext("%(engine)s (level %(level)s)") % {"engine": engine, "level": level}


_seated: dict[int, bool] = {}


def seat_bots(seats: Iterable[Seat]) -> dict[str, bool]:
    """G's ``bots`` (``seats``: a game's, ``Game.seats``): ``{"black": bool, "white":
    bool}``, whether each seat is a bot.

    Remembered per process: an account that sits in a game can never become a bot
    (the bots app makes only an account without games a bot), nor stop being one, so
    the answer never changes, and G costs no query for it after the first.
    """
    users = {seat.color: seat.user_id for seat in seats}
    unknown = [
        user_id for user_id in users.values() if user_id is not None and user_id not in _seated
    ]
    if unknown:
        bots = accounts.bot_ids(unknown)
        _seated.update({user_id: user_id in bots for user_id in unknown})
    return {color: user_id is not None and _seated[user_id] for color, user_id in users.items()}


# The state object


RECENT_POSITIONS = 512
"""How many games' last positions a process keeps (``position_of``)."""

_recent: OrderedDict[int, tuple[dict[str, Any], rules.Position]] = OrderedDict()
_recent_lock = threading.Lock()


def position_of(game: Game) -> rules.Position:
    """The game's current position, from its snapshot.

    Reading a snapshot rebuilds the board (a 19x19 Go board's chains grow with its
    stones), so the process keeps the last position of its recent games: one whose
    snapshot equals the stored one (the database stays the truth) is that position
    (positions never change)."""
    with _recent_lock:
        kept = _recent.get(game.pk)
        if kept is not None and kept[0] == game.snapshot:
            _recent.move_to_end(game.pk)
            return kept[1]
    position = rules.position_from_snapshot(game.kind, game.snapshot)
    remember_position(game, position)
    return position


def remember_position(game: Game, position: rules.Position) -> None:
    """Keep ``position`` as ``game``'s, whose snapshot it is (``position_of``)."""
    if game.pk is None:
        return
    with _recent_lock:
        _recent[game.pk] = (game.snapshot, position)
        _recent.move_to_end(game.pk)
        while len(_recent) > RECENT_POSITIONS:
            _recent.popitem(last=False)


def game_state(
    game: Game, *, you: str | None, last_move: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The stored game's part of G, the contract's state object, for a viewer playing
    ``you`` (a colour or None): every key of G but those of the apps above (``ratings``,
    ``challenge``, ``paired``, ``tournament``), which ``live.state.game_state`` adds.

    Go adds its count (see ``COUNT_KEYS``): ``score`` holds the totals of the current
    marking while the game is being scored, the final ones once finished. ``clock`` and
    ``away_ms`` are as of now (the running clock charged up to this moment).

    With every move (``moves``) it costs one query, or none when they were prefetched.
    Given ``last_move`` (M of the game's last move, which the caller has at hand), G has no
    ``moves`` and costs no query, whatever the game's length: what a ``moved`` event
    carries (the client has the moves before it).
    """
    now = timezone.now()
    position = position_of(game)
    seats = game.seats  # built once: G reads them up to six times
    moves = None if last_move is not None else [move_json(move) for move in game.moves.all()]
    active = game.status == Game.Status.ACTIVE
    is_go = isinstance(position, rules.GoPosition)
    # str(): a choice the services just assigned is still an enum member; G is plain JSON.
    state: dict[str, Any] = {
        "id": game.public_id,
        "kind": str(game.kind),
        "size": game.size,
        "status": str(game.status),
        "ply": game.ply,
        "to_move": str(game.to_move) if active else None,
        "board": position.rows(),
        "legal": [list(point) for point in position.legal_moves()] if active else [],
        "players": {seat.color: seat.name or None for seat in seats},
        "accounts": seat_accounts(seats),
        "you": you,
        "score": game.score,
        "result": game.result or None,
        "aborted": _aborted(game),
        "komi": game.komi if is_go else None,
        "handicap": handicap_of(game) if is_go else None,
        "scoring_method": game.scoring_method if is_go else None,
        "prisoners": (
            {color.value: count for color, count in position.prisoners.items()} if is_go else None
        ),
        **(_count_state(game, seats) if is_go else dict.fromkeys(COUNT_KEYS)),
        "computer": game.computer_color or None,
        "rated": game.rated,
        "imported": game.imported,
        "bots": seat_bots(seats),
        "undo": game.undo_request or None,
        "rematch": _rematch(game),
        "clock": clock_state(game, now),
        "online": {seat.color: seat.online for seat in seats},
        "away_ms": {seat.color: _away_ms(seat, now) for seat in seats},
        "abandon_seconds": settings.ABANDON_SECONDS,
        "last_move": last_move if moves is None else (moves[-1] if moves else None),
        **({} if moves is None else {"moves": moves}),
    }
    return state


def _aborted(game: Game) -> dict[str, str] | None:
    """G's ``aborted``: why an aborted game was (``reason``, a ``Game.AbortReason``) and
    whose doing it was (``color``: the side that did not make its first move, the person
    who left the computer, the creator who called the game off); None otherwise."""
    if game.status != Game.Status.ABORTED or not game.abort_reason:
        return None
    if game.abort_reason == Game.AbortReason.FIRST_MOVE:
        color = str(game.to_move)
    elif game.abort_reason == Game.AbortReason.LEFT:
        color = "white" if game.computer_color == "black" else "black"
    else:
        color = str(game.creator_color)
    return {"reason": str(game.abort_reason), "color": color}


def handicap_of(game: Game) -> int:
    """The handicap stones a Go game started with (its start's ``handicap``, an imported
    record's ``HA``); 0 for none."""
    return int((game.start or {}).get("handicap") or 0)


COUNT_KEYS = ("dead", "territory", "score_detail", "accepted", "marking")
"""G's keys of Go's count, None for Othello."""


def _count_state(game: Game, seats: Iterable[Seat]) -> dict[str, Any]:
    """Go's count in G: the stones marked dead, and once counted (scoring, or finished by
    a count) the territory and the breakdown; who accepted the marking, its number."""
    return {
        "dead": game.dead,
        "territory": game.territory,
        "score_detail": game.score_detail,
        "accepted": {seat.color: seat.accepted for seat in seats},
        "marking": game.marking,
    }


def _rematch(game: Game) -> str | None:
    """G's ``rematch``: the new game's id once accepted, else the offering colour."""
    if game.rematch_id is not None:
        return Game.objects.filter(pk=game.rematch_id).values_list("public_id", flat=True).first()
    return game.rematch_offer or None


def chat_json(message: ChatMessage) -> dict[str, Any]:
    """A chat message as the contract sends it: id, name (None for a comment of an
    imported record: the record's, nobody's), username (the sender's account, None for a
    guest and a record's comment: what a report of the line names), color (the sender's
    seat or None), text, at (ISO 8601)."""
    return {
        "id": message.pk,
        "name": message.name or None,
        "username": message.user.get_username() if message.user is not None else None,
        "color": message.color or None,
        "text": message.text,
        "at": message.created_at.isoformat(),
    }


def same_settings(game: Game) -> dict[str, Any]:
    """The create form's fields that start a game like ``game`` (kind, size, Go's komi,
    scoring and handicap, the clock, the opponent): what "New game with these settings" fills in."""
    fields: dict[str, Any] = {"kind": str(game.kind), "size": game.size}
    if game.kind == Game.Kind.GO:
        fields["komi"] = game.komi
        fields["scoring"] = game.scoring_method
        fields["handicap"] = handicap_of(game)
    if game.time_control is not None:
        control = game.time_control
        fields["clock"] = control["system"]
        fields.update(
            {
                name: value
                for name, value in control.items()
                if name != "system" and value is not None
            }
        )
    if game.computer_color:
        fields["opponent"] = "computer"
        fields["level"] = game.computer_level
    return fields


def time_control_text(game: Game) -> str:
    """The game's clock in a player's words (the active language): "5 min + 3 s a move",
    "No clock"."""
    if game.time_control is None:
        return gettext("No clock")
    return TimeControl.from_json(game.time_control).describe(translation)


def lobby_jsons(languages: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The games' part of the lobby's message (``type``, the open games, each clock in
    words, and how many are being played) in each of ``languages``, read once: only the
    clocks' words differ (one broadcast reaches sockets of every language). The lobby's
    whole message is the pairing app's (``pairing.lobby``)."""
    games = list(open_games())
    shared: dict[str, Any] = {"playing": playing_count()}
    messages = {}
    for language in languages:
        with translation.override(language):
            messages[language] = {
                "type": "lobby",
                "games": [
                    {
                        "id": game.public_id,
                        "kind": str(game.kind),
                        "size": game.size,
                        "creator": game.creator.name,
                        "creator_color": str(game.creator_color),
                        "creator_account": _account_name(game.creator.user),
                        "time_control": time_control_text(game),
                        "rated": game.rated,
                    }
                    for game in games
                ],
                **shared,
            }
    return messages


PLAYING_WINDOW = datetime.timedelta(minutes=10)
"""A game is being played while a move of it was stored this recently."""


def being_played() -> QuerySet[Game]:
    """The games being played right now: in play (active, or being counted) with a move
    stored in the last ``PLAYING_WINDOW`` (not a game nobody has moved in, nor one its
    players left): the home page's count and the archive's ``status=playing``."""
    recent = Move.objects.filter(
        game=OuterRef("pk"), created_at__gte=timezone.now() - PLAYING_WINDOW
    )
    return Game.objects.filter(Exists(recent), status__in=(Game.Status.ACTIVE, Game.Status.SCORING))


def _account_name(user: Any) -> str | None:
    """The username of a seat's account (its profile's name), None for a guest's seat."""
    return None if user is None else str(user.get_username())


def playing_count() -> int:
    """How many games are being played right now (``being_played``)."""
    return being_played().count()


def clock_state(game: Game, now: datetime.datetime) -> dict[str, Any] | None:
    """G's ``clock``: None without a time control; else the system, the colour whose
    clock runs (or None), each side's C as of ``now``, the settings, ``first_move_by``
    (ISO 8601, or None: ``first_move_by``) and ``first_move_ms``, the time left until
    then as of ``now`` (the page counts it down from there, whatever its own clock says)."""
    if game.time_control is None or game.clocks is None:
        return None
    control = TimeControl.from_json(game.time_control)
    ticking = running(game)
    sides = {}
    for color in COLORS:
        side = SideClock.from_json(game.clocks[color])
        if color == ticking:
            assert game.turn_started_at is not None
            thought = int((now - game.turn_started_at).total_seconds() * 1000)
            side = control.thinking(side, max(0, thought))
        sides[color] = side.to_json()
    deadline = first_move_by(game)
    return {
        **control.to_json(),
        "running": ticking,
        **sides,
        "first_move_by": None if deadline is None else deadline.isoformat(),
        "first_move_ms": (
            None if deadline is None else max(0, int((deadline - now).total_seconds() * 1000))
        ),
    }


def running(game: Game) -> str | None:
    """The colour whose clock runs, None when none does: no clock, not active, or before
    each side has made its first move (``TimeControl.first_move``)."""
    if game.time_control is None or game.turn_started_at is None:
        return None
    if TimeControl.from_json(game.time_control).first_move(game.ply):
        return None
    return str(game.to_move)


def first_move_by(game: Game) -> datetime.datetime | None:
    """When the side to move must have made its first move, else the game is aborted;
    None when it has none to make (or no limit: the computer's first move)."""
    if game.time_control is None or game.status != Game.Status.ACTIVE:
        return None
    if not TimeControl.from_json(game.time_control).first_move(game.ply):
        return None
    return game.deadline


def _away_ms(seat: Seat, now: datetime.datetime) -> int | None:
    """How long ``seat`` has been offline; None while online or never taken."""
    since = seat.away_since
    if seat.online or since is None:
        return None
    return max(0, int((now - since).total_seconds() * 1000))


def move_json(move: Move) -> dict[str, Any]:
    """M, the contract's move object: ply, color, action, point, flipped or captured,
    notation, clock_ms (the mover's time left after the move; None without a clock).

    Reads ``move.game`` (no query when the move came from ``game.moves``).
    """
    game = move.game
    point = [move.row, move.col] if move.row is not None else None
    if move.action in ENDINGS:
        notation = ENDINGS[move.action]
    else:
        rules_move = rules.Move.place((move.row, move.col)) if point else rules.Move.pass_turn()
        notation = start_position(game.kind, game.size).notation(rules_move)
    return {
        "ply": move.ply,
        "color": str(move.color),
        "action": str(move.action),
        "point": point,
        **move.diff,
        "notation": notation,
        "clock_ms": move.clock_ms,
    }


ENDINGS = {
    Move.Action.RESIGN: "resign",
    Move.Action.TIMEOUT: "time",
    Move.Action.FORFEIT: "forfeit",
}
"""The moves that end a game without touching the board, and their notation."""


@functools.cache
def start_position(kind: str, size: int) -> rules.Position:
    """The start position of ``kind`` on a ``size`` board, made once: positions are
    immutable, and this one serves the board's notation and start rows."""
    return rules.new_position(kind, size)


# Lists


def open_games() -> QuerySet[Game]:
    """Games waiting for an opponent whose creator is online (one of their sockets is
    open), newest first (at most ``LOBBY_LIMIT``): the lobby's, on the home page and its
    socket. Never a challenge (a seat ``reserved_for`` one account): that account has it
    in its inbox, and nobody else may take the seat."""
    creator_online = Q(creator_color="black", black_online=True) | Q(
        creator_color="white", white_online=True
    )
    return (
        Game.objects.filter(creator_online, status=Game.Status.WAITING, reserved_for=None)
        .select_related("black_user", "white_user")
        .order_by("-created_at")[:LOBBY_LIMIT]
    )


def games_of(player: Player, *, active: bool = False) -> QuerySet[Game]:
    """The games ``player`` sits in, most recently changed first; with ``active``, only
    those still in play (waiting, active or scoring).

    A logged-in player's games are those of the account; a guest's those of the session.
    """
    if player.user_id is not None:
        mine = Q(black_user_id=player.user_id) | Q(white_user_id=player.user_id)
    elif player.session_key:
        mine = Q(black_user=None, black_session_key=player.session_key) | Q(
            white_user=None, white_session_key=player.session_key
        )
    else:
        return Game.objects.none()
    games = Game.objects.filter(mine).select_related("black_user", "white_user")
    if active:
        games = games.filter(status__in=IN_PLAY)
    return games.order_by("-updated_at")


def lobby_of(player: Player) -> dict[str, Any]:
    """What the lobby (``games/_lobby.html``) shows ``player``: the open games of others,
    the ids of its own waiting ones (``lobby_mine``, for the page's script), how many are
    being played, its games in play with those waiting for its move first
    (``your_move``), and the latest results."""
    waiting = open_games()
    mine = [game.public_id for game in waiting if color_of(game, player) is not None]
    in_play = list(games_of(player, active=True))
    your_move = {
        game.public_id
        for game in in_play
        if game.status == Game.Status.ACTIVE and color_of(game, player) == game.to_move
    }
    return {
        "open_games": [game for game in waiting if game.public_id not in mine],
        "lobby_mine": mine,
        "playing": playing_count(),
        "my_games": sorted(in_play, key=lambda game: game.public_id not in your_move),
        "your_move": your_move,
        "finished_games": recent_finished(),
    }


def recent_finished() -> QuerySet[Game]:
    """The latest finished games played here (not imported ones), most recent first (at
    most ``RECENT_LIMIT``)."""
    return (
        Game.objects.filter(status=Game.Status.FINISHED, imported=False)
        .select_related("black_user", "white_user")
        .order_by("-finished_at")[:RECENT_LIMIT]
    )
