"""The computer as an opponent: its seat, the turns it owes, and its moves.

A game against the computer has ``computer_color`` set: that seat belongs to no session
or account (nobody can take it), its name says who plays (``GNU Go 3.8 (level 5)``, or
``KataGo (level 5)`` where the server has KataGo, ``Engine (level 5)``: data, which the
pages say in the reader's language, ``selectors.shown_name``) and it is always online.
The computer's moves go through the same steps as a person's (the ply check, the clocks,
the broadcast after commit).

Which process thinks: every process's watch asks ``claim_turns`` for the games where the
computer owes a move (or, in Go's count, has not looked at the dead stones yet), as many
as it has engines free. A claimed game carries the thinking process's name
(``computer_thinker``): no other process claims it while that process writes its
heartbeat (and for ``MAX_THINK`` seconds at most), so a move is never thought twice; if
the process is killed, another one (or the same after a restart) claims the game once
the heartbeat is stale. The answer goes through ``computer_move`` or ``computer_count``,
which check that the game still waits for it at that ply (else nothing happens: a move
is never made twice) and release the claim.

Counting against the computer (Go): the first look at the count replaces the rules'
guess of the dead stones with the computer's own (GNU Go's ``final_status_list dead``)
and accepts it. When the person changes the marking, the computer accepts it only when
it equals its own (``scoring.accept_if_computers``), otherwise it waits; the person may
resume.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

import gamerules as rules
from games.models import Game, Move, ServerProcess
from games.realtime import events
from games.selectors import COLORS, COMPUTER_ENGINES, computer_seat_name, position_of
from games.services import clock
from games.services.after_commit import on_commit
from games.services.lock import locked
from games.services.play import apply_move, resign_as
from games.services.scoring import accept_if_computers, count

LEVELS = range(1, 11)
KATAGO_NAME = "KataGo"
MAX_THINK = datetime.timedelta(seconds=120)


def computer_name(kind: str, level: int) -> str:
    """The name the computer's seat shows: ``GNU Go 3.8 (level 5)``; in Go ``KataGo (level
    5)`` where KataGo plays the computer's Go (``settings.KATAGO``)."""
    name = KATAGO_NAME if kind == "go" and settings.KATAGO is not None else COMPUTER_ENGINES[kind]
    return computer_seat_name(name, level)


def seat_computer(game: Game, color: str, level: int) -> None:
    """Seat the computer at ``level`` as ``color`` in ``game`` (not saved)."""
    game.computer_color = color
    game.computer_level = level
    game.set_seat(color, name=computer_name(str(game.kind), level), online=True, away_since=None)


@dataclass(frozen=True)
class Turn:
    """What an engine needs to answer for the computer, read when the turn was claimed.

    ``task`` is ``move`` (a move at ``ply``) or ``count`` (the dead stones of the
    position, Go's marking ``marking``). ``moves`` are the game's moves as
    ``(colour, point or None)``, passes included (GNU Go replays them); ``setup`` the
    start position's stones by colour when it is not the game's own; ``claimed_at`` the
    claim's time, which the answer names (``computer_move``).
    """

    game_id: str
    task: str
    kind: str
    size: int
    level: int
    color: str
    ply: int
    marking: int
    snapshot: dict[str, Any]
    komi: float | None
    setup: dict[str, list[tuple[int, int]]] | None
    moves: list[tuple[str, tuple[int, int] | None]]
    claimed_at: datetime.datetime | None = None


def claim_turns(*, process: str, limit: int) -> list[Turn]:
    """Up to ``limit`` turns the computer owes that no live process is thinking: each
    game now claimed by ``process``, longest waiting first. None owed at all: one read,
    no transaction (the clock watch asks four times a second)."""
    owed = Q(status=Game.Status.ACTIVE, to_move=F("computer_color")) | Q(
        status=Game.Status.SCORING, computer_dead__isnull=True
    )
    if limit <= 0 or not Game.objects.exclude(computer_color="").filter(owed).exists():
        return []
    with transaction.atomic():
        return _claim(process, limit, owed)


