"""Tournaments' use cases: creating one, joining, withdrawing, pausing (an arena), going
berserk, its chat, and the loop's work (starting the tournaments due, pairing their
rounds and waves, dropping the players who let a game go unplayed, finishing them). Each
use case is one transaction; what it broadcasts (the tournament's ``standings``, a chat
line, each paired account's ``game_ready``) goes after the commit.

Pairing is where nothing may be lost nor doubled. ``advance`` does a tournament's next
step in one transaction with the tournament's row locked (``select_for_update``; on
SQLite the immediate transaction's write lock): it reads the pairings so far, asks
``tournaments.systems`` who plays whom, makes the games through games' services
(``start_games``, the tournament's clock and ``rated``), stores a ``TournamentPairing``
a game or bye and the new ``round``, and tells the players: every page of a paired
account hears ``game_ready`` and opens the game; the notifications say it too (an
arena's one a tournament, updated at each game), and a bye is told. A process
killed in the middle rolls back all of it: the next tick does the round again, from the
same rows. Two processes advancing one tournament at once: the second waits for the
first's lock, then finds the round paired (its number moved on, the players busy) and
does nothing; the constraints (one pairing a player a round) would refuse a double
anyway. ``tick`` runs one loop at a time across processes (``loop_lock``: a PostgreSQL
advisory lock, as pairing's waves; a thread lock on SQLite).
"""

from __future__ import annotations

import datetime
import json
import logging
import math
import random
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import broadcast
from accounts import services as account_services
from accounts import standing
from accounts.players import Player
from accounts.refusals import Refusal
from gamerules.clock import TimeControl
from games import limits
from games.models import Game
from games.services import clock, lobby
from games.services.errors import GameError
from games.services.refusals import refuse_muted
from games.services.table import CHAT_MAX
from notifications import services as notifications
from notifications.models import Kind
from pairing.services import one_process
from tournaments import selectors
from tournaments.models import ChatLine, Entry, Tournament, TournamentPairing
from tournaments.systems import arena, mcmahon, roundrobin, swiss
from tournaments.systems.records import PairingError

logger = logging.getLogger(__name__)

LOOP_LOCK_KEY = 0x70A12E
"""A PostgreSQL advisory lock's key: one tournament loop at a time across processes."""
_local_loop = threading.Lock()


DAILY_LIMIT = 5
"""How many tournaments one account may create within any day."""
UNFINISHED_LIMIT = 3
"""How many of an account's tournaments may be upcoming or running at once."""
DAY = datetime.timedelta(days=1)


class TournamentError(
    Refusal,
    codes={
        **dict.fromkeys(("bad_request", "not_a_player", "muted", "playban", "not_allowed"), 400),
        "not_found": 404,
        "rate_limited": 429,
    },
):
    """A request refused: ``code`` (one of ``CODES``), the ``field`` at fault when there is
    one, a message for a person, and what the refusal carries besides (``details``: a
    playban's ``until``)."""


# Creating, joining, withdrawing, pausing


@transaction.atomic
def create(
    *,
    user_id: int,
    system: str,
    name: str,
    kind: str,
    size: int,
    time_control: TimeControl,
    rated: bool,
    starts_at: datetime.datetime,
    duration: int | None = None,
    rounds: int | None = None,
    bar: int | None = None,
    now: datetime.datetime | None = None,
) -> Tournament:
    """A new tournament, upcoming, created by the account ``user_id`` (the form,
    ``tournaments.forms``, has checked every field). An arena ends ``duration`` minutes
    after it starts. Raises TournamentError: bad_request (a start in the past),
    rate_limited (the account created ``DAILY_LIMIT`` within the day before ``now``, or
    ``UNFINISHED_LIMIT`` of its tournaments are not yet finished), muted (staff muted the
    account)."""
    now = now or timezone.now()
    mute = standing.muted(user_id, now=now)
    if mute is not None:
        raise TournamentError("muted", mute.words())
    account_services.hold(user_id)
    _refuse_past_the_caps(user_id, now)
    if starts_at < now - datetime.timedelta(minutes=1):
        raise TournamentError("bad_request", _("The start is in the past."), field="starts_at")
    ends_at = None
    if system == Tournament.System.ARENA:
        assert duration is not None
        ends_at = starts_at + datetime.timedelta(minutes=duration)
    return Tournament.objects.create(
        system=system,
        name=name,
        kind=kind,
        size=size,
        time_control=time_control.to_json(),
        rated=rated,
        starts_at=starts_at,
        ends_at=ends_at,
        duration=duration,
        rounds=rounds,
        bar=bar,
        created_by_id=user_id,
        created_at=now,
    )


