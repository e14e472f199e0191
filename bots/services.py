"""The bots' use cases: tokens, turning into a bot, challenges and their answers.

As games.services: one transaction each, the game row locked through ``base.locked``,
broadcasts after the commit.
"""

from __future__ import annotations

import datetime
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from accounts.players import Player
from accounts.selectors import is_bot
from accounts.services import make_bot
from bots import accounts
from bots.models import ApiToken, BotAccount, BotConnection, Challenge
from games import services
from games.models import Game
from games.realtime import events
from games.services import GameError
from games.services.base import locked, on_commit

CHALLENGE_SECONDS = 30
"""A challenge the bot has not answered within this is aborted."""


def bot_group(user_id: int) -> str:
    """The channel-layer group of a bot's ``/ws/bot/`` sockets."""
    return f"bot.{user_id}"


def tell_bot(user_id: int, message: dict[str, Any]) -> None:
    """Send ``message`` to every ``/ws/bot/`` socket of the bot ``user_id``."""
    async_to_sync(get_channel_layer().group_send)(
        bot_group(user_id), {"type": "bot.message", "message": message}
    )


# Tokens


@transaction.atomic
def create_token(*, user: Any, name: str) -> tuple[ApiToken, str]:
    """A new token of ``user`` named ``name``, and the token itself (shown once)."""
    name = name.strip()
    if not name or len(name) > 60:
        raise GameError("bad_request", gettext("a token needs a name of at most 60 characters"))
    token = accounts.new_token()
    stored = ApiToken.objects.create(
        user=user, name=name, prefix=token[: accounts.PREFIX_LENGTH], digest=accounts.digest(token)
    )
    return stored, token


def revoke_token(*, user: Any, token_id: int) -> bool:
    """Revoke ``user``'s token ``token_id``; False when it has no such live token."""
    updated = ApiToken.objects.filter(user=user, pk=token_id, revoked_at=None).update(
        revoked_at=timezone.now()
    )
    return bool(updated)


# Bot accounts


@transaction.atomic
def become_bot(*, user: Any) -> BotAccount:
    """``user`` made a bot for good (``accounts.services.make_bot``), with this app's row
    of what its bridge plays. Raises GameError("bad_request") when the account has played
    or is seated in any game (a person's record is not a bot's)."""
    if not is_bot(user):
        if Game.objects.filter(Q(black_user=user) | Q(white_user=user)).exists():
            raise GameError(
                "bad_request", gettext("only an account without games can become a bot")
            )
        make_bot(user=user)
    return BotAccount.objects.get_or_create(user=user)[0]


@transaction.atomic
def bot_token(*, username: str) -> str:
    """``manage.py bot_token``: ``username`` a bot (the account created when missing,
    without a password) and a new token for it."""
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_unusable_password()
        user.save()
    become_bot(user=user)
    return create_token(user=user, name="bot_token")[1]


def set_accepts(*, user_id: int, accepts: dict[str, Any]) -> None:
    """Store what the bot's bridge says it plays (shown on the bots' list)."""
    BotAccount.objects.filter(user_id=user_id).update(accepts=accepts)


def bot_connected(*, user_id: int, process: str, channel_name: str) -> None:
    BotConnection.objects.update_or_create(
        channel_name=channel_name,
        defaults={"user_id": user_id, "process": process, "opened_at": timezone.now()},
    )


def bot_disconnected(*, channel_name: str) -> None:
    BotConnection.objects.filter(channel_name=channel_name).delete()


# Challenges


def challenge_json(challenge: Challenge) -> dict[str, Any]:
    """The ``challenge`` message a bot gets."""
    game = challenge.game
    return {
        "type": "challenge",
        "game_id": game.public_id,
        "kind": game.kind,
        "size": game.size,
        "komi": game.komi,
        "color": "white" if game.creator_color == "black" else "black",
        "clock": game.time_control,
        "rated": challenge.rated,
        "from": challenge.challenger,
    }


