"""Fixtures shared by the whole suite.

Service-backed tests carry ``@pytest.mark.services``: they need the PostgreSQL and the
Redis named by ``DATABASE_URL`` and ``REDIS_URL``. With either variable unset they are
skipped, and the reason is printed in the summary (``-ra``); with both set they run, and
a server that does not answer makes them fail, never skip.

The suite leaves no process behind: every process it starts (daphne, its engine workers,
GNU Go, redis-server, Chromium ...) inherits a variable naming this run, and when the run
ends, any still alive after ``LINGER`` seconds fails it (they are listed, then killed).
An orphan is found too: its parent died, but its environment is what it was.

A run that seems stuck: ``kill -USR1 <pytest's pid>`` prints the stack of every asyncio
task not done (an event loop's teardown waits for all of them) and of every thread.
"""

from __future__ import annotations

import asyncio
import datetime
import faulthandler
import os
import secrets
import signal
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from multiprocessing import resource_tracker
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import SyncToAsync
from channels.layers import channel_layers
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import connection, connections
from django.db.migrations.executor import MigrationExecutor
from django.test import override_settings
from django.utils import timezone

import broadcast
from accounts.players import Player
from gameengine import analysis
from games.models import Game
from games.services.errors import GameError
from live import events
from pairing.lobby import LOBBY_GROUP
from tests.support.daphne import Daphne, environment, running
from tests.support.helpers import Events, Refused, stored
from tests.support.processes import fresh_database, until_none_carry

SERVICE_VARIABLES = ("DATABASE_URL", "REDIS_URL")

RUN_VARIABLE = "OTHELLO_GO_TEST_RUN"
"""Set to a token of this run in every process the suite starts (see the docstring)."""

LINGER = 10
"""Seconds the processes the suite started have to end after it has finished."""


def missing_service_variables() -> list[str]:
    """The service variables that are not set."""
    return [name for name in SERVICE_VARIABLES if not os.environ.get(name, "").strip()]


def pytest_configure(config: pytest.Config) -> None:
    # pytest replaces the warning filters that othello_site.settings sets for servers.
    config.addinivalue_line("filterwarnings", "ignore:No directory at:UserWarning")
    # A token of this run, not of any other on the machine: children inherit os.environ.
    os.environ[RUN_VARIABLE] = secrets.token_hex(8)
    # The servers the tests start play and review Go with GNU Go (gnu_go_unless_katago_asked).
    os.environ["KATAGO_COMMAND"] = ""
    # No game is mined for puzzles in the background but in the tests of mining, which
    # turn it on (settings.PUZZLE_MINING); the servers the tests start never mine.
    os.environ["PUZZLE_MINING"] = "off"
    settings.PUZZLE_MINING = False
    capture = config.pluginmanager.getplugin("capturemanager")
    signal.signal(signal.SIGUSR1, lambda *_: print_tasks_and_threads(capture))


def print_tasks_and_threads(capture: Any) -> None:
    """Print every asyncio task not done, in any loop, and every thread (SIGUSR1), past
    pytest's capture of the running test's output."""
    with capture.global_and_fixture_disabled() if capture else nullcontext():
        for task in list(asyncio.tasks._all_tasks):  # type: ignore[attr-defined]
            if not task.done():
                task.print_stack(file=sys.stderr)
        sys.stderr.flush()
        faulthandler.dump_traceback(all_threads=True)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Fail the run if a process it started is still alive ``LINGER`` seconds after it."""
    # multiprocessing's resource tracker of this process (a test that used a process pool
    # started it) reads until this process ends, and then ends too.
    ours = getattr(resource_tracker._resource_tracker, "_pid", None)
    left = until_none_carry(RUN_VARIABLE, os.environ[RUN_VARIABLE], LINGER, ours)
    if not left:
        return
    for process in left:
        with suppress(OSError):
            os.kill(process.pid, signal.SIGKILL)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line("")
        reporter.write_sep(
            "=", "processes started by the tests outlived them (killed now)", red=True
        )
        for process in left:
            reporter.write_line(f"{process.pid} {process.name}: {process.command}")


def pytest_runtest_setup(item: pytest.Item) -> None:
    missing = missing_service_variables()
    if item.get_closest_marker("services") and missing:
        pytest.skip(
            f"{' and '.join(missing)} not set: this test needs the PostgreSQL and Redis "
            "servers (.ci/run sets both)"
        )


@pytest.fixture(autouse=True, scope="session")
def quick_password_hashing(django_test_environment: None) -> Iterator[None]:
    """Passwords are hashed at one iteration in the tests (tests/support/hashers.py)."""
    with override_settings(PASSWORD_HASHERS=["tests.support.hashers.QuickPBKDF2PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> Iterator[None]:
    """Every test gets channel layers of its own.

    pytest-asyncio gives each test its own event loop, and a Redis channel layer
    keeps asyncio locks bound to the loop that first used them: one shared by two
    tests can fail with "bound to a different event loop".
    """
    channel_layers.backends = {}
    yield
    channel_layers.backends = {}


@pytest.fixture(autouse=True)
def no_kept_socket_connection() -> Iterator[None]:
    """Every test ends with the connection a socket's database thread keeps between calls
    (games.realtime.sockets) closed: the next test starts as a new process would, and the
    test database, dropped when the run ends, has no session left open that would refuse
    the drop. Those calls run in asgiref's one thread for thread-sensitive work."""
    yield
    SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=60)


