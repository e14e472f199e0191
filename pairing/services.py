"""Pairing's use cases: seeking, cancelling, the lobby sockets that keep a seek alive, and
the waves that pair the seeks.

Each is one transaction, but a wave, which makes its pairs ``CHUNK`` to a transaction
(below). A seek lives while its session has a lobby socket open on a
process seen within ``SEEK_PROCESS_TIMEOUT`` seconds (the processes' heartbeat,
games.models.ServerProcess, written every second by games.workers.clockwatch), and
``SEEK_GRACE_SECONDS`` more once its last socket is gone (a reload, a dropped
connection: a socket of the session that opens meanwhile keeps it; it is not paired while
alone); a killed process's sockets stop counting at the next wave after its heartbeat is
that old.

A wave (``wave``) runs in one process at a time (``wave_lock``): it forgets the dead
sockets and the seeks they kept, asks ``pairing.matching.pairs`` who plays whom, and makes
the pairs ``CHUNK`` to a transaction (``pair_many``): the seeks locked, each pair's game
made by games.services.lobby.start_games (as create_game and join_game make one: seats, clocks,
the lobby told), its seeks deleted, and after the commit each side's lobby sockets get
``paired``. A pair is all or nothing; a seek already gone (paired by a wave that ran at
the same time, cancelled, its socket closed) makes no game: a seek is never paired
twice, whatever runs at once. A chunk that fails is made again a pair a transaction.

Seeks that arrive together are stored together (``seek_many``), as one after the other.
"""

from __future__ import annotations

import datetime
import functools
import json
import logging
import math
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_lazy

import broadcast
from accounts import selectors as accounts
from accounts import standing
from accounts.players import Player
from accounts.refusals import Refusal
from gamerules.clock import SETTING_NAMES, SETTINGS, TimeControl
from games.forms import SIZES, NewGameForm
from games.models import Game, ServerProcess
from games.services import lobby as games_lobby
from games.services.fields import is_int
from pairing import lobby, matching
from pairing.models import LobbySocket, Pairing, Seek
from players.models import Rating

logger = logging.getLogger(__name__)

RATING_LIMIT = 4000.0
# A PostgreSQL advisory lock's key: one wave at a time across every process.
WAVE_LOCK_KEY = 0x5EE1C0DE
# Pairs made in one transaction: a wave of 1,000 seekers is 5 (each of 5 queries), and
# a pair a chunk's failure would hold back waits at most that many others' work.
CHUNK = 100
SEEK_GRACE_SECONDS = 5
"""How long a seek outlives its session's last lobby socket (docs/api/websocket.md)."""
_local_wave = threading.Lock()


class PairingError(
    Refusal,
    codes={
        "unavailable": 503,
        "bad_request": 400,
        "login_required": 401,
        "playban": 400,
        "not_allowed": 400,
    },
):
    """A seek refused: ``code`` is ``bad_request`` (``field`` names the field at fault),
    ``login_required`` (a rated seek from a guest), ``playban`` (an account playbanned:
    ``details`` carries its ``until``) or ``not_allowed`` (a rated seek from an account
    marked for engine use, naming ``rated``)."""


def ratings_of(asked: Sequence[tuple[Any, str]]) -> list[float]:
    """The rating of each ``(user, category)`` of ``asked`` (``user`` an account or its id,
    or None for a guest; ``category`` ``<kind><size>-<speed>``), as the pools match it, in
    one query: the account's ``players.Rating`` in the category; guests, and an account
    with no rated game in the category (a new player), count 1500. The one place pairing
    reads a rating."""
    wanted: list[tuple[int | None, str]] = [
        (getattr(user, "pk", user), category) for user, category in asked
    ]
    account_ids = {user_id for user_id, _ in wanted if user_id is not None}
    found: dict[tuple[int | None, str], float] = {}
    if account_ids:
        rows = Rating.objects.filter(
            user_id__in=account_ids, category__in={category for _, category in wanted}
        ).values_list("user_id", "category", "rating")
        found = {(user_id, category): float(rating) for user_id, category, rating in rows}
    return [found.get(key, matching.GUEST_RATING) for key in wanted]


def seeker_group(session_key: str) -> str:
    """The channel-layer group of a session's lobby sockets (its seek's news, a forgotten
    seek; ``paired`` goes to the lobby's group instead: ``_tell_paired``)."""
    return f"seeker.{session_key}"


