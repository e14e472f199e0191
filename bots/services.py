"""The bots' use cases: tokens, turning into a bot, the bots' desk of the challenges (an
online check, telling the bridge; the challenges themselves are the challenges app's).

As games.services: one transaction each, the game row locked through ``games.services.lock.locked``,
broadcasts after the commit.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from accounts.selectors import is_bot, username_of
from accounts.services import make_bot
from bots import accounts
from bots.models import ApiToken, BotAccount, BotConnection
from challenges.models import Challenge
from challenges.services import BotDesk
from games.models import Game
from games.services.after_commit import on_commit
from games.services.errors import GameError

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


def check_online(bot_id: int) -> None:
    """The bots' desk's check: raises GameError("bad_request") when the bot is offline."""
    if bot_id not in accounts.online_bot_ids():
        name = username_of(bot_id)
        raise GameError("bad_request", gettext("%(name)s is not online") % {"name": name})


def challenge_made(challenge: Challenge) -> None:
    """The bots' desk: the bot hears of its new challenge once it is stored."""
    message = challenge_json(challenge)
    bot_id = challenge.challenged_id
    on_commit(lambda: tell_bot(bot_id, message))


def challenge_ended(challenge: Challenge) -> None:
    """The bots' desk: the bot hears that its challenge was declined or not answered."""
    message = {"type": "challenge_cancelled", "game_id": challenge.game.public_id}
    bot_id = challenge.challenged_id
    on_commit(lambda: tell_bot(bot_id, message))


DESK = BotDesk(
    seconds=CHALLENGE_SECONDS,
    check=check_online,
    made=challenge_made,
    ended=challenge_ended,
)
"""How the challenges app answers a challenge to a bot (registered in ``BotsConfig``)."""


def bot_games(*, user_id: int) -> list[dict[str, Any]]:
    """What a bot is told when its socket opens: its pending challenges, then the games
    it sits in that are not over (``{"type": "game", "game_id", "kind", "size",
    "color", "status"}``)."""
    pending = Challenge.objects.filter(
        challenged_id=user_id, status=Challenge.Status.PENDING, game__status=Game.Status.WAITING
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