def _refuse_past_the_caps(user_id: int, now: datetime.datetime) -> None:
    """Raise TournamentError("rate_limited") when the account may create no tournament
    now: ``DAILY_LIMIT`` created within the day before ``now`` (every one counts, finished
    or not), or ``UNFINISHED_LIMIT`` of its own still upcoming or running."""
    made = Tournament.objects.filter(created_by_id=user_id)
    unfinished = made.exclude(status=Tournament.Status.FINISHED).count()
    if unfinished >= UNFINISHED_LIMIT:
        raise TournamentError(
            "rate_limited",
            _(
                "You may have at most %(n)d tournaments not yet finished: create the next"
                " one once one of yours has ended."
            )
            % {"n": UNFINISHED_LIMIT},
        )
    today = list(
        made.filter(created_at__gt=now - DAY)
        .order_by("created_at")
        .values_list("created_at", flat=True)
    )
    if len(today) >= DAILY_LIMIT:
        frees_at = today[-DAILY_LIMIT] + DAY
        hours = max(1, math.ceil((frees_at - now).total_seconds() / 3600))
        raise TournamentError(
            "rate_limited",
            ngettext(
                "You may create at most %(n)d tournaments a day: the next one in %(hours)d hour.",
                "You may create at most %(n)d tournaments a day: the next one in %(hours)d hours.",
                hours,
            )
            % {"n": DAILY_LIMIT, "hours": hours},
        )


def _locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentError("not_found", _("There is no such tournament.")) from None


@transaction.atomic
def join(*, user_id: int, tournament_id: int, now: datetime.datetime | None = None) -> Entry:
    """The account in the tournament (again, after a withdrawal or a pause: back in).
    A finished tournament, or a round robin that has started, takes nobody; none takes a
    playbanned account (``playban``, with its ``until``: an entrant still in is left in,
    and paired); a rated one takes no account marked for engine use (``not_allowed``)."""
    tournament = _locked(tournament_id)
    now = now or timezone.now()
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError("bad_request", _("This tournament is over."))
    _refuse_playbanned(tournament, user_id, now)
    if tournament.rated and standing.is_engine(user_id):
        raise TournamentError("not_allowed", _(standing.ENGINE_REFUSAL))
    if (
        tournament.system == Tournament.System.ROUNDROBIN
        and tournament.status == Tournament.Status.RUNNING
    ):
        raise TournamentError("bad_request", _("A round robin takes nobody once it has started."))
    entry, made = Entry.objects.get_or_create(
        tournament=tournament, user_id=user_id, defaults={"joined_at": now}
    )
    if not made and (entry.withdrawn or entry.paused):
        # Back: from now (an arena's player paused for a game it never started is not
        # paused again for that game).
        entry.withdrawn = entry.paused = False
        entry.joined_at = now
        entry.save(update_fields=["withdrawn", "paused", "joined_at"])
    _tell_standings(tournament)
    return entry


def _refuse_playbanned(tournament: Tournament, user_id: int, now: datetime.datetime) -> None:
    """Raise TournamentError("playban") when the account is playbanned at ``now`` and
    would come in (a new entrant, or one back from a withdrawal or a pause); an entrant
    still in stays in."""
    playban = standing.playbanned(user_id, now=now)
    if playban is None:
        return
    if Entry.objects.filter(
        tournament=tournament, user_id=user_id, withdrawn=False, paused=False
    ).exists():
        return
    raise TournamentError(
        "playban", playban.words(now=now), details={"until": playban.until_json()}
    )


@transaction.atomic
def withdraw(*, user_id: int, tournament_id: int) -> Entry | None:
    """The account out of the tournament: no more pairings (its games so far count).
    Before the start its entry is simply gone (None)."""
    tournament = _locked(tournament_id)
    entry = Entry.objects.filter(tournament=tournament, user_id=user_id).first()
    if entry is None:
        raise TournamentError("bad_request", _("You are not in this tournament."))
    _tell_standings(tournament)
    if tournament.status == Tournament.Status.UPCOMING:
        entry.delete()
        return None
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    return entry