# Seeking


@dataclass(frozen=True)
class SeekRequest:
    """One ``seek`` message to store (``seek_many``): ``player`` seeks with the message's
    fields; ``user``: the account (None for a guest), whose rating counts; ``name``: the
    seat's name once paired; ``language``: the one its refusal is written in (its socket's;
    None: the active one)."""

    player: Player
    user: Any
    name: str
    message: dict[str, Any]
    now: datetime.datetime
    language: str | None = None


def seek(
    *, player: Player, user: Any, name: str, message: dict[str, Any], now: datetime.datetime
) -> Seek:
    """``player``'s new seek from the ``seek`` message's fields, replacing the session's
    old one (``seek_many`` with one request). ``user``: the account (None for a guest),
    whose rating counts; ``name``: the seat's name once paired.

    Raises PairingError: ``bad_request`` naming the field (the fields and limits of
    creating a game: ``kind``, ``size``, ``clock`` and its settings; ``rated`` a boolean,
    and only with a clock; ``range`` null or [low, high]), ``login_required`` for a rated
    seek from a guest, ``playban`` (with its ``until``) for any seek from a playbanned
    account, ``not_allowed`` naming ``rated`` for a rated one from an account marked for
    engine use.
    """
    [made] = seek_many([SeekRequest(player, user, name, message, now)])
    if isinstance(made, PairingError):
        raise made
    return made


@transaction.atomic
def seek_many(requests: Sequence[SeekRequest]) -> list[Seek | PairingError]:
    """The seeks of ``requests``, in one transaction: for each, in order, its new seek
    (replacing its session's old one, as ``seek``), or the PairingError that refused it
    (nothing stored for it). Of two requests of one session, the later replaces the
    earlier, as one after the other would.

    A process's lobby sockets store the seeks that arrive together this way
    (pairing.consumers): one transaction, and a few queries, for a burst of them."""
    seekers = standing.seekers(
        (request.player.user_id for request in requests),
        now=min((request.now for request in requests), default=None),
    )
    made: list[Seek | PairingError] = []
    users: list[Any] = []
    for request in requests:
        try:
            with translation.override(request.language or translation.get_language()):
                made.append(_new_seek(request, seekers))
            users.append(request.user)
        except PairingError as error:
            made.append(error)
    waiting = [seek for seek in made if isinstance(seek, Seek)]
    ratings = ratings_of([(user, seek.category) for user, seek in zip(users, waiting, strict=True)])
    for seek, rating in zip(waiting, ratings, strict=True):
        seek.rating = rating
    while waiting:
        # One seek a session at a time: the rows a session's later seeks replace are
        # stored first.
        now: dict[str, Seek] = {}
        later: list[Seek] = []
        for seek in waiting:
            if seek.session_key in now:
                later.append(seek)
            else:
                now[seek.session_key] = seek
        Seek.objects.filter(session_key__in=list(now)).delete()
        Seek.objects.bulk_create(now.values())
        waiting = later
    return made


def _new_seek(request: SeekRequest, seekers: standing.Seekers) -> Seek:
    """The seek ``request`` asks for, not yet stored nor rated; raises PairingError as
    ``seek`` (``seekers``: the accounts among the requests' that are bots, that are marked
    for engine use, that are playbanned)."""
    player, message = request.player, request.message
    if not player.session_key:
        raise PairingError("bad_request", gettext("Seeking needs a session: load a page first"))
    kind, size, control = _game_fields(message)
    rated = message.get("rated", False)
    if not isinstance(rated, bool):
        raise PairingError(
            "bad_request", gettext("Rated must be yes or no (true or false)"), field="rated"
        )
    if rated and control is None:
        raise PairingError("bad_request", gettext("A rated game needs a clock"), field="rated")
    bounds = _range(message.get("range"))
    if rated and player.user_id is None:
        raise PairingError("login_required", gettext("log in to play rated games"))
    if player.user_id in seekers.bots:
        raise PairingError("bad_request", gettext("Bots do not seek: people challenge them"))
    playban = seekers.playbans.get(player.user_id) if player.user_id is not None else None
    if playban is not None and playban.until > request.now:
        raise PairingError(
            "playban", playban.words(now=request.now), details={"until": playban.until_json()}
        )
    if rated and player.user_id in seekers.engines:
        raise PairingError("not_allowed", gettext(standing.ENGINE_REFUSAL), field="rated")
    clock = control.to_json() if control is not None else None
    category = matching.category(kind, size, clock)
    return Seek(
        session_key=player.session_key,
        user_id=player.user_id,
        name=request.name,
        kind=kind,
        size=size,
        time_control=clock,
        rated=rated,
        range_low=bounds[0] if bounds else None,
        range_high=bounds[1] if bounds else None,
        pool=matching.pool_key(kind, size, clock, rated=rated),
        category=category,
        rating=matching.GUEST_RATING,  # seek_many reads the ratings of all at once
        created_at=request.now,
    )


