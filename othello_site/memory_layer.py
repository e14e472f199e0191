"""Channels' in-memory layer, the embedded default's (no ``REDIS_URL``), its sweep of
expired messages and memberships made once a second instead of at every call.

``channels.layers.InMemoryChannelLayer`` walks every channel's queue and every group's
members (``_clean_expired``) at each ``receive`` and ``group_send``: a move
delivered to its two players walked them three times, and a process with 1,000 open
sockets walked 1,000 queues for every message it delivered (docs/benchmarks.md). Here
the walk runs at most once every ``sweep_interval`` seconds; what it drops is the same,
up to that much later: a message left unread for ``expiry`` seconds (60) and its
channel's memberships, a membership older than ``group_expiry`` (a day).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from channels.layers import InMemoryChannelLayer


class SweepingInMemoryChannelLayer(InMemoryChannelLayer):
    def __init__(
        self,
        *args: Any,
        sweep_interval: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.sweep_interval = sweep_interval
        self._clock = clock
        self._next_sweep = float("-inf")

    def _clean_expired(self) -> None:
        now = self._clock()
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.sweep_interval
        super()._clean_expired()
