"""Each daphne process's sending of the outbox (notifications.outbox): every ``TICK``
seconds, and at once after a commit that wrote deliveries (``services.delivery_due``), it
claims the due deliveries and sends them, batch after batch while batches come full.

The claiming and the sending run on threads of the loop's own (``SENDERS``: an SMTP server
or a push service that answers slowly holds a thread, never the event loop).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync
from django.db import close_old_connections

from notifications import channels, outbox, services

logger = logging.getLogger(__name__)

TICK = 1.0
SENDERS = 2
PROCESS = f"{socket.gethostname()}:{os.getpid()}"
"""Who holds a delivery while sending it (a lease's owner)."""


class OutboxLoop:
    """The loop of one process (``run`` forever)."""

    def __init__(self) -> None:
        self.executor = ThreadPoolExecutor(SENDERS, thread_name_prefix="outbox")
        self.wake = asyncio.Event()

    def nudge(self, **kwargs: Any) -> None:
        """``services.delivery_due``'s receiver (any thread): send at once."""
        loop = self.loop
        loop.call_soon_threadsafe(self.wake.set)

    async def run(self) -> None:
        self.loop = asyncio.get_running_loop()
        services.delivery_due.connect(self.nudge, weak=False)
        while True:
            try:
                # Two batches at once, each claimed apart (a slow server holds one thread);
                # while a batch comes full there may be more due now.
                while outbox.BATCH in await asyncio.gather(*(self._on_thread() for _ in "ab")):
                    pass
            except Exception:
                logger.exception("outbox")  # the database is down, say: next tick
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), timeout=TICK)

    async def _on_thread(self) -> int:
        def closing() -> int:
            close_old_connections()
            try:
                return outbox.deliver(process=PROCESS, send=channels.send)
            finally:
                close_old_connections()

        run = SyncToAsync(closing, thread_sensitive=False, executor=self.executor)
        sent: int = await run()
        return sent


def start_when_serving() -> None:
    """Start the loop on daphne's event loop once its reactor runs (nothing happens in a
    process that daphne does not serve)."""
    if "daphne.server" not in sys.modules:
        return
    from twisted.internet import reactor

    def start() -> None:
        asyncio.get_event_loop().create_task(OutboxLoop().run())

    reactor.callWhenRunning(start)  # type: ignore[attr-defined]
