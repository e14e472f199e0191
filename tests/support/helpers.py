"""Helpers shared by the server tests (fixtures are in conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.models import Game

Events = list[tuple[str, dict[str, Any]]]
"""The (group, event) pairs that games.realtime.events sent: the ``broadcasts`` fixture."""

Refused = Callable[..., None]
"""The ``refused`` fixture: ``refused(code, service, game, **arguments)``."""


def reload(game: Game) -> Game:
    """``game`` as the database holds it now."""
    return Game.objects.get(pk=game.pk)


def stored(game: Game) -> tuple[dict[str, Any], int]:
    """Every field the database holds of ``game``, and how many moves it has."""
    return Game.objects.filter(pk=game.pk).values().get(), game.moves.count()