@transaction.atomic
def pause(*, user_id: int, tournament_id: int) -> Entry:
    """An arena's player paused: not paired again until it joins again (its game in
    progress goes on). The loop pauses a player itself when it let its latest game end
    at the first-move deadline without its move (``_drop_absent``)."""
    tournament = _locked(tournament_id)
    if tournament.system != Tournament.System.ARENA:
        raise TournamentError("bad_request", _("Only an arena can be paused."))
    entry = Entry.objects.filter(tournament=tournament, user_id=user_id).first()
    if entry is None or entry.withdrawn:
        raise TournamentError("bad_request", _("You are not in this tournament."))
    entry.paused = True
    entry.save(update_fields=["paused"])
    _tell_standings(tournament)
    return entry


@transaction.atomic
def berserk(*, player: Player, game_id: str) -> Game:
    """``{"type": "berserk"}`` on the game socket: the player's clock halved before its
    first move in an arena's game (games.services.clock.halve_clock), and its win worth one more
    when it makes at least 7 moves (tournaments.systems.arena). Once a game and player.

    Raises GameError: bad_request (not an arena's game, a move made already), and what
    halve_clock raises."""
    pairing = (
        TournamentPairing.objects.select_related("tournament")
        .filter(game__public_id=game_id if isinstance(game_id, str) else "")
        .first()
    )
    if pairing is None or pairing.tournament.system != Tournament.System.ARENA:
        raise GameError("bad_request", _("berserk is for the games of an arena"))
    pairing = TournamentPairing.objects.select_for_update().get(pk=pairing.pk)
    game, color = clock.halve_clock(player=player, game_id=game_id)
    if pairing.berserk(color):  # rolls the halving back
        raise GameError("bad_request", _("you went berserk already"))
    pairing.save(update_fields=[pairing.go_berserk(color)])
    _tell_standings(pairing.tournament, later=True)
    return game


@transaction.atomic
def say(
    *, user_id: int | None, tournament_id: int, text: Any, now: datetime.datetime | None = None
) -> ChatLine:
    """``text`` (trimmed, 1 to ``CHAT_MAX`` characters, as the game chat's) said in the
    tournament's chat by the account ``user_id``, one of its entrants (withdrawn or paused
    ones too), stored; after the commit its pages hear ``{"type": "chat", "username",
    "text", "at"}``. At most the game chat's rate (``games.limits.chat_flooding``),
    counted in the tournament's stored lines with its row locked, so every socket and
    process of the sender counts together.

    Raises TournamentError: not_found, bad_request naming ``text``, not_a_player (a
    visitor, an account that did not join), rate_limited; GameError("muted") with its
    ``until`` for an account that staff muted."""
    if not isinstance(text, str) or not text.strip() or len(text.strip()) > CHAT_MAX:
        raise TournamentError(
            "bad_request",
            _("text must be 1 to %(chat_max)s characters") % {"chat_max": CHAT_MAX},
            field="text",
        )
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentError("not_found", _("There is no such tournament."))
    if user_id is None or not Entry.objects.filter(tournament=tournament, user_id=user_id).exists():
        raise TournamentError("not_a_player", _("Only the tournament's players speak in its chat."))
    refuse_muted(user_id)
    now = now or timezone.now()
    lines = ChatLine.objects.filter(tournament=tournament)
    if limits.chat_flooding(lines, speaker=Player(user_id=user_id), now=now):
        raise TournamentError("rate_limited", limits.chat_limit_message())
    line = ChatLine.objects.create(
        tournament=tournament, user_id=user_id, text=text.strip(), created_at=now
    )
    line = ChatLine.objects.select_related("user").get(pk=line.pk)
    message = json.dumps({"type": "chat", **selectors.chat_line_json(line)}, separators=(",", ":"))
    event = {"type": "tournament.chat", "whole": message}
    group = broadcast.tournament_group(tournament.pk)
    transaction.on_commit(lambda: broadcast.send_to_group(group, event), robust=True)
    return line


# The loop's work


@contextmanager
def loop_lock() -> Iterator[bool]:
    """Whether this process may run the tournaments' loop now; held until the block ends
    (pairing's ``one_process``: an advisory lock on PostgreSQL)."""
    with one_process(LOOP_LOCK_KEY, _local_loop) as held:
        yield held


def tick(*, now: datetime.datetime | None = None) -> int | None:
    """One turn of the loop, if no other process runs one (``loop_lock``): every
    tournament due started, every running one advanced (``advance``), each in its own
    transaction. How many games it made; None when another process held the lock."""
    with loop_lock() as held:
        if not held:
            return None
        now = now or timezone.now()
        with standings_held() as told:
            made = _advance_due(now)
        send_standings(told)
        return made


