"""Two processes at once, as the server tests play them: threads, each with a database
connection of its own (closed when it ends), so that locks and transactions meet as they
would between two daphne processes."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from django.db import connection, connections

from games.services.errors import GameError


def at_once(*calls: Callable[..., Any], timeout: float = 60, **arguments: Any) -> list[Any]:
    """Run ``calls`` together (each in a thread of its own, all released by a barrier),
    each with ``arguments``: in call order, each one's result, or its GameError's code, or
    the ``repr`` of another exception (e.g. "database is locked"), shown by the assertion
    that compares them."""
    start = threading.Barrier(len(calls))
    outcomes: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[..., Any]) -> None:
        try:
            start.wait()
            outcomes[index] = call(**arguments)
        except GameError as error:
            outcomes[index] = error.code
        except Exception as error:
            outcomes[index] = repr(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    assert not any(thread.is_alive() for thread in threads), f"a call ran over {timeout} s"
    return outcomes


@contextmanager
def held_elsewhere(lock: Callable[[], AbstractContextManager[bool]]) -> Iterator[None]:
    """While the body runs, another thread (another connection: another process) holds
    ``lock()``, which it must get; released when the body ends."""
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with lock() as held:
                assert held
                holding.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert holding.wait(10), "the other thread did not get the lock"
    try:
        yield
    finally:
        release.set()
        holder.join()
