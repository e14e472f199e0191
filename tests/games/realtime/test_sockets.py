"""A socket's database calls (``games.realtime.sockets.database``): the database thread
keeps its connection from one call to the next, checks it before a call only after it sat
unused, and closes it when a call left it unusable.

The kept connection matters on PostgreSQL, where Django would otherwise give it back to
the pool after every call (SQLite's connections are kept by the settings); the tests of
the health check and of a broken connection need PostgreSQL (SQLite has no health check,
and takes any connection as usable) and are skipped on SQLite: the PostgreSQL run of
``.ci/run`` runs them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import OperationalError, connection, connections
from django.db.backends.signals import connection_created

from games.realtime import sockets
from games.services.errors import GameError

pytestmark = pytest.mark.django_db(transaction=True)

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL")


class Clock:
    """``time.monotonic`` for the module, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(sockets, "time", clock)
    return clock


@pytest.fixture
def connects() -> Iterator[list[object]]:
    """Every connection Django opens (or takes from the pool) meanwhile."""
    opened: list[object] = []

    def record(sender: Any, connection: Any, **kwargs: Any) -> None:
        opened.append(connection)

    connection_created.connect(record)
    yield opened
    connection_created.disconnect(record)


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every health check Django runs meanwhile (``is_usable``)."""
    checked: list[object] = []
    wrapper = type(connections["default"])
    is_usable = wrapper.is_usable

    def counted(self: Any) -> bool:
        checked.append(self)
        return is_usable(self)

    monkeypatch.setattr(wrapper, "is_usable", counted)
    return checked


def backend_pid() -> int:
    """The id of the database's process serving this thread's connection (a query)."""
    query = "SELECT pg_backend_pid()" if connection.vendor == "postgresql" else "SELECT 1"
    with connection.cursor() as cursor:
        cursor.execute(query)
        return cursor.fetchone()[0]


async def test_calls_that_follow_each_other_share_one_connection_unchecked(
    clock: Clock, connects: list[object], checks: list[object]
) -> None:
    pids = []
    for _ in range(3):
        pids.append(await sockets.database(backend_pid))
        clock.now += 0.2

    assert len(set(pids)) == 1
    assert len(connects) <= 1  # the first call's, unless the thread already had one
    assert checks == []


@on_postgresql
async def test_a_connection_that_sat_unused_is_checked_before_the_next_call(
    clock: Clock, checks: list[object]
) -> None:
    await sockets.database(backend_pid)
    clock.now += 0.5
    await sockets.database(backend_pid)
    assert checks == []

    clock.now += sockets.CHECK_AFTER_IDLE + 1
    await sockets.database(backend_pid)
    assert len(checks) == 1


@on_postgresql
async def test_a_connection_that_died_while_unused_is_replaced_unseen(clock: Clock) -> None:
    first = await sockets.database(backend_pid)
    database = connection.settings_dict
    with psycopg.connect(
        dbname=database["NAME"],
        user=database["USER"],
        password=database["PASSWORD"],
        host=database["HOST"],
        port=database["PORT"],
        autocommit=True,
    ) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [first])

    clock.now += sockets.CHECK_AFTER_IDLE + 1
    second = await sockets.database(backend_pid)

    assert second != first


@on_postgresql
async def test_a_connection_left_unusable_by_a_call_is_not_kept(connects: list[object]) -> None:
    await sockets.database(backend_pid)
    connects.clear()

    def broken() -> None:
        connection.ensure_connection()
        connection.errors_occurred = True  # as Django's wrapper marks it after a failure
        connection.connection.close()  # the server went away meanwhile
        raise OperationalError("server closed the connection unexpectedly")

    with pytest.raises(GameError) as refused:
        await sockets.database(broken)
    assert refused.value.code == "unavailable"

    await sockets.database(backend_pid)
    assert len(connects) == 1  # a new one: the broken one was closed, not kept