@transaction.atomic
def challenge(
    *, player: Player, bot_username: str, name: str, rated: bool, options: dict[str, Any]
) -> Game:
    """A waiting game created by ``player`` (seated as ``name``) reserved for the bot
    ``bot_username``, which hears of it at once on ``/ws/bot/``.

    Raises GameError("bad_request"): no such bot, the bot is offline, a rated challenge
    from a guest or without a clock, or anything ``create_game`` refuses.
    """
    bot = BotAccount.objects.filter(user__username=bot_username).select_related("user").first()
    if bot is None:
        raise GameError(
            "bad_request", gettext("%(bot_username)s is not a bot") % {"bot_username": bot_username}
        )
    if bot.user_id not in accounts.online_bot_ids():
        raise GameError(
            "bad_request",
            gettext("%(bot_username)s is not online") % {"bot_username": bot_username},
        )
    if rated and (player.user_id is None or options.get("time_control") is None):
        raise GameError(
            "bad_request", gettext("rated: a rated game needs you logged in and a clock")
        )
    if player.user_id == bot.user_id:
        raise GameError("bad_request", gettext("a bot cannot challenge itself"))
    game = services.create_game(player=player, name=name, reserved_for=bot.user_id, **options)
    now = timezone.now()
    made = Challenge.objects.create(
        game=game,
        bot=bot.user,
        challenger=getattr(game, f"{game.creator_color}_name"),
        rated=rated,
        created_at=now,
        expires_at=now + datetime.timedelta(seconds=CHALLENGE_SECONDS),
    )
    message = challenge_json(made)
    on_commit(lambda: tell_bot(bot.user_id, message))
    return game


@transaction.atomic
def decline(*, player: Player, game_id: str) -> Game:
    """The challenge ``game_id`` declined by its bot: the game aborted, the challenger
    told on the game page. Raises GameError: bad_request (unknown game, not a
    challenge, already answered), not_a_player (not the challenged bot)."""
    game = locked(game_id)
    found = Challenge.objects.filter(game=game).first()
    if found is None:
        raise GameError("bad_request", gettext("this game is not a challenge"))
    if found.bot_id != player.user_id:
        raise GameError("not_a_player", gettext("only the challenged bot may decline"))
    if found.status != Challenge.Status.PENDING or game.status != Game.Status.WAITING:
        raise GameError("bad_request", gettext("this challenge was already answered"))
    _end(game, found, Challenge.Status.DECLINED)
    return game


def expire_challenges(*, now: datetime.datetime | None = None) -> list[str]:
    """Mark accepted every pending challenge whose account took its seat (the game
    started: ``Game.reserved_for`` let it), and abort every one not answered in time (the
    clock watch calls this every second); the ids of the games aborted."""
    now = now or timezone.now()
    pending = Challenge.objects.filter(status=Challenge.Status.PENDING)
    pending.exclude(game__status=Game.Status.WAITING).exclude(
        game__status=Game.Status.ABORTED
    ).update(status=Challenge.Status.ACCEPTED)
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
        found.status = Challenge.Status.ACCEPTED
        found.save(update_fields=["status"])
        return False
    _end(game, found, Challenge.Status.EXPIRED)
    return True


def _end(game: Game, found: Challenge, status: str) -> None:
    found.status = status
    found.save(update_fields=["status"])
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    game.save()
    bot_id = found.bot_id
    on_commit(lambda: events.broadcast_state(game))
    on_commit(events.broadcast_lobby)
    on_commit(lambda: tell_bot(bot_id, {"type": "challenge_cancelled", "game_id": game.public_id}))


def bot_games(*, user_id: int) -> list[dict[str, Any]]:
    """What a bot is told when its socket opens: its pending challenges, then the games
    it sits in that are not over (``{"type": "game", "game_id", "kind", "size",
    "color", "status"}``)."""
    pending = Challenge.objects.filter(
        bot_id=user_id, status=Challenge.Status.PENDING, game__status=Game.Status.WAITING
    ).select_related("game")
    messages = [challenge_json(found) for found in pending]
    playing = Game.objects.filter(
        Q(black_user_id=user_id) | Q(white_user_id=user_id),
        status__in=[Game.Status.ACTIVE, Game.Status.SCORING],
    )
    for game in playing:
        color = "black" if game.black_user_id == user_id else "white"
        messages.append(
            {
                "type": "game",
                "game_id": game.public_id,
                "kind": game.kind,
                "size": game.size,
                "color": color,
                "status": game.status,
            }
        )
    return messages