def _advance_due(now: datetime.datetime) -> int:
    """``advance`` for every tournament due; how many games were made."""
    made = 0
    due = Tournament.objects.filter(
        status__in=(Tournament.Status.UPCOMING, Tournament.Status.RUNNING),
        starts_at__lte=now,
    ).values_list("pk", flat=True)
    for tournament_id in list(due):
        try:
            made += len(advance(tournament_id=tournament_id, now=now))
        except Exception:
            logger.exception("tournament %s", tournament_id)
    return made


@transaction.atomic
def advance(
    *, tournament_id: int, now: datetime.datetime | None = None, seed: int | None = None
) -> list[Game]:
    """The tournament's next step, in one transaction, its row locked: started when due
    (its players told), the players who let their latest game go unplayed dropped
    (``_drop_absent``), then an arena's wave of the free players (none in its last
    minute; finished once its time is up and its last game has ended), or the next round
    of the others when every game of the round before has ended (finished after the
    last). The games made."""
    now = now or timezone.now()
    tournament = _locked(tournament_id)
    if tournament.status == Tournament.Status.FINISHED or tournament.starts_at > now:
        return []
    if tournament.status == Tournament.Status.UPCOMING:
        _start(tournament, now)
    facts = selectors.facts_of(tournament)
    _drop_absent(facts, now)
    rng = random.Random(seed)
    if tournament.system == Tournament.System.ARENA:
        made = _arena_wave(tournament, facts, now, rng)
    else:
        made = _next_round(tournament, facts, now)
    return made


def _start(tournament: Tournament, now: datetime.datetime) -> None:
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    players = list(
        Entry.objects.filter(tournament=tournament, withdrawn=False).values_list(
            "user_id", flat=True
        )
    )
    notifications.notify_many(
        user_ids=players,
        kind=Kind.TOURNAMENT_STARTING,
        params={"name": tournament.name},
        url=tournament.get_absolute_url(),
        subject=f"tournament:{tournament.pk}",
        now=now,
    )
    _tell_standings(tournament)


def _finish(tournament: Tournament, now: datetime.datetime) -> None:
    tournament.status = Tournament.Status.FINISHED
    if tournament.system != Tournament.System.ARENA:
        tournament.ends_at = now
    tournament.save(update_fields=["status", "ends_at"])
    _tell_standings(tournament)


def _arena_wave(
    tournament: Tournament, facts: selectors.Facts, now: datetime.datetime, rng: random.Random
) -> list[Game]:
    assert tournament.ends_at is not None
    busy = facts.busy()
    if now >= tournament.ends_at:
        if not busy:
            _finish(tournament, now)
        return []
    if not arena.arena_can_pair(now, tournament.ends_at):
        return []
    since = facts.free_since()
    free_entries = sorted(
        (
            entry
            for entry in facts.entries
            if not entry.withdrawn and not entry.paused and entry.user_id not in busy
        ),
        key=lambda entry: (since.get(entry.user_id, entry.joined_at), entry.pk),
    )
    free = [facts.entrant(entry) for entry in free_entries]
    if len(free) < 2:
        return []
    played = facts.played()
    standings = arena.arena_scores(facts.entrants(), played)
    last = arena.last_opponents(played)
    pairs = arena.pair_arena(free, standings, dict(last), rng)
    if not pairs:
        return []
    tournament.round += 1
    tournament.save(update_fields=["round"])
    return _make(tournament, [(black, white) for black, white in pairs], [], now)


def _drop_absent(facts: selectors.Facts, now: datetime.datetime) -> None:
    """The players who let their latest game end at the first-move deadline without their
    move (they are not there: lichess's rule) are paused (an arena) or withdrawn from the
    later rounds (the others), unless they came back (joined again) since; each is told
    (``tournament_forfeit``), and the pages get the standings."""
    tournament = facts.tournament
    in_arena = tournament.system == Tournament.System.ARENA
    absent = facts.absent_since()
    dropped = []
    for entry in facts.entries:
        since = absent.get(entry.user_id)
        if since is None or entry.paused or entry.withdrawn or since < entry.joined_at:
            continue
        if in_arena:
            entry.paused = True
        else:
            entry.withdrawn = True
        entry.save(update_fields=["paused" if in_arena else "withdrawn"])
        dropped.append(entry.user_id)
    if not dropped:
        return
    notifications.notify_many(
        user_ids=dropped,
        kind=Kind.TOURNAMENT_FORFEIT,
        params={"name": tournament.name, "system": tournament.system},
        url=tournament.get_absolute_url(),
        subject=f"tournament:{tournament.pk}",
        now=now,
    )
    _tell_standings(tournament)


