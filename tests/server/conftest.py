"""Fixtures of the server tests (the players and ``broadcasts`` are in tests/conftest.py)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest

from games.engine import analysis
from games.models import Game
from games.services import GameError
from tests.daphne import Daphne, environment, running
from tests.processes import fresh_database
from tests.server.helpers import Events, Refused, stored


@pytest.fixture(autouse=True)
def no_kept_go_engine() -> Iterator[None]:
    """The review's Go engine, kept between positions (games.engine.analysis), ends with
    the test that started it."""
    yield
    analysis.close()


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


@pytest.fixture
def database_url() -> Iterator[str]:
    """A fresh, migrated PostgreSQL database on DATABASE_URL's server, dropped afterwards."""
    with fresh_database(os.environ["DATABASE_URL"], "othello_daphne") as url:
        yield url


Servers = Callable[[Mapping[str, str | None]], AbstractContextManager[list[Daphne]]]
"""The ``daphnes`` fixture: ``with daphnes(overrides) as [first, second]``."""


@pytest.fixture
def daphnes(tmp_path: Path) -> Servers:
    """``daphnes(overrides)``: two daphne processes under the environment with
    ``overrides`` (see tests.daphne.environment), started at once and stopped after (a
    test may kill one). Their logs are in the test's tmp_path."""

    @contextmanager
    def two(overrides: Mapping[str, str | None]) -> Iterator[list[Daphne]]:
        env = environment(overrides)
        servers = [
            Daphne(env, tmp_path / f"daphne-{number}.log", start_timeout=20, stop_timeout=20)
            for number in (1, 2)
        ]
        with running(servers):
            yield servers

    return two
