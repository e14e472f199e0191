"""Challenges' use cases: challenging an account, declining, the expiry of the unanswered.

As games.services: one transaction each, the game row locked through ``games.services.lock.locked``,
broadcasts and notifications after the commit.

A challenge to a person notifies them (``challenge``: on the site, and by e-mail unless
they chose otherwise) and waits 24 hours (a correspondence game: 7 days); a decline, with
its reason (``Reason``), notifies the challenger (``challenge_declined``, saying the
reason). Whenever an account's incoming challenges change (one made, declined, accepted,
expired or called off), its open pages hear ``{"type": "challenges", "incoming": n}`` on
their lobby socket after the commit: the header's inbox follows. A challenge to a bot
goes through the bots' desk (``register_bot_desk``: the bots app, above this one, says
whether the bot is online, tells its bridge, and gives it ``seconds`` to answer).

Refusals: the challenged account must exist, not be the challenger, and not block the
challenger; all three are told alike (``UNKNOWN``), so that a block is not revealed.
A challenger has at most ``OPEN_LIMIT`` challenges waiting at once, and makes at most
``HOURLY_LIMIT`` challenges to people within any hour, whatever became of them (answered,
declined, expired or called off: a challenge's row is kept whatever becomes of its game,
so the count of the rows made in the last hour holds against challenging and calling off
again and again); past either, ``rate_limited``. Challenges to bots are not counted by the
hourly cap (a bot answers within 30 s and is mailed nothing).
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext

from accounts import selectors as accounts
from accounts import services as account_services
from accounts import standing
from accounts.players import Player
from broadcast import account_group, send_to_group
from challenges import selectors
from challenges.models import REASON_WORDS, Challenge, Reason
from games.models import Game
from games.realtime import events
from games.services import lobby
from games.services.after_commit import on_commit
from games.services.errors import GameError
from games.services.lock import locked
from games.services.refusals import refuse_engine, refuse_muted
from notifications import services as notifications
from notifications.models import Kind

PERSON_WAITS = datetime.timedelta(hours=24)
CORRESPONDENCE_WAITS = datetime.timedelta(days=7)
OPEN_LIMIT = 5
"""How many challenges one account may have waiting for an answer at once."""
HOURLY_LIMIT = 20
"""How many challenges to people one account may make within any hour."""
HOUR = datetime.timedelta(hours=1)

UNKNOWN = gettext_noop("you cannot challenge or follow this player")
"""The refusal for a name that is no account, a guest's, oneself, or one who blocks the
challenger: the same words, so that a block is not revealed, read as a refusal (a follow
of a blocker is refused in these words too: accounts.services.follow)."""


@dataclass(frozen=True)
class BotDesk:
    """How challenges to bots are answered (the bots app's, registered in its ``ready``):
    ``check(bot_id)`` raises GameError when the bot cannot take one now (offline);
    ``made(challenge)`` and ``ended(challenge)`` are called inside the transaction (to
    tell its bridge after the commit); a bot answers within ``seconds``."""

    seconds: int
    check: Callable[[int], None]
    made: Callable[[Challenge], None]
    ended: Callable[[Challenge], None]


_desk: list[BotDesk] = []


def register_bot_desk(desk: BotDesk) -> None:
    """The bots' desk (once; a second registration replaces the first)."""
    _desk[:] = [desk]


def _bot_desk() -> BotDesk | None:
    return _desk[0] if _desk else None


def subject_of(game: Game) -> str:
    return f"game:{game.public_id}"


def _waits(game: Game) -> datetime.timedelta:
    clock = game.time_control or {}
    return CORRESPONDENCE_WAITS if clock.get("system") == "correspondence" else PERSON_WAITS


@transaction.atomic
def challenge(
    *,
    player: Player,
    username: str,
    name: str,
    rated: bool,
    options: dict[str, Any],
    now: datetime.datetime | None = None,
) -> Game:
    """A waiting game created by ``player`` (seated as ``name``) reserved for the account
    ``username``, which is told of it (a person: a ``challenge`` notification; a bot: on
    its socket, through the bots' desk).

    Raises GameError: bad_request (``UNKNOWN`` for no such account, oneself or an account
    that blocks the challenger; a guest challenging a person; a bot offline; a rated
    challenge from a guest or without a clock; anything ``create_game`` refuses), muted
    (staff muted the challenger: a challenge to a person, with ``until``), not_allowed
    naming ``rated`` (a rated challenge from or to an account marked for engine use),
    rate_limited (``OPEN_LIMIT`` challenges already waiting, or ``HOURLY_LIMIT`` to people
    made in the last hour).
    """
    target = accounts.account_named(username)
    if (
        target is None
        or not target.is_active
        or target.pk == player.user_id
        or accounts.blocks(target.pk, player.user_id)
    ):
        raise GameError("bad_request", gettext(UNKNOWN))
    bot = accounts.is_bot(target)
    desk = _bot_desk()
    if bot:
        if desk is None:
            raise GameError("bad_request", gettext("%(name)s is not online") % {"name": username})
        desk.check(target.pk)
    elif player.user_id is None:
        raise GameError("bad_request", gettext("log in to challenge a person"))
    if rated and (player.user_id is None or options.get("time_control") is None):
        raise GameError(
            "bad_request", gettext("rated: a rated game needs you logged in and a clock")
        )
    if not bot:
        refuse_muted(player.user_id)
    if rated:
        refuse_engine(player.user_id, field="rated")
        if standing.is_engine(target.pk):
            raise GameError(
                "not_allowed",
                gettext("%(name)s is marked for engine use and plays no rated game")
                % {"name": username},
                field="rated",
            )
    now = now or timezone.now()
    if player.user_id is not None:
        account_services.hold(player.user_id)
        if not bot:
            _refuse_past_the_hour(player.user_id, now)
    if player.user_id is not None and open_count(player.user_id) >= OPEN_LIMIT:
        raise GameError(
            "rate_limited",
            gettext("at most %(n)d challenges waiting at once: wait for answers, or call one off")
            % {"n": OPEN_LIMIT},
        )
    game = lobby.create_game(
        player=player, new=lobby.NewGame(name=name, reserved_for=target.pk, **options)
    )
    waits = datetime.timedelta(seconds=desk.seconds) if bot and desk else _waits(game)
    made = Challenge.objects.create(
        game=game,
        challenged=target,
        challenger=game.creator.name,
        challenger_user_id=player.user_id,
        rated=rated,
        created_at=now,
        expires_at=now + waits,
    )
    if bot and desk:
        desk.made(made)
    else:
        _tell(target.pk, Kind.CHALLENGE, made.challenger, game, now=now)
    _tell_inbox(target.pk)
    return game


def _tell(
    user_id: int,
    kind: str,
    name: str,
    game: Game,
    *,
    now: datetime.datetime | None = None,
    reason: str = "",
) -> None:
    """Notify ``user_id`` of ``kind`` about ``game``, whose other party is ``name`` (and
    ``reason``, a decline's): its words are made when read (``challenge_text``,
    ``declined_text``)."""
    params: dict[str, Any] = {"name": name, "kind": str(game.kind), "size": game.size}
    if reason:
        params["reason"] = reason
    notifications.notify(
        user_id=user_id,
        kind=kind,
        params=params,
        url=f"/games/{game.public_id}/",
        subject=subject_of(game),
        now=now,
    )


def _board(params: Mapping[str, Any]) -> str:
    kind = gettext("Go") if params["kind"] == Game.Kind.GO else gettext("Othello")
    return f"{kind} {params['size']}\N{MULTIPLICATION SIGN}{params['size']}"


def challenge_text(params: Mapping[str, Any]) -> str:
    """A ``challenge`` notification's words, in the active language."""
    return gettext("%(name)s challenges you to a game of %(game)s") % {
        "name": params["name"],
        "game": _board(params),
    }


def declined_text(params: Mapping[str, Any]) -> str:
    """A ``challenge_declined`` notification's words (the reason's), in the active
    language."""
    return gettext("%(name)s declined your challenge (%(game)s): %(reason)s") % {
        "name": params["name"],
        "game": _board(params),
        "reason": REASON_WORDS[Reason(params.get("reason") or Reason.GENERIC)],
    }


def _refuse_past_the_hour(user_id: int, now: datetime.datetime) -> None:
    """Raise GameError("rate_limited") when the account made ``HOURLY_LIMIT`` challenges
    to people within the hour before ``now``, saying when the next one may be made."""
    made = made_to_people(user_id, since=now - HOUR)
    if len(made) < HOURLY_LIMIT:
        return
    # The oldest that keeps the count full leaves the hour first.
    frees_at = made[-HOURLY_LIMIT] + HOUR
    minutes = max(1, math.ceil((frees_at - now).total_seconds() / 60))
    raise GameError(
        "rate_limited",
        ngettext(
            "at most %(n)d challenges to people an hour, called off ones included:"
            " the next one in %(minutes)d minute",
            "at most %(n)d challenges to people an hour, called off ones included:"
            " the next one in %(minutes)d minutes",
            minutes,
        )
        % {"n": HOURLY_LIMIT, "minutes": minutes},
    )


def made_to_people(user_id: int, *, since: datetime.datetime) -> list[datetime.datetime]:
    """When the account made each of its challenges to people (not bots) since ``since``,
    oldest first, whatever became of them."""
    made = Challenge.objects.filter(challenger_user_id=user_id, created_at__gt=since).filter(
        accounts.bot_filter("challenged", bots=False)
    )
    return list(made.order_by("created_at").values_list("created_at", flat=True))


def _tell_inbox(user_id: int) -> None:
    """After the commit: ``{"type": "challenges", "incoming": n}`` to the account's lobby
    sockets, ``n`` counted then (the header's inbox reads ``GET /challenges.json``)."""

    def tell() -> None:
        event = {"type": "account.challenges", "incoming": selectors.incoming(user_id).count()}
        send_to_group(account_group(user_id), event)

    on_commit(tell)


def open_count(user_id: int) -> int:
    """How many of the account's challenges wait for an answer."""
    return Challenge.objects.filter(
        challenger_user_id=user_id,
        status=Challenge.Status.PENDING,
        game__status=Game.Status.WAITING,
    ).count()


@transaction.atomic
def decline(*, player: Player, game_id: str, reason: str = Reason.GENERIC) -> Game:
    """The challenge ``game_id`` declined by the challenged account for ``reason`` (one of
    ``Reason``, kept): the game aborted, the challenger told (on the game page; a
    challenger with an account, by a ``challenge_declined`` notification saying the
    reason). Raises GameError: bad_request (a reason not of ``Reason``, naming ``reason``;
    unknown game, not a challenge, already answered), not_a_player (not the challenged
    account)."""
    if reason not in Reason.values:
        choices = ", ".join(Reason.values)
        raise GameError(
            "bad_request",
            gettext("reason: one of %(choices)s") % {"choices": choices},
            field="reason",
        )
    game = locked(game_id)
    found = Challenge.objects.filter(game=game).first()
    if found is None:
        raise GameError("bad_request", gettext("this game is not a challenge"))
    if found.challenged_id != player.user_id:
        raise GameError("not_a_player", gettext("only the challenged account may decline"))
    if found.status != Challenge.Status.PENDING or game.status != Game.Status.WAITING:
        raise GameError("bad_request", gettext("this challenge was already answered"))
    found.reason = reason
    _end(game, found, Challenge.Status.DECLINED)
    if found.challenger_user_id is not None and not accounts.is_bot(found.challenged_id):
        declined_by = accounts.username_of(found.challenged_id)
        _tell(found.challenger_user_id, Kind.CHALLENGE_DECLINED, declined_by, game, reason=reason)
    return game


def expire_challenges(*, now: datetime.datetime | None = None) -> list[str]:
    """Mark accepted every pending challenge whose account took its seat (the game
    started: ``Game.reserved_for`` let it), and expired every one its challenger called
    off, their notifications read; and abort every one not answered in time (the clock
    watch calls this every second). The ids of the games aborted."""
    now = now or timezone.now()
    pending = Challenge.objects.filter(status=Challenge.Status.PENDING)
    # Answered (the game went on) or called off by the challenger (the game aborted while
    # waiting): no answer is due any more.
    settled = pending.exclude(game__status=Game.Status.WAITING).values_list(
        "pk", "challenged_id", "game__public_id", "game__status"
    )
    by_status: dict[str, list[int]] = {}
    for pk, challenged_id, game_id, game_status in settled:
        notifications.seen(user_id=challenged_id, subject=f"game:{game_id}", kind=Kind.CHALLENGE)
        _tell_inbox(challenged_id)
        called_off = game_status == Game.Status.ABORTED
        status = Challenge.Status.EXPIRED if called_off else Challenge.Status.ACCEPTED
        by_status.setdefault(status, []).append(pk)
    for status, pks in by_status.items():
        pending.filter(pk__in=pks).update(status=status)
    due = pending.filter(expires_at__lte=now)
    return [
        game_id
        for game_id in due.values_list("game__public_id", flat=True)
        if _expire(game_id, now)
    ]


@transaction.atomic
def _expire(game_id: str, now: datetime.datetime) -> bool:
    game = locked(game_id)
    found = Challenge.objects.select_for_update().get(game=game)
    if found.status != Challenge.Status.PENDING or found.expires_at > now:
        return False
    if game.status != Game.Status.WAITING:
        called_off = game.status == Game.Status.ABORTED
        found.status = Challenge.Status.EXPIRED if called_off else Challenge.Status.ACCEPTED
        found.save(update_fields=["status"])
        return False
    _end(game, found, Challenge.Status.EXPIRED)
    return True


def _end(game: Game, found: Challenge, status: str) -> None:
    found.status = status
    found.save(update_fields=["status", "reason"])
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    game.save()
    notifications.seen(user_id=found.challenged_id, subject=subject_of(game), kind=Kind.CHALLENGE)
    desk = _bot_desk()
    if desk is not None and accounts.is_bot(found.challenged_id):
        desk.ended(found)
    on_commit(lambda: events.broadcast_state(game))
    on_commit(events.broadcast_lobby)
    _tell_inbox(found.challenged_id)


# G's ``challenge``


def game_challenge(game: Game) -> dict[str, Any] | None:
    """G's ``challenge`` (``live.state`` puts it in G): the challenge ``game`` is while it
    waits or once aborted (``challenge_state``), else None."""
    waiting = game.status in (Game.Status.WAITING, Game.Status.ABORTED)
    return challenge_state(game) if waiting else None


def _duration(waited: datetime.timedelta) -> str:
    seconds = round(waited.total_seconds())
    if seconds % 86400 == 0 and seconds > 86400:
        days = seconds // 86400
        return ngettext("%(n)d day", "%(n)d days", days) % {"n": days}
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}
    return gettext("%(n)d s") % {"n": seconds}


