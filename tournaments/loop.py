"""The tournaments' loop: every ``TICK`` seconds each daphne process tries a turn
(``services.tick``), which one process at a time runs (``services.loop_lock``: on
PostgreSQL an advisory lock, released by the server if its holder dies): the
tournaments due started, the arenas' waves, the rounds paired when the round before has
ended, the tournaments finished. As pairing's loop, the database calls run on a thread of
the loop's own, and what they broadcast is sent from the event loop once they return.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from channels.layers import get_channel_layer
from django.db import close_old_connections

import broadcast
from tournaments import services

logger = logging.getLogger(__name__)

TICK = 2.0
"""Seconds between two turns: an arena pairs its free players "every few seconds"."""


class TournamentLoop:
    """The loop of one process (``run`` forever)."""

    def __init__(self) -> None:
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="tournaments")

    async def run(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:
                logger.exception("tournament loop")  # the database is down, say: next tick
            await asyncio.sleep(TICK)

    async def tick(self) -> int | None:
        """One turn (``services.tick``) on the loop's thread, then what it broadcast."""

        def turn() -> tuple[int | None, list[tuple[str, dict[str, object]]]]:
            close_old_connections()
            try:
                with broadcast.outbox() as kept:
                    made = services.tick()
                    # This process's games' ends, whichever process pairs.
                    services.send_later_standings()
                    return made, kept
            finally:
                close_old_connections()

        made, kept = await SyncToAsync(turn, thread_sensitive=False, executor=self.executor)()
        layer = get_channel_layer()
        for group, event in kept:
            await layer.group_send(group, event)
        return made


def start_when_serving() -> None:
    """Start the loop on daphne's event loop once its reactor runs (nothing happens in a
    process that daphne does not serve)."""
    if "daphne.server" not in sys.modules:
        return
    from twisted.internet import reactor

    def start() -> None:
        asyncio.get_event_loop().create_task(TournamentLoop().run())

    reactor.callWhenRunning(start)  # type: ignore[attr-defined]
