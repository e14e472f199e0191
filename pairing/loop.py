"""The pairing loop: every ``TICK`` seconds each daphne process tries to run a wave, and
``AGAIN`` seconds after a wave that made games (a burst is paired wave after wave).

Only one process at a time runs one (``services.wave_lock``: on PostgreSQL an advisory
lock, which the server releases if the holder dies, so another process takes over at its
next tick); the others find it held and wait for the next tick. Every process sends the
lobby its message when its pools' counts are not what the process last told it (every
tick), or its count of games being played (every ``RECOUNT`` seconds: a game leaves that
count ten minutes after its last move, with no event to say so): at most every ``TICK``
seconds, so a seek, a cancel or a closed socket reaches every home page within a second
without each of them broadcasting (a thousand seeks in a second would be a thousand
broadcasts to a thousand sockets). A lobby message held back is built when it goes, not
when the lobby changed, so it never undoes a newer one sent meanwhile (a game created on
a page).

Like games.workers.clockwatch, the database calls run on a thread of the loop's own, and what
they broadcast is sent from the event loop once they return.
"""

from __future__ import annotations

import asyncio
import logging
import math
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from asgiref.sync import SyncToAsync
from channels.layers import get_channel_layer
from django.db import close_old_connections

import broadcast
from games.workers import clockwatch
from pairing import consumers, lobby, services

logger = logging.getLogger(__name__)

Result = TypeVar("Result")

TICK = 0.5
AGAIN = 0.05  # seconds before the next wave after one that made games
RECOUNT = 2.0  # seconds between two counts of the games being played


class PairingLoop:
    """The loop of one process (``run`` forever)."""

    def __init__(self) -> None:
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="pairing")
        self.recounted = -math.inf  # when the games being played were last counted
        self.lobby_due = False  # the lobby changed since its last message
        self.lobby_sent = -math.inf  # when the last one went (time.monotonic())

    async def run(self) -> None:
        while True:
            made = 0
            try:
                made = await self.tick()
            except Exception:
                logger.exception("pairing loop")  # the database is down, say: next tick
            # A wave that made games may have left seeks that came meanwhile: the next
            # one at once (well, after AGAIN), so that a burst is paired wave after wave.
            await asyncio.sleep(AGAIN if made else TICK)

    async def tick(self) -> int:
        """Forget the sockets that closed while the database was down, run a wave if no
        other process runs one, tell the lobby its counts if they are not what it was told,
        and send what it broadcast. How many games it made."""
        made, kept, lobby_changed = await self._on_thread(self._wave)
        layer = get_channel_layer()
        for group, event in kept:
            await layer.group_send(group, event)
        self.lobby_due |= lobby_changed
        # At most one lobby message every TICK, however fast the waves follow each other
        # (each goes to every home page); one held back goes at the next tick.
        if self.lobby_due and time.monotonic() - self.lobby_sent >= TICK:
            await layer.group_send(lobby.LOBBY_GROUP, await self._on_thread(lobby.lobby_event))
            self.lobby_due, self.lobby_sent = False, time.monotonic()
        return made

    async def _on_thread(self, call: Callable[[], Result]) -> Result:
        """``call()`` on the loop's database thread, its connections closed around it."""

        def closing() -> Result:
            close_old_connections()
            try:
                return call()
            finally:
                close_old_connections()

        run = SyncToAsync(closing, thread_sensitive=False, executor=self.executor)
        result: Result = await run()
        return result

    def _wave(self) -> tuple[int, list[tuple[str, dict[str, Any]]], bool]:
        with broadcast.outbox() as kept, lobby.lobby_noted() as lobby_changed:
            for channel_name in list(consumers.closed_later()):
                services.socket_closed(channel_name=channel_name)
                consumers.closed_later().discard(channel_name)
            started, cpu = time.perf_counter(), time.thread_time()
            made = services.wave(process=clockwatch.PROCESS_NAME)
            if made:
                logger.info(
                    "pairing wave: %d games in %.0f ms (%.0f ms CPU)",
                    len(made),
                    (time.perf_counter() - started) * 1000,
                    (time.thread_time() - cpu) * 1000,
                )
            recount = time.monotonic() - self.recounted >= RECOUNT
            if recount:
                self.recounted = time.monotonic()
            if lobby.stale_counts(playing=recount):
                lobby.broadcast_lobby()  # noted: sent by ``tick``
        return len(made or ()), kept, bool(lobby_changed)


def start_when_serving() -> None:
    """Start the loop on daphne's event loop once its reactor runs (nothing happens in a
    process that daphne does not serve)."""
    if "daphne.server" not in sys.modules:
        return
    from twisted.internet import reactor

    def start() -> None:
        asyncio.get_event_loop().create_task(PairingLoop().run())

    reactor.callWhenRunning(start)  # type: ignore[attr-defined]
