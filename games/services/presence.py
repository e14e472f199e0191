"""Who is at the table, and a game its opponent left.

A seat is online while one of its sockets is open on any server process: each socket
of a seated player is a ``Connection`` row, written by the consumer on connect and
deleted on disconnect. A process that is killed cannot delete its rows, so each process
writes a heartbeat (``heartbeat``, from games.workers.clockwatch) and every process sweeps the
rows of processes not seen for ``PROCESS_TIMEOUT`` seconds (``sweep``). Each change of a
seat's presence is stored on the game (``<color>_online``, ``<color>_away_since``) and
reaches everyone as ``state``.

A player whose opponent has been offline for ``ABANDON_SECONDS`` may ``claim`` the game:
a stored ``forfeit`` move, B+F / W+F. The computer claims nothing, but a game against it
whose person has been offline for ``DESERTED_AFTER`` ends (``end_deserted``): aborted if
they never moved, else resigned on their behalf, so that it does not stay in play for
ever.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

import gamerules as rules
from accounts.players import Player
from games.models import Connection, Game, Move, ServerProcess
from games.realtime import events
from games.selectors import COLORS, color_of, position_of
from games.services import clock
from games.services.after_commit import on_commit
from games.services.ending import end_aborted, end_with, ending_move
from games.services.errors import GameError
from games.services.lock import locked
from games.services.play import resign_as
from games.services.refusals import refuse_ended
from games.services.scoring import drop_marking

DESERTED_AFTER = datetime.timedelta(hours=24)
"""How long the person of a game against the computer may be offline before it ends."""


@transaction.atomic
def connected(*, player: Player, game_id: str, process: str, channel_name: str) -> str | None:
    """A socket of ``player`` opened on ``process``: the seat it holds is online. Its
    colour; None for a spectator (not tracked). Raises GameError("bad_request") for an
    unknown game."""
    game = locked(game_id)
    color = color_of(game, player)
    if color is None:
        return None
    now = timezone.now()
    Connection.objects.create(
        game=game, color=color, process=process, channel_name=channel_name, opened_at=now
    )
    _recount(game, color, now, skip=channel_name)
    return color


@transaction.atomic
def disconnected(*, channel_name: str) -> None:
    """The socket ``channel_name`` closed: its seat is offline once it had no other."""
    connection = Connection.objects.filter(channel_name=channel_name).first()
    if connection is None:
        return
    game = Game.objects.select_for_update().get(pk=connection.game_id)
    connection.delete()
    _recount(game, connection.color, timezone.now())


@transaction.atomic
def heartbeat(*, process: str) -> None:
    """``process`` is up (its sockets count)."""
    now = timezone.now()
    updated = ServerProcess.objects.filter(name=process).update(seen_at=now)
    if not updated:
        ServerProcess.objects.create(name=process, started_at=now, seen_at=now)


@transaction.atomic
def sweep(*, timeout: float) -> list[str]:
    """Forget the sockets of the processes not seen for ``timeout`` seconds (killed):
    their seats go offline. The ids of the games whose presence changed."""
    now = timezone.now()
    cutoff = now - datetime.timedelta(seconds=timeout)
    alive = set(ServerProcess.objects.filter(seen_at__gte=cutoff).values_list("name", flat=True))
    ServerProcess.objects.filter(seen_at__lt=cutoff).delete()
    # A process that never wrote a heartbeat counts once its sockets are older than that.
    gone = Connection.objects.exclude(process__in=alive).filter(opened_at__lt=cutoff)
    changed = []
    for game_id in sorted(set(gone.values_list("game_id", flat=True))):
        game = Game.objects.select_for_update().get(pk=game_id)
        gone.filter(game=game).delete()
        for color in COLORS:
            if _recount(game, color, now):
                changed.append(game.public_id)
    return changed


def _recount(game: Game, color: str, now: datetime.datetime, *, skip: str | None = None) -> bool:
    """Store whether ``color``'s seat is online; broadcast (to all but ``skip``) and True
    if that changed. The computer's seat is always online."""
    if color == game.computer_color:
        return False
    online = Connection.objects.filter(game=game, color=color).exists()
    if online == game.seat(color).online:
        return False
    changed = game.set_seat(color, online=online, away_since=None if online else now)
    game.save(update_fields=[*changed, "updated_at"])
    on_commit(lambda: events.broadcast_state(game, skip=skip))
    if game.status == Game.Status.WAITING and color == game.creator_color:
        on_commit(events.broadcast_lobby)  # the lobby lists it only while its creator is here
    return True