def challenge_state(game: Game) -> dict[str, Any] | None:
    """The challenge ``game`` is: null for none, or ``{"to" (the challenged account),
    "bot" (its name when it is a bot, else null), "status", "rated", "reason" (a decline's,
    else null), "message"}`` (what became of it, in words: declined with the reason's
    words, withdrawn by the challenger, not answered in time; null while it waits or once
    accepted)."""
    found = Challenge.objects.filter(game=game).select_related("challenged").first()
    if found is None:
        return None
    status = found.status
    if status == Challenge.Status.PENDING and game.status not in (
        Game.Status.WAITING,
        Game.Status.ABORTED,
    ):
        status = Challenge.Status.ACCEPTED  # the account took its seat (Game.reserved_for)
    to = found.challenged.get_username()
    message = None
    if status == Challenge.Status.DECLINED and not game.abort_reason:
        message = gettext("%(name)s declined the challenge: %(reason)s") % {
            "name": to,
            "reason": REASON_WORDS[Reason(found.reason or Reason.GENERIC)],
        }
    elif game.abort_reason == Game.AbortReason.CALLED_OFF:
        message = gettext("%(name)s withdrew the challenge.") % {"name": found.challenger}
    elif status == Challenge.Status.EXPIRED and not game.abort_reason:
        message = gettext("%(name)s did not answer the challenge within %(time)s.") % {
            "name": to,
            "time": _duration(found.expires_at - found.created_at),
        }
    return {
        "to": to,
        "bot": to if accounts.is_bot(found.challenged_id) else None,
        "status": status,
        "rated": found.rated,
        "reason": found.reason or None,
        "message": message,
    }
