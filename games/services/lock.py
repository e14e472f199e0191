"""The game's row locked for the use case's transaction."""

from __future__ import annotations

from django.utils.translation import gettext

from games.models import Game
from games.services.errors import GameError


def locked(game_id: str) -> Game:
    """The game ``game_id``, its row locked until the transaction ends. Raises
    GameError("bad_request") for an id that is no game."""
    if not isinstance(game_id, str):
        raise GameError("bad_request", gettext("game id must be a string"))
    try:
        return Game.objects.select_for_update().get(public_id=game_id)
    except Game.DoesNotExist:
        raise GameError(
            "bad_request", gettext("there is no game %(game_id)s") % {"game_id": repr(game_id)}
        ) from None