@transaction.atomic
def cancel_seek(*, player: Player) -> bool:
    """The session's seek withdrawn; whether there was one."""
    if not player.session_key:
        return False
    deleted, _ = Seek.objects.filter(session_key=player.session_key).delete()
    return bool(deleted)


@transaction.atomic
def withdraw_seeks(
    *, user_id: int, rated_only: bool = False, told: dict[str, Any] | None = None
) -> int:
    """The account's seeks withdrawn from every session, or with ``rated_only`` its rated
    ones (staff closed the account, or marked it for engine use; a playban): how many. No
    wave pairs them after the commit, and then each of their sessions' lobby sockets hears
    ``told`` (default: ``seek_cancelled``; a playban's refusal says why)."""
    seeks = Seek.objects.filter(user_id=user_id)
    if rated_only:
        seeks = seeks.filter(rated=True)
    sessions = sorted(set(seeks.values_list("session_key", flat=True)))
    deleted, _ = seeks.delete()
    news = {"type": "pairing.news", "message": told or {"type": "seek_cancelled"}, "skip": ""}
    for session_key in sessions:
        transaction.on_commit(
            functools.partial(broadcast.send_to_group, seeker_group(session_key), news),
            robust=True,
        )
    return deleted


def seek_of(*, player: Player) -> Seek | None:
    """The session's seek, if it has one."""
    if not player.session_key:
        return None
    return Seek.objects.filter(session_key=player.session_key).first()


GAME_FIELDS = ("kind", "clock", "size", *SETTINGS)


def _game_fields(message: dict[str, Any]) -> tuple[str, int, TimeControl | None]:
    """Kind, size and clock, checked as `POST /games/new/` checks them (NewGameForm),
    after checking that each is of the JSON type the contract says.

    The answer for the same fields (of the same JSON types) is remembered: the form costs
    half a millisecond, and a burst of seeks is mostly the same few pools."""
    fields = tuple(
        (name, type(message[name]), message[name]) for name in GAME_FIELDS if name in message
    )
    try:
        hash(fields)
    except TypeError:  # a list or an object for a field: unhashable, and refused below
        return _check_game_fields(message)
    return _checked_fields(fields)


@functools.lru_cache(maxsize=256)
def _checked_fields(
    fields: tuple[tuple[str, type, Any], ...],
) -> tuple[str, int, TimeControl | None]:
    return _check_game_fields({name: value for name, _, value in fields})


def _check_game_fields(message: dict[str, Any]) -> tuple[str, int, TimeControl | None]:
    kind = message.get("kind")
    if not isinstance(kind, str) or kind not in SIZES:
        raise PairingError("bad_request", gettext("The game must be Othello or Go"), field="kind")
    clock = message.get("clock", "none")
    if not isinstance(clock, str):
        raise PairingError(
            "bad_request", gettext("The clock must be one of the systems"), field="clock"
        )
    data: dict[str, Any] = {"kind": kind, "clock": clock}
    for field in ("size", *SETTINGS):
        value = message.get(field)
        if value is None:
            continue
        if not is_int(value):
            setting, unit = SETTING_NAMES.get(field, (gettext_lazy("The board size"), ""))
            whole = (
                gettext("%(setting)s must be a whole number of %(unit)s")
                if unit
                else gettext("%(setting)s must be a whole number")
            )
            raise PairingError(
                "bad_request",
                whole % {"setting": gettext(setting), "unit": gettext(unit) if unit else ""},
                field=field,
            )
        data[field] = value
    if "size" not in data:
        raise PairingError("bad_request", gettext("The board size is needed"), field="size")
    form = NewGameForm(data)
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        # The create form's own words (docs/api/websocket.md: as POST /games/new/ checks them).
        raise PairingError("bad_request", " ".join(errors), field=field)
    time_control: TimeControl | None = form.cleaned_data["time_control"]
    return kind, data["size"], time_control