def starting_text(params: Mapping[str, Any]) -> str:
    """A ``tournament_starting`` notification's words, in the active language."""
    return _("%(name)s is starting.") % {"name": params["name"]}


def paired_text(params: Mapping[str, Any]) -> str:
    """A ``round_paired`` notification's words (a game ready, or a bye in a round), in
    the active language."""
    if params.get("bye"):
        return _("%(name)s, round %(round)s: you have a bye, which scores as a win.") % {
            "name": params["name"],
            "round": params["bye"],
        }
    return _("%(name)s: your game is ready.") % {"name": params["name"]}


def dropped_text(params: Mapping[str, Any]) -> str:
    """What a player ``_drop_absent`` dropped is told (``tournament_forfeit``), in the
    active language."""
    values = {"name": params["name"]}
    if params["system"] == Tournament.System.ARENA:
        return (
            _(
                "%(name)s: you lost a game by not making your first move in time, and you are "
                "paused. Resume on the tournament's page to be paired again."
            )
            % values
        )
    if params["system"] == Tournament.System.ROUNDROBIN:
        return (
            _(
                "%(name)s: you lost a game by not making your first move in time, and you are "
                "withdrawn from the later rounds."
            )
            % values
        )
    return (
        _(
            "%(name)s: you lost a game by not making your first move in time, and you are "
            "withdrawn from the later rounds. Join again on the tournament's page to play the "
            "next ones."
        )
        % values
    )


def _next_round(
    tournament: Tournament, facts: selectors.Facts, now: datetime.datetime
) -> list[Game]:
    if facts.busy():
        return []  # the round goes on
    total = selectors.total_rounds(tournament, facts)
    if tournament.round >= total:
        _finish(tournament, now)
        return []
    number = tournament.round + 1
    try:
        pairs, byes = _pairings(tournament, facts, number)
    except PairingError:
        logger.info("tournament %s: round %s cannot be paired: finished", tournament.pk, number)
        _finish(tournament, now)
        return []
    if not pairs and not byes:
        _finish(tournament, now)
        return []
    tournament.round = number
    tournament.save(update_fields=["round"])
    return _make(tournament, pairs, byes, now)


def _pairings(
    tournament: Tournament, facts: selectors.Facts, number: int
) -> tuple[list[tuple[int, int]], list[int]]:
    """Round ``number``'s games as (black, white) account ids, and its byes."""
    playing = [facts.entrant(entry) for entry in facts.entries if not entry.withdrawn]
    if tournament.system == Tournament.System.ROUNDROBIN:
        schedule = roundrobin.round_robin([entry.user_id for entry in facts.entries])
        withdrawn = {entry.user_id for entry in facts.entries if entry.withdrawn}
        pairs, byes = [], []
        for black, white in schedule[number - 1]:
            if white is None or white in withdrawn:
                if black not in withdrawn:
                    byes.append(black)
            elif black in withdrawn:
                byes.append(white)
            else:
                pairs.append((black, white))
        return pairs, byes
    if len(playing) < 2:
        return [], []
    played = facts.played()
    if tournament.system == Tournament.System.MCMAHON:
        assert tournament.bar is not None
        found = mcmahon.pair_mcmahon(playing, played, number, tournament.bar)
    else:
        found = swiss.pair_swiss(playing, played, number)
    return list(found.pairings), [] if found.bye is None else [found.bye]


def _make(
    tournament: Tournament,
    pairs: list[tuple[int, int]],
    byes: list[int],
    now: datetime.datetime,
) -> list[Game]:
    """The round's games and byes stored (``round`` is the tournament's now), the players
    told (``round_paired``), the page's standings after the commit."""
    names = selectors.usernames({player for pair in pairs for player in pair})
    control = TimeControl.from_json(tournament.time_control)
    made = lobby.start_games(
        [
            lobby.NewPair(
                first=lobby.Entrant(Player(user_id=black, username=names[black]), names[black]),
                second=lobby.Entrant(Player(user_id=white, username=names[white]), names[white]),
                kind=tournament.kind,
                size=tournament.size,
                time_control=control,
                rated=tournament.rated,
                color="black",
            )
            for black, white in pairs
        ]
    )
    rows = [
        TournamentPairing(
            tournament=tournament,
            round=tournament.round,
            game=game,
            black_id=black,
            white_id=white,
            created_at=now,
        )
        for game, (black, white) in zip(made, pairs, strict=True)
    ]
    rows += [
        TournamentPairing(
            tournament=tournament, round=tournament.round, black_id=player, created_at=now
        )
        for player in byes
    ]
    TournamentPairing.objects.bulk_create(rows)
    _tell_paired(tournament, made, pairs, byes, now)
    _tell_standings(tournament)
    return made


