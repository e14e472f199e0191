"""channels-redis, made to survive a Redis restart without any socket noticing.

Redis holds the groups (who watches which game) and each process's inbox. Without
persistence a restarted Redis has forgotten every group: the sockets stay open, the moves
are stored, and their broadcasts reach nobody. channels-redis does not notice, and its
``receive`` raises on the first connection error, which kills every consumer of the
process (close 1011). This layer adds what is missing, in the process that owns the
sockets:

- ``receive`` waits and tries again while Redis cannot be reached, instead of raising;
- the process remembers the groups its sockets joined, and a watcher puts them back:
  when a sentinel key of its own has vanished from Redis (a restart or a flush), when a
  ``group_add`` failed, and every half ``group_expiry`` (channels-redis drops a
  membership older than that, so a socket open for a day would stop hearing its game);
- ``group_add`` and ``group_discard`` never raise for a Redis that is down: the
  membership is remembered and put back by the watcher once Redis answers;
- ``group_send`` never raises for a Redis that is down either: the message is lost (the
  move it tells of is stored), and the sockets are told to catch up as below;
- once memberships were put back after a loss, every socket of the process is sent
  ``{"type": "layer.rejoined"}``: a broadcast sent while Redis was down, or before the
  groups were back, reached nobody, so the consumer sends its client a fresh ``state``
  (``GameConsumer.layer_rejoined``), and nobody waits for a move that was stored.

Nothing is kept in memory but this process's own memberships, which die with it: the
database stays the truth.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from typing import Any

from channels_redis.core import RedisChannelLayer
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)


class ResilientRedisChannelLayer(RedisChannelLayer):  # type: ignore[misc]
    """RedisChannelLayer that outlives a Redis restart (see the module's docstring).

    ``watch_interval``: seconds between two looks at the sentinel (a restart is repaired
    within about that long after Redis answers again).
    """

    def __init__(self, *args: Any, watch_interval: float = 1.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.watch_interval = watch_interval
        self.memberships: defaultdict[str, set[str]] = defaultdict(set)
        self._sentinel = f"{self.prefix}:alive:{self.client_prefix}"
        self._watcher: asyncio.Task[None] | None = None
        self._stale = False  # a membership may be missing from Redis
        self._sentinel_set = False
        self._refreshed = time.monotonic()

    async def receive(self, channel: str) -> dict[str, Any]:
        delay = 0.1
        while True:
            try:
                message: dict[str, Any] = await super().receive(channel)
                return message
            except UNREACHABLE as error:
                logger.warning("channel layer: Redis unreachable (%s); retrying", error)
                self._stale = True
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.watch_interval)

    async def group_add(self, group: str, channel: str) -> None:
        self.memberships[group].add(channel)
        self._start_watching()
        try:
            await super().group_add(group, channel)
        except UNREACHABLE as error:
            logger.warning("channel layer: group_add %s postponed (%s)", group, error)
            self._stale = True

    async def group_discard(self, group: str, channel: str) -> None:
        members = self.memberships.get(group)
        if members is not None:
            members.discard(channel)
            if not members:
                del self.memberships[group]
        try:
            await super().group_discard(group, channel)
        except UNREACHABLE as error:
            # What is left in Redis expires with the group (group_expiry); a message sent
            # to the closed socket's channel meanwhile expires unread.
            logger.warning("channel layer: group_discard %s failed (%s)", group, error)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        try:
            await super().group_send(group, message)
        except UNREACHABLE as error:
            # Sent once Redis is back: every socket here gets layer.rejoined, then a state.
            logger.warning("channel layer: group_send to %s lost (%s)", group, error)
            self._stale = True

    def _start_watching(self) -> None:
        loop = asyncio.get_running_loop()
        if self._watcher is None or self._watcher.done() or self._watcher.get_loop() is not loop:
            self._watcher = loop.create_task(self._watch())

    async def _watch(self) -> None:
        while self.memberships:
            await asyncio.sleep(self.watch_interval)
            try:
                await self._repair()
            except UNREACHABLE as error:
                logger.warning("channel layer: Redis unreachable (%s)", error)
                self._stale = True

    async def _repair(self) -> None:
        """Put this process's memberships back when Redis may have lost them."""
        lost = False
        if self._sentinel_set:
            for index in range(self.ring_size):
                lost |= not await self.connection(index).exists(self._sentinel)
        due = time.monotonic() - self._refreshed > self.group_expiry / 2
        if self._sentinel_set and not (lost or self._stale or due):
            return
        if lost:
            logger.warning("channel layer: Redis lost this process's groups; joining again")
        tell = lost or self._stale
        for group, channels in list(self.memberships.items()):
            for channel in list(channels):
                await super().group_add(group, channel)
        for index in range(self.ring_size):
            await self.connection(index).set(self._sentinel, 1)
        self._sentinel_set = True
        self._stale = False
        self._refreshed = time.monotonic()
        if tell:
            for channel in {
                channel for members in self.memberships.values() for channel in members
            }:
                await self.send(channel, {"type": "layer.rejoined"})
