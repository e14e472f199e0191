"""Playbans (lichess's ``modules/playban``): an account that lets games end without its
move, or leaves the games it started, is kept out of the seeks, the pools and the
tournaments' joins for a while. What counts and how long it lasts are
moderation.playban_rules's; this module finds the offences, keeps them, and gives the
playbans.

- The offences. Every game's end reaches ``game_ended`` (games.signals ``game_finished``
  and ``game_aborted``), inside the transaction that ends it, the game's row locked;
  ``offence_of`` says whether it costs one of its players an offence: a game with a clock
  other than correspondence's, against another player (not the computer), that was
  aborted at the first-move deadline on the account's first move (``no_move``: its
  opponent may have moved, it never did), or that the account had started (a move of
  its own stored) and lost while gone (``left``): its clock ran out while none of its
  sockets was open (the seat offline at the flag), or its opponent claimed the game
  after it had been away ``ABANDON_SECONDS`` (B+F / W+F: the same game left, whether the
  opponent waits for the clock or not). The offence (``PlaybanOffence``) is written with
  the end: it commits or rolls back with it.
- The playban. After the commit, ``judge`` weighs the account's offences not yet counted
  in a transaction of its own, the account's row locked first and alone (a game's end
  never waits for an account's row, which a staff action holds while it resigns that
  account's games). A playban earned is a ``Playban`` row (its reason, its start and its
  end: the desk shows them, and the next one's length counts them), the end and the
  reason on the account's row (``Account.playban_until``, ``playban_reason``: the apps
  that refuse read them through accounts.standing), its offences marked counted, and
  its seeks withdrawn (its pages hear the refusal). Judging twice gives one playban:
  the offences a playban counted never count again.
- ``lift``: staff end a playban in force (the ``lift_playban`` action); a lifted playban
  does not double the next.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone, translation

from accounts import languages, standing
from accounts.models import Account
from gamerules import Color
from games.models import Game, Move
from moderation import playban_rules as rules
from moderation.models import Playban, PlaybanOffence
from pairing import services as pairing


def offence_of(game: Game) -> tuple[int, rules.Reason] | None:
    """The account that ``game``, just ended (finished or aborted), costs an offence, and
    why; None when it costs none (see the module's docstring)."""
    if game.computer_color or game.imported:
        return None
    clock = game.time_control
    if clock is None or clock.get("system") == "correspondence":
        return None
    if game.status == Game.Status.ABORTED:
        if game.abort_reason != Game.AbortReason.FIRST_MOVE:
            return None
        user_id = game.seat(game.to_move).user_id
        return None if user_id is None else (user_id, "no_move")
    if game.status != Game.Status.FINISHED or game.result[1:] not in ("+T", "+F"):
        return None
    loser = Color.from_letter(game.result[0]).opponent.value
    user_id = game.seat(loser).user_id
    if user_id is None:
        return None
    if game.result.endswith("+T") and game.seat(loser).online:
        return None  # at the table, and out of time: slow, not gone
    started = Move.objects.filter(
        game=game, color=loser, action__in=(Move.Action.PLACE, Move.Action.PASS)
    ).exists()
    return (user_id, "left") if started else None


def game_ended(sender: Any, *, game: Game, **kwargs: Any) -> None:
    """``games.signals.game_finished``'s and ``game_aborted``'s receiver: the offence
    ``game`` costs, if any, written in its end's transaction; the account judged after
    the commit."""
    found = offence_of(game)
    if found is None:
        return
    user_id, reason = found
    PlaybanOffence.objects.get_or_create(
        account_id=user_id,
        game=game,
        defaults={"reason": reason, "at": game.finished_at or timezone.now()},
    )
    transaction.on_commit(lambda: judge(user_id=user_id), robust=True)


@transaction.atomic
def judge(*, user_id: int, now: datetime.datetime | None = None) -> Playban | None:
    """The playban the account ``user_id`` earns at ``now`` (default: once its row is
    locked) for its offences not yet counted, given and returned; None when it earns none."""
    row = Account.objects.select_for_update().get_or_create(user_id=user_id)[0]
    now = now or timezone.now()
    uncounted = list(
        PlaybanOffence.objects.filter(
            account_id=user_id, playban__isnull=True, at__gt=now - rules.WITHIN
        )
    )
    earlier = Playban.objects.filter(account_id=user_id, at__gt=now - rules.REMEMBERED)
    earned = rules.playban(
        [rules.Offence(offence.at, offence.reason) for offence in uncounted],
        [rules.PastBan(ban.at, lifted=ban.lifted_at is not None) for ban in earlier],
        now,
    )
    if earned is None:
        return None
    playban = Playban.objects.create(
        account_id=user_id, reason=earned.reason, at=now, until=earned.until
    )
    PlaybanOffence.objects.filter(pk__in=[offence.pk for offence in uncounted]).update(
        playban=playban
    )
    if row.playban_until is None or row.playban_until < earned.until:
        row.playban_until = earned.until
        row.playban_reason = earned.reason
        row.save(update_fields=["playban_until", "playban_reason"])
    in_force = standing.Playban(row.playban_until, row.playban_reason)
    with translation.override(languages.of_account(user_id)):
        refusal = {
            "type": "error",
            "code": "playban",
            "message": in_force.words(now=now),
            "field": None,
            "until": in_force.until_json(),
        }
    pairing.withdraw_seeks(user_id=user_id, told=refusal)
    return playban


def lift(row: Account, now: datetime.datetime) -> None:
    """The playban in force of the account whose row is ``row`` (locked) ends at ``now``
    (its ``Playban`` marked lifted then); nothing when none is in force."""
    if row.playban_until is None or row.playban_until <= now:
        return
    Playban.objects.filter(account_id=row.user_id, until__gt=now, lifted_at__isnull=True).update(
        lifted_at=now
    )
    row.playban_until = None
    row.playban_reason = ""
    row.save(update_fields=["playban_until", "playban_reason"])