def _range(value: object) -> tuple[float, float] | None:
    if value is None:
        return None
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(x, int | float) and not isinstance(x, bool) for x in value)
        and all(math.isfinite(x) and 0 <= x <= RATING_LIMIT for x in value)
        and value[0] <= value[1]
    ):
        return float(value[0]), float(value[1])
    raise PairingError(
        "bad_request",
        gettext(
            "The opponent's rating: a lowest and a highest rating from 0 "
            "to %(rating_limit)s, the lowest first"
        )
        % {"rating_limit": format(RATING_LIMIT, "g")},
        field="range",
    )


# The lobby's sockets


@transaction.atomic
def socket_opened(*, session_key: str, channel_name: str, process: str) -> None:
    """A lobby socket of the session opened on ``process``: it keeps the session's seek
    (one left alone since its last socket closed, a page reloaded, is kept again)."""
    LobbySocket.objects.update_or_create(
        channel_name=channel_name,
        defaults={"session_key": session_key, "process": process, "opened_at": timezone.now()},
    )
    Seek.objects.filter(session_key=session_key).exclude(alone_since=None).update(alone_since=None)


@transaction.atomic
def socket_closed(*, channel_name: str) -> bool:
    """The lobby socket ``channel_name`` closed: when it was its session's last one, the
    seek is left alone: it goes ``SEEK_GRACE_SECONDS`` later unless a socket of the
    session opens meanwhile (a reload, a dropped connection: ``forget_dead_sockets``).
    Whether a seek was left alone."""
    gone = LobbySocket.objects.filter(channel_name=channel_name).first()
    if gone is None:
        return False
    gone.delete()
    if LobbySocket.objects.filter(session_key=gone.session_key).exists():
        return False
    left = Seek.objects.filter(session_key=gone.session_key, alone_since=None)
    return bool(left.update(alone_since=timezone.now()))


@transaction.atomic
def forget_dead_sockets(*, now: datetime.datetime, timeout: float, alive: str = "") -> int:
    """Forget the lobby sockets of processes not seen for ``timeout`` seconds but the
    process ``alive`` (a process that never wrote a heartbeat counts while its sockets are
    younger than that); leave alone the seeks no socket keeps any more, and forget those
    left alone for ``SEEK_GRACE_SECONDS``. How many seeks went."""
    cutoff = now - datetime.timedelta(seconds=timeout)
    seen = ServerProcess.objects.filter(seen_at__gte=cutoff).values_list("name", flat=True)
    gone = LobbySocket.objects.exclude(process__in=seen).exclude(process=alive)
    gone.filter(opened_at__lt=cutoff).delete()
    kept = LobbySocket.objects.values_list("session_key", flat=True)
    Seek.objects.exclude(session_key__in=kept).filter(alone_since=None).update(alone_since=now)
    orphans = Seek.objects.filter(
        alone_since__lte=now - datetime.timedelta(seconds=SEEK_GRACE_SECONDS)
    )
    sessions = list(orphans.values_list("session_key", flat=True))
    deleted, _ = orphans.delete()
    if deleted:
        transaction.on_commit(lobby.broadcast_lobby, robust=True)
    # A process only stalled (its loop held up past the timeout) still has those sockets:
    # each one that made the seek makes it again (LobbyConsumer.pairing_forgotten), so a
    # seek is never lost without its player knowing. A dead process hears nothing.
    for session_key in sessions:
        tell = functools.partial(
            broadcast.send_to_group, seeker_group(session_key), {"type": "pairing.forgotten"}
        )
        transaction.on_commit(tell, robust=True)
    return deleted


# The waves


def seeker(seek: Seek, *, now: datetime.datetime | None) -> matching.Seeker:
    """``seek`` as the matching sees it, ``now`` (None: the time it was made)."""
    waited = (now - seek.created_at).total_seconds() if now is not None else 0.0
    bounds = (seek.range_low, seek.range_high)
    return matching.Seeker(
        id=str(seek.pk),
        pool=seek.pool,
        rating=seek.rating,
        range=bounds if bounds[0] is not None and bounds[1] is not None else None,
        waited=waited,
        session=seek.session_key,
        account=seek.user_id,
    )


