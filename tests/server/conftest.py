"""Fixtures of the server tests (the players and ``broadcasts`` are in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.models import Game
from games.services import GameError
from tests.server.helpers import Events, Refused, stored


@pytest.fixture
def refused(broadcasts: Events, django_capture_on_commit_callbacks: Any) -> Refused:
    """``refused(code, service, game, **arguments)``: the service answers ``code``; the game
    (every stored field: position, marking, acceptances ...) and its moves (one per ply)
    are unchanged, and nothing is broadcast, even after the commit."""

    def check(code: str, service: Callable[..., Any], game: Game, **arguments: Any) -> None:
        before = stored(game)
        with django_capture_on_commit_callbacks(execute=True), pytest.raises(GameError) as caught:
            service(game_id=game.public_id, **arguments)
        assert caught.value.code == code, caught.value
        after = stored(game)
        assert after == before
        fields, moves = after
        assert moves == fields["ply"]
        assert broadcasts == []

    return check
