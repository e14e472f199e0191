"""Every server process watches the clocks and writes its heartbeat.

A task on each daphne process's event loop, started as soon as daphne serves
(``start_when_serving``), that every ``TICK`` seconds:

- flags every active game whose deadline has passed (``clock.flag_due``, locked
  transactions of up to 50 games: processes racing to flag one game store one
  ``timeout`` move; a first move not made in time aborts the game instead), so a game
  ends within a second of its deadline whether or not anyone is connected;
- writes this process's heartbeat (``presence.heartbeat``), every ``HEARTBEAT`` seconds;
- runs what the apps above registered (``every_second``: the expiry of the challenges
  not answered in time), every second;
- sweeps the sockets of processes whose heartbeat stopped (killed): their seats go
  offline (``presence.sweep``), every ``SWEEP`` seconds; and then ends the games against
  the computer whose person has been gone for a day (``presence.end_deserted``);
- gives the computer's turns to this process's engines (games.workers.engines), which is how
  a move the computer owes is made even after the process thinking it was killed, then
  the explores its requests queued (a tick at once when one is queued or an engine frees
  up for them), then the reviews.

On start it registers the process and, when no process had written a heartbeat for
``DOWNTIME_GAP`` seconds (the whole site was down, nobody watched), gives every running
clock the time it was down (``clock.credit_downtime``): a restart never decides a game.

Why a task in every process polling an index of deadlines, rather than a separate
worker or a task sleeping until the earliest deadline: nothing more to run (the README's
one command serves everything); any process may be killed and the others still flag;
and four cheap indexed queries a second cost less than telling every process about
every new deadline (each move sets one) to sleep until the earliest. The database
calls run on a thread of the watch's own, so a busy consumer thread never delays a flag.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import os
import secrets
import socket
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import close_old_connections

from games import signals
from games.services import clock, presence
from games.workers.engines import EnginePool, IdleWork

logger = logging.getLogger(__name__)

PROCESS_NAME = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
"""This process, as the heartbeats and the sockets' presence name it."""

TICK = 0.25
HEARTBEAT = 1.0
SWEEP = 2.0
DOWNTIME_GAP = datetime.timedelta(seconds=5)

Result = TypeVar("Result")

_disconnected: set[str] = set()
_every_second: list[Callable[[], object]] = []


def every_second(task: Callable[[], object]) -> None:
    """Run ``task()`` (a database function) every second, with the heartbeat: how an app
    above this one (challenges: a challenge not answered in time is aborted) gets its periodic
    work done without the games app importing it."""
    if task not in _every_second:
        _every_second.append(task)


def disconnect_later(channel_name: str) -> None:
    """A seated player's socket closed while the database could not be reached: forget it
    once the database is back (or the seat would stay online)."""
    _disconnected.add(channel_name)


class ClockWatch:
    """The watch of one process (``run`` forever)."""

    def __init__(self, process: str = PROCESS_NAME, idle_work: Sequence[IdleWork] = ()) -> None:
        self.process = process
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="clockwatch")
        self.wake = asyncio.Event()
        self.engines = EnginePool(process, wake=self.wake.set, idle_work=idle_work)

    async def run(self) -> None:
        """Credit the site's downtime, then watch until cancelled."""
        loop = asyncio.get_running_loop()
        # The explores of this process's requests go to its engines from now on.
        self.engines.serve()
        while True:
            try:
                credited = await self._database(
                    clock.credit_downtime, process=self.process, gap=DOWNTIME_GAP
                )
                break
            except Exception:
                logger.exception("clock watch: could not register this process; retrying")
                await asyncio.sleep(1)
        if credited:
            logger.warning("the site was down: %d running clocks credited", len(credited))
        beat = sweep = loop.time()

        def wake(**kwargs: Any) -> None:
            loop.call_soon_threadsafe(self.wake.set)

        signals.computer_owes.connect(wake, weak=False)
        while True:
            try:
                await self.tick()
                await self.engines.tick(self._database)
                if loop.time() - beat >= HEARTBEAT:
                    beat = loop.time()
                    await self._database(presence.heartbeat, process=self.process)
                    for task in _every_second:
                        await self._database(task)
                if loop.time() - sweep >= SWEEP:
                    sweep = loop.time()
                    await self._database(presence.sweep, timeout=settings.PROCESS_TIMEOUT)
                    while await self._database(presence.end_deserted):
                        pass
            except Exception:
                # The database is unreachable, say: the watch goes on once it is back.
                logger.exception("clock watch")
            # The next tick, or at once when this process left the computer a turn.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), TICK)
            self.wake.clear()

    async def tick(self) -> None:
        """Flag every game whose clock has run out; forget the sockets that closed while
        the database was down."""
        while await self._database(clock.flag_due):
            pass
        for channel_name in list(_disconnected):
            await self._database(presence.disconnected, channel_name=channel_name)
            _disconnected.discard(channel_name)

    async def _database(self, call: Callable[..., Result], *args: Any, **kwargs: Any) -> Result:
        def with_connections() -> Result:
            close_old_connections()
            try:
                return call(*args, **kwargs)
            finally:
                close_old_connections()

        # SyncToAsync (not a bare thread): a broadcast the call schedules runs on this
        # process's event loop, where the channel layer lives.
        run = SyncToAsync(with_connections, thread_sensitive=False, executor=self.executor)
        result: Result = await run()
        return result


def start_when_serving(idle_work: Sequence[IdleWork] = ()) -> None:
    """Start the watch on daphne's event loop once its reactor runs (nothing happens in a
    process that daphne does not serve: the tests' in-process ASGI calls, commands); its
    engines do ``idle_work`` when nothing more urgent waits."""
    if "daphne.server" not in sys.modules:
        return
    from twisted.internet import reactor

    def start() -> None:
        asyncio.get_event_loop().create_task(ClockWatch(idle_work=idle_work).run())

    reactor.callWhenRunning(start)  # type: ignore[attr-defined]