@contextmanager
def wave_lock() -> Iterator[bool]:
    """Whether this process may run a wave now; held until the block ends
    (``one_process``)."""
    with one_process(WAVE_LOCK_KEY, _local_wave) as held:
        yield held


@contextmanager
def one_process(key: int, local: threading.Lock) -> Iterator[bool]:
    """Whether this process holds the lock ``key`` now (a loop's turn: the pairing's
    waves, the tournaments'); held until the block ends, never waited for.

    PostgreSQL: a session advisory lock (``pg_try_advisory_lock``) on this thread's
    connection: one holder across every process, released by the server if the holder's
    process dies with it. SQLite serves one process: ``local``, a lock of this process.
    """
    if connection.vendor != "postgresql":
        if not local.acquire(blocking=False):
            yield False
            return
        try:
            yield True
        finally:
            local.release()
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
        held = bool(cursor.fetchone()[0])
    try:
        yield held
    finally:
        if held:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [key])


def wave(*, now: datetime.datetime | None = None, process: str = "") -> list[Game] | None:
    """One wave, if no other process runs one (``wave_lock``): dead sockets' seeks
    forgotten, every pair ``pairing.matching.pairs`` finds made (``make``: ``pair_many``,
    ``CHUNK`` pairs a transaction). The games
    made; None when another process held the lock. ``process``: the one running the wave,
    whose own sockets count whatever its heartbeat says (it is running)."""
    with wave_lock() as held:
        if not held:
            return None
        now = now or timezone.now()
        forget_dead_sockets(now=now, timeout=settings.SEEK_PROCESS_TIMEOUT, alive=process)
        # A seek left alone (its page reloading) waits: its player would not hear of it.
        present = Seek.objects.filter(alone_since=None)
        seekers = [seeker(seek, now=now) for seek in present]
        # Two accounts of which one blocks the other are never paired.
        apart = accounts.kept_apart(found.account for found in seekers)
        # One lobby message for the whole wave (each game's join would send one).
        with lobby.lobby_held():
            return _make(matching.pairs(seekers, apart))


def _make(pairs: list[tuple[str, str]]) -> list[Game]:
    """The games of ``pairs`` (seek ids), ``CHUNK`` pairs a transaction (``pair_many``),
    and once they are all made (or the database failed) one ``paired`` for them all.
    A chunk that fails for any reason but the database (a seek the games' services
    refuse, which its checks rule out) rolled back whole: its pairs are made again one
    transaction each, so that only the pair at fault is left out."""
    made: list[Game] = []
    try:
        for start in range(0, len(pairs), CHUNK):
            chunk = [(int(first), int(second)) for first, second in pairs[start : start + CHUNK]]
            try:
                made += pair_many(chunk, tell=False)
            except (OperationalError, InterfaceError):
                raise  # the database is down: the next wave tries again
            except Exception:
                logger.exception("pairing %d pairs at once: now one at a time", len(chunk))
                made += _one_by_one(chunk)
    finally:
        if made:
            told = list(made)
            transaction.on_commit(lambda: _tell_paired(told), robust=True)
    return made


def _one_by_one(pairs: list[tuple[int, int]]) -> list[Game]:
    made = []
    for first, second in pairs:
        try:
            made += pair_many([(first, second)], tell=False)
        except (OperationalError, InterfaceError):
            raise
        except Exception:
            logger.exception("pairing seeks %s and %s", first, second)
    return made


def pair(first_id: int, second_id: int) -> Game | None:
    """The game between the seeks ``first_id`` and ``second_id`` (``pair_many``); None
    (and nothing changed) when either is gone."""
    made = pair_many([(first_id, second_id)])
    return made[0] if made else None