def _tell_paired(
    tournament: Tournament,
    made: list[Game],
    pairs: list[tuple[int, int]],
    byes: list[int],
    now: datetime.datetime,
) -> None:
    """The players of a round (a wave) told: after the commit every page of each paired
    account hears ``game_ready`` (and opens the game); each gets ``round_paired`` (an
    arena's player one a tournament, updated at each game: not a bell at 10), and one
    with a bye is told so."""
    urls = {}
    ready = []
    for game, (black, white) in zip(made, pairs, strict=True):
        urls[black] = urls[white] = f"/games/{game.public_id}/"
        ready += [(black, game.public_id), (white, game.public_id)]
    subject = f"tournament:{tournament.pk}"
    name, number = tournament.name, tournament.round
    notifications.notify_many(
        user_ids=list(urls),
        kind=Kind.ROUND_PAIRED,
        params={"name": name},
        url=urls,
        subject=subject,
        email=False,
        refresh=tournament.system == Tournament.System.ARENA,
        now=now,
    )
    notifications.notify_many(
        user_ids=byes,
        kind=Kind.ROUND_PAIRED,
        params={"name": name, "bye": number},
        url=tournament.get_absolute_url(),
        subject=subject,
        email=False,
        now=now,
    )

    def tell() -> None:
        for player, game in ready:
            event = {"type": "account.game_ready", "game": game, "tournament": tournament.pk}
            broadcast.send_to_group(broadcast.account_group(player), event)

    transaction.on_commit(tell, robust=True)


# Standings, live


_held: ContextVar[set[int] | None] = ContextVar("held_standings", default=None)


@contextmanager
def standings_held() -> Iterator[set[int]]:
    """Within it, the standings a commit would send are noted (the tournaments' ids)
    instead, for the caller to send once for all (``send_standings``): the loop's turn
    sends each tournament's once, after its pairing, however many commits told it."""
    noted: set[int] = set()
    token = _held.set(noted)
    try:
        yield noted
    finally:
        _held.reset(token)


def send_standings(tournament_ids: set[int]) -> None:
    """``{"type": "standings", "tournament": T}`` to each tournament's pages (one that is
    gone meanwhile, none)."""
    for tournament_id in sorted(tournament_ids):
        event = selectors.standings_event(tournament_id)
        if event is not None:
            broadcast.send_to_group(broadcast.tournament_group(tournament_id), event)


_later: set[int] = set()
_later_lock = threading.Lock()


def send_later_standings() -> None:
    """The standings noted by this process's games' ends and berserks since its loop's
    last turn (``_tell_standings(later=True)``), sent once each: a thousand games of an
    arena ending within a minute are not a thousand T built."""
    with _later_lock:
        due = set(_later)
        _later.clear()
    send_standings(due)


def _tell_standings(tournament: Tournament, *, later: bool = False) -> None:
    """After the commit: the tournament's pages get ``{"type": "standings",
    "tournament": T}`` (built then, once, for all of them), or the loop notes it
    (``standings_held``); ``later``: at this process's loop's next turn
    (``send_later_standings``, within ``loop.TICK``)."""
    tournament_id = tournament.pk

    def tell() -> None:
        held = _held.get()
        if later:
            with _later_lock:
                _later.add(tournament_id)
        elif held is not None:
            held.add(tournament_id)
        else:
            send_standings({tournament_id})

    transaction.on_commit(tell, robust=True)


def game_finished(sender: Any, *, game: Game, **kwargs: Any) -> None:
    """``games.signals.game_finished``'s receiver: a tournament's game ended, so its pages
    get the standings at this process's loop's next turn (which, or another process's,
    pairs the next round)."""
    found = TournamentPairing.objects.filter(game_id=game.pk).select_related("tournament").first()
    if found is not None:
        _tell_standings(found.tournament, later=True)