def _claim(process: str, limit: int, owed: Q) -> list[Turn]:
    now = timezone.now()
    recently = now - datetime.timedelta(seconds=settings.PROCESS_TIMEOUT)
    others = ServerProcess.objects.filter(seen_at__gte=recently).values_list("name", flat=True)
    alive = [process, *others]
    thought = Q(computer_thinker__in=alive, computer_since__gte=now - MAX_THINK)
    skip_locked = connection.features.has_select_for_update_skip_locked
    games = list(
        Game.objects.select_for_update(skip_locked=skip_locked)
        .exclude(computer_color="")
        .filter(owed)
        .exclude(thought)
        .order_by("updated_at")[:limit]
    )
    for game in games:
        game.computer_thinker = process
        game.computer_since = now
        game.save(update_fields=["computer_thinker", "computer_since", "updated_at"])
    return [_turn(game) for game in games]


def _turn(game: Game) -> Turn:
    moves = [
        (str(move.color), None if move.row is None else (move.row, move.col))
        for move in game.moves.filter(action__in=[Move.Action.PLACE, Move.Action.PASS])
    ]
    setup = None
    if game.start is not None:
        stones = rules.stones_by_color(game.start["rows"])
        setup = {color: stones.get(rules.Color(color), []) for color in COLORS}
    return Turn(
        game_id=game.public_id,
        task="count" if game.status == Game.Status.SCORING else "move",
        kind=str(game.kind),
        size=game.size,
        level=game.computer_level or 5,
        color=str(game.computer_color),
        ply=game.ply,
        marking=game.marking,
        snapshot=game.snapshot,
        komi=game.komi,
        setup=setup,
        moves=moves,
        claimed_at=game.computer_since,
    )


@clock.on_time
@transaction.atomic
def computer_move(
    *,
    game_id: str,
    ply: int,
    point: Sequence[int] | str | None,
    claimed_at: datetime.datetime | None = None,
) -> list[Move]:
    """The computer's answer to the turn claimed at ``ply`` (at ``claimed_at``, when
    given): a point to play, None to pass, ``"resign"``. The stored moves (with any
    automatic pass); [] when the game no longer waits for it (moved on, over): nothing
    happens then but the claim's release. [] too, the claim untouched, when the claim
    of ``claimed_at`` is gone (a take back gave it up, another process took it over):
    the same ply may then stand for another position."""
    game = locked(game_id)
    if claimed_at is not None and game.computer_since != claimed_at:
        return []
    now = timezone.now()
    _release(game)
    waiting = game.status == Game.Status.ACTIVE and game.to_move == game.computer_color
    if not waiting or game.ply != ply:
        game.save(update_fields=["computer_thinker", "computer_since"])
        return []
    clock.check_on_time(game, now)
    if point == "resign":
        return resign_as(game, str(game.computer_color), now)
    if point is None:
        return apply_move(game, rules.Move.pass_turn(), now)
    row, col = point
    return apply_move(game, rules.Move.place((row, col)), now)


@transaction.atomic
def computer_count(*, game_id: str, marking: int, dead: Sequence[Sequence[int]]) -> None:
    """The computer's look at Go's count at ``marking``: ``dead``, the stones it sees
    dead, become the marking (if the person has not changed it meanwhile) and it
    accepts; the game is finished if the person had accepted that marking too."""
    game = locked(game_id)
    _release(game)
    if game.status != Game.Status.SCORING or game.marking != marking:
        game.save(update_fields=["computer_thinker", "computer_since"])
        return
    own = sorted([row, col] for row, col in dead)
    game.computer_dead = own
    if own != sorted(game.dead):
        position = position_of(game)
        assert isinstance(position, rules.GoPosition)
        count(game, position, {(row, col) for row, col in own})
        game.black_accepted = game.white_accepted = False
        game.marking += 1
    accept_if_computers(game)
    game.save()
    on_commit(lambda: events.broadcast_state(game))


@transaction.atomic
def release_turn(*, game_id: str) -> None:
    """Give up the claim on ``game_id``'s turn (its engine failed): another look soon."""
    Game.objects.filter(public_id=game_id).update(computer_thinker="", computer_since=None)


def _release(game: Game) -> None:
    game.computer_thinker = ""
    game.computer_since = None