@pytest.fixture(autouse=True)
def fresh_bot_seats() -> Iterator[None]:
    """Every test starts with no account remembered as a bot or not (games.selectors keeps
    that per process, safe in production where an id is never reused; a test database
    that rolls back reuses ids)."""
    from games import selectors

    selectors._seated.clear()
    yield
    selectors._seated.clear()


@pytest.fixture(autouse=True)
def fresh_lobby_told() -> Iterator[None]:
    """Every test starts with nothing told the lobby by this process (pairing.lobby keeps
    the counts of its last message, as a process does)."""
    from pairing import lobby

    lobby._told.clear()
    yield
    lobby._told.clear()


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> Iterator[None]:
    """Every test starts with no request counted against the HTTP limits (games.limits):
    the test client's requests all come from one address. The counts are in the cache
    (Redis with REDIS_URL set: a Redis that does not answer fails the tests that need it,
    not this fixture)."""
    with suppress(Exception):
        forget_cached()
    yield
    with suppress(Exception):
        forget_cached()


def forget_cached() -> None:
    """Delete the cache's own keys. Not ``cache.clear()``: on Redis that is FLUSHDB, which
    would also wipe the channel layer's groups in the same database, from under the
    sockets of any test (or other run) using that Redis at the time."""
    current = caches["default"]
    if isinstance(current, RedisCache):
        client = current._cache.get_client(None, write=True)
        keys = list(client.scan_iter(match=f"{current.key_prefix}:*"))
        if keys:
            client.delete(*keys)
    else:
        current.clear()


class FrozenClock:
    """Django's clock (``timezone.now``), standing still until the test moves it."""

    def __init__(self, start: datetime.datetime) -> None:
        self.now = start

    def __call__(self) -> datetime.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += datetime.timedelta(seconds=seconds)


@pytest.fixture
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> FrozenClock:
    """``timezone.now`` stands still (``advance(seconds)`` moves it): every timestamp the
    services write and every clock they charge follow it, and unit tests never sleep."""
    clock = FrozenClock(timezone.now())
    monkeypatch.setattr(timezone, "now", clock)
    return clock


@pytest.fixture
def black() -> Player:
    """A guest (a session, no account): give it the black seat."""
    return Player(session_key="black-session", user_id=None)


@pytest.fixture
def white() -> Player:
    """Another guest: give it the white seat."""
    return Player(session_key="white-session", user_id=None)


@pytest.fixture
def spectator() -> Player:
    """A third browser, seated nowhere."""
    return Player(session_key="spectator-session", user_id=None)


class RecordingLayer:
    """A channel layer that only records what is sent to groups, as the messages its
    sockets send (``move``, ``game``: see ``events.decoded``; a move and its automatic
    pass, sent as one event, are two): to the games' groups in ``sent``, to the lobby's
    in ``lobby``; and each event as it was sent, in ``events``."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.lobby: list[dict[str, Any]] = []
        self.events: list[tuple[str, dict[str, Any]]] = []

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.events.append((group, message))
        if group == LOBBY_GROUP:
            self.lobby.extend(events.decoded(message))
        else:
            self.sent.extend((group, decoded) for decoded in events.decoded(message))


@pytest.fixture
def recording_layer(monkeypatch: pytest.MonkeyPatch) -> RecordingLayer:
    """The layer every group event is sent to (broadcast), recording."""
    layer = RecordingLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    return layer


@pytest.fixture
def broadcasts(recording_layer: RecordingLayer) -> list[tuple[str, dict[str, Any]]]:
    """The (group, event) pairs sent to the games' groups (live.events), in order."""
    return recording_layer.sent


@pytest.fixture
def lobby_broadcasts(recording_layer: RecordingLayer) -> list[dict[str, Any]]:
    """The lobby's messages sent (pairing.lobby), in order."""
    return recording_layer.lobby


# The server tests' fixtures: players' refusals, fresh PostgreSQL databases, daphnes.


@pytest.fixture(autouse=True)
def gnu_go_unless_katago_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's Go is GNU Go's in every test, KataGo installed in .katago/ or not: a test
    of KataGo sets ``settings.KATAGO`` itself. (Not through pytest-django's ``settings``
    fixture: a test parametrised with an argument named ``settings`` would shadow it.)"""
    from django.conf import settings

    monkeypatch.setattr(settings, "KATAGO", None)


@pytest.fixture(autouse=True)
def no_kept_go_engine() -> Iterator[None]:
    """The review's Go engine, kept between positions (gameengine.analysis), ends with
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
def executor() -> Iterator[MigrationExecutor]:
    """Migrations to run by hand (a test of a data migration: migrate back, store rows as
    they were, migrate forward); the database is migrated to the latest again after."""
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()  # every app: pairing's tables depend on games'
    yield executor
    MigrationExecutor(connection).migrate(latest)


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
    ``overrides`` (see tests.support.daphne.environment), started at once and stopped after (a
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