@transaction.atomic
def pair_many(pairs: list[tuple[int, int]], *, tell: bool = True) -> list[Game]:
    """The games of ``pairs`` (seek ids), in one transaction: the seeks locked (in the
    order of their ids, so that two waves at once never deadlock), each pair whose two
    seeks are still there made a game through ``games.services.lobby.start_games`` (colours at
    random, the seats named by the seeks, the clock started, the lobby told), with its
    ``Pairing`` row, and its seeks deleted; after the commit each side's lobby sockets get
    ``{"type": "paired", "game_id"}`` (unless ``tell`` is false: a wave tells once for all
    its transactions). A pair with a seek gone (cancelled, its socket
    closed, paired by a wave that ran at the same time) or already in an earlier pair of
    ``pairs`` is left out and changes nothing. The games made, in the order of ``pairs``.
    """
    wanted = sorted({seek_id for pair in pairs for seek_id in pair})
    seeks = {
        seek.pk: seek
        for seek in Seek.objects.select_for_update().filter(pk__in=wanted).order_by("pk")
    }
    kept: list[tuple[Seek, Seek]] = []
    taken: set[int] = set()
    for first_id, second_id in pairs:
        if first_id == second_id or {first_id, second_id} & taken:
            continue
        if first_id in seeks and second_id in seeks:
            kept.append((seeks[first_id], seeks[second_id]))
            taken.update((first_id, second_id))
    if not kept:
        return []
    games = games_lobby.start_games([_new_pair(first, second) for first, second in kept])
    rows = []
    for game, (first, second) in zip(games, kept, strict=True):
        black, white = (
            (first, second) if game.black_session_key == first.session_key else (second, first)
        )
        rows.append(
            Pairing(
                game=game,
                pool=first.pool,
                category=first.category,
                rated=first.rated,
                black_rating=black.rating,
                white_rating=white.rating,
            )
        )
    Pairing.objects.bulk_create(rows)
    Seek.objects.filter(pk__in=taken).delete()
    if tell:
        transaction.on_commit(lambda: _tell_paired(games), robust=True)
    return games


def _new_pair(first: Seek, second: Seek) -> games_lobby.NewPair:
    if first.pool != second.pool:
        raise PairingError(
            "bad_request",
            gettext("seeks %(pk)s and %(pk2)s: not one pool") % {"pk": first.pk, "pk2": second.pk},
        )
    return games_lobby.NewPair(
        first=games_lobby.Entrant(_player(first), first.name),
        second=games_lobby.Entrant(_player(second), second.name),
        kind=first.kind,
        size=first.size,
        time_control=(
            TimeControl.from_json(first.time_control) if first.time_control is not None else None
        ),
        rated=first.rated,
    )


def _tell_paired(games: list[Game]) -> None:
    """``paired`` for each side of ``games``: one event to the lobby's group, whose every
    socket finds its own session's game in it (``paired_event``). A wave pairs hundreds of
    sessions: an event to each session's group would cost each process a message from
    Redis for every socket paired, this one a message from Redis per process."""
    broadcast.send_to_group(
        lobby.LOBBY_GROUP,
        paired_event(
            {
                session_key: game.public_id
                for game in games
                for session_key in (game.black_session_key, game.white_session_key)
            }
        ),
    )


PAIRED_EVENT = "pairing.paired"


def paired_event(games: Mapping[str, str]) -> dict[str, Any]:
    """The ``pairing.paired`` event for the lobby's group, telling each session of
    ``games`` (session key -> game id) its game. The map travels as JSON text: the
    in-memory channel layer copies an event for each socket it reaches, and copies a
    string for nothing; each process decodes it once (``paired_games``)."""
    return {"type": PAIRED_EVENT, "games": json.dumps(games, separators=(",", ":"))}


def paired_games(event: dict[str, Any]) -> Mapping[str, str]:
    """The sessions and games of a ``pairing.paired`` event (shared: not to be changed)."""
    return _decoded(event["games"])


@functools.lru_cache(maxsize=8)
def _decoded(text: str) -> Mapping[str, str]:
    games: dict[str, str] = json.loads(text)
    return MappingProxyType(games)


def paired_text(event: dict[str, Any], session_key: str) -> str | None:
    """The ``paired`` message for a lobby socket of the session ``session_key`` from a
    ``pairing.paired`` event, None when the event pairs someone else."""
    game_id = paired_games(event).get(session_key)
    if game_id is None:
        return None
    return json.dumps({"type": "paired", "game_id": game_id}, separators=(",", ":"))


def _player(seek: Seek) -> Player:
    # A seeking account's name is its username (pairing.consumers): no query to seat it.
    return Player(
        session_key=seek.session_key,
        user_id=seek.user_id,
        username=seek.name if seek.user_id is not None else None,
    )
