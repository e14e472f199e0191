"""Helpers shared by the server tests (fixtures are in conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.models import Game

Events = list[tuple[str, dict[str, Any]]]
"""The (group, event) pairs sent to the games' groups: the ``broadcasts`` fixture."""

Refused = Callable[..., None]
"""The ``refused`` fixture: ``refused(code, service, game, **arguments)``."""


def reload(game: Game) -> Game:
    """``game`` as the database holds it now."""
    return Game.objects.get(pk=game.pk)


def stored(game: Game) -> tuple[dict[str, Any], int]:
    """Every field the database holds of ``game``, and how many moves it has."""
    return Game.objects.filter(pk=game.pk).values().get(), game.moves.count()


def verified_account(username: str, email: str = "", **fields: Any) -> Any:
    """A new account (``User.objects.create_user``) whose ``email``, if any, is verified:
    the notifications mail it."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username, email=email, **fields)
    if email:
        verify_address(user)
    return user


def verify_address(user: Any) -> Any:
    """``user``'s e-mail address (``user.email``), verified, as following the link mailed
    at sign-up makes it: the notifications e-mail only a verified address."""
    from allauth.account.models import EmailAddress

    address, _ = EmailAddress.objects.update_or_create(
        user=user, email=user.email.lower(), defaults={"verified": True, "primary": True}
    )
    return address
