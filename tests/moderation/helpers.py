"""What the moderation tests share: accounts, staff, a game between two accounts with a
chat line, a report made through the service."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from accounts.players import Player
from gamerules.clock import TimeControl
from games.models import ChatMessage, Game
from games.services import lobby, table
from moderation import services
from moderation.models import Report

PASSWORD = "secret-pass-1"


def account(name: str, **fields: Any) -> AbstractBaseUser:
    return get_user_model().objects.create_user(name, password=PASSWORD, **fields)


def staff(name: str = "mod") -> AbstractBaseUser:
    return account(name, is_staff=True)


def player(user: AbstractBaseUser) -> Player:
    return Player(user_id=user.pk, username=user.get_username())


def logged_in(user: AbstractBaseUser) -> Client:
    client = Client()
    client.force_login(user)
    return client


CLOCK = TimeControl.fischer(main_time=300, increment=5)


def waiting_game(
    creator: AbstractBaseUser, *, rated: bool = False, time_control: TimeControl = CLOCK
) -> Game:
    """A game of 8x8 Othello with a clock (``CLOCK`` unless given) that ``creator``
    (Black) made, waiting."""
    return lobby.create_game(
        player=player(creator),
        new=lobby.NewGame(
            kind="othello", size=8, color="black", name="", time_control=time_control, rated=rated
        ),
    )


def game_between(black: AbstractBaseUser, white: AbstractBaseUser, *, rated: bool = False) -> Game:
    """An active game of 8x8 Othello with a clock, ``black`` against ``white``."""
    made = waiting_game(black, rated=rated)
    return lobby.join_game(player=player(white), game_id=made.public_id, name="")


def said(user: AbstractBaseUser, game: Game, text: str = "you are bad") -> ChatMessage:
    """A chat line of ``user`` in ``game``."""
    return table.say(player=player(user), game_id=game.public_id, name="", text=text)


def reported(
    reporter: AbstractBaseUser, account: AbstractBaseUser, reason: str = "abuse", **fields: Any
) -> Report:
    return services.report(
        reporter_id=reporter.pk, username=account.get_username(), reason=reason, **fields
    ).report