@clock.on_time
@transaction.atomic
def claim(*, player: Player, game_id: str) -> list[Move]:
    """The stored ``forfeit`` of ``player``'s opponent, who has been offline for
    ``ABANDON_SECONDS``: ``player`` wins (B+F / W+F).

    Raises GameError: bad_request (unknown game), not_a_player, game_over,
    illegal_move (no opponent yet, or the opponent is online or has not been away
    long enough: the message says how long is left).
    """
    game = locked(game_id)
    now = timezone.now()
    color = color_of(game, player)
    if color is None:
        raise GameError("not_a_player", gettext("only the players can claim the game"))
    refuse_ended(game)
    clock.check_on_time(game, now)
    if game.status == Game.Status.WAITING:
        raise GameError(
            "illegal_move", gettext("there is no opponent yet: call the game off instead")
        )
    absent = rules.Color(color).opponent.value
    since = game.seat(absent).away_since
    if game.seat(absent).online or since is None:
        raise GameError(
            "illegal_move",
            gettext("Black is here: the game goes on")
            if absent == "black"
            else gettext("White is here: the game goes on"),
        )
    wait = settings.ABANDON_SECONDS - (now - since).total_seconds()
    if wait > 0:
        raise GameError(
            "illegal_move",
            (
                gettext("Black has been away for %(away)s s: you may claim the game in %(wait)s s")
                if absent == "black"
                else gettext(
                    "White has been away for %(away)s s: you may claim the game in %(wait)s s"
                )
            )
            % {"away": int((now - since).total_seconds()), "wait": int(wait) + 1},
        )
    move = ending_move(game, color=absent, action=Move.Action.FORFEIT)
    clock.stamp_unmoved(move, game, now)
    if game.status == Game.Status.SCORING:
        drop_marking(game, position_of(game))
    return end_with(game, move, result=f"{rules.Color(color).letter}+F")


def end_deserted(*, limit: int = 50) -> list[Game]:
    """End up to ``limit`` games against the computer (in play: active or being counted)
    whose person has been offline for ``DESERTED_AFTER``: aborted when the person never
    made a move (a ``place`` or ``pass`` of theirs), else resigned on their behalf (the
    computer wins, B+R / W+R). The games ended; each broadcast after the commit.

    The clock watch calls it every few seconds. Nothing due: one read, no transaction;
    on PostgreSQL a game another process is ending is skipped (SKIP LOCKED)."""
    due = _deserted(timezone.now())
    if not due.exists():
        return []
    with transaction.atomic():
        now = timezone.now()
        skip_locked = connection.features.has_select_for_update_skip_locked
        games = list(
            _deserted(now).select_for_update(skip_locked=skip_locked).order_by("pk")[:limit]
        )
        for game in games:
            person = rules.Color(str(game.computer_color)).opponent.value
            moved = game.moves.filter(
                color=person, action__in=(Move.Action.PLACE, Move.Action.PASS)
            ).exists()
            if moved:
                resign_as(game, person, now)
            else:
                end_aborted(game, Game.AbortReason.LEFT)
        return games


def _deserted(now: datetime.datetime) -> QuerySet[Game]:
    cutoff = now - DESERTED_AFTER
    gone = Q(computer_color="white", black_online=False, black_away_since__lte=cutoff) | Q(
        computer_color="black", white_online=False, white_away_since__lte=cutoff
    )
    return Game.objects.filter(gone, status__in=(Game.Status.ACTIVE, Game.Status.SCORING))
