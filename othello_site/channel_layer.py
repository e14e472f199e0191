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
  membership older than that, so a socket open for a day would stop hearing its game).
  It looks once every ``watch_interval``, and every ``reconnect_interval`` while Redis
  has failed it, so that the groups are back a fraction of a second after Redis is: a
  broadcast from another process before that reaches nobody here;
- ``group_add`` and ``group_discard`` never raise for a Redis that is down: the
  membership is remembered and put back by the watcher once Redis answers;
- a command that fails on a connection error is tried once more on a fresh connection:
  after a restart every connection pooled before it is closed by Redis, and redis-py
  finds out only when it uses one, so the first ``group_send`` after the restart (a
  move's ``moved``) would otherwise be lost on a connection that no longer exists. The
  pool's idle connections are dropped first, so the second try connects anew;
- ``group_send`` never raises for a Redis that is down either: when the second try fails
  too, the message is lost (the move it tells of is stored), and the sockets are told
  to catch up as below;
- a cancelled ``receive`` ends: redis-py can swallow a cancellation that lands at the
  wrong moment of a blocking read (the BZPOPMIN channels-redis waits on; the same race as
  redis/redis-py#2028), and channels-redis then waits on the next BZPOPMIN, and the next:
  the socket's consumer never ended (measured: about one cancel in ten). A task that was
  asked to stop and is about to wait on Redis again raises CancelledError instead, so it
  ends at the latest when the BZPOPMIN it is in returns (``brpop_timeout``, 5 s);
- once memberships were put back after a loss, every socket of the process is sent
  ``{"type": "layer.rejoined"}``: a broadcast sent while Redis was down, or before the
  groups were back, reached nobody, so the consumer sends its client a fresh ``state``
  (``GameConsumer.layer_rejoined``), and nobody waits for a move that was stored.

Nothing is kept in memory but this process's own memberships, which die with it: the
database stays the truth.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

from channels_redis.core import RedisChannelLayer
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)

# Errors a fresh connection may cure. Not a timeout: Redis may have run that command.
CONNECTION_LOST = (RedisConnectionError, ConnectionError)


class ResilientRedisChannelLayer(RedisChannelLayer):  # type: ignore[misc]
    """RedisChannelLayer that outlives a Redis restart (see the module's docstring).

    ``watch_interval``: seconds between two looks at the sentinel while Redis answers;
    ``reconnect_interval``: between two looks while it does not (the groups are back
    within about that long after Redis answers again).
    """

    def __init__(
        self,
        *args: Any,
        watch_interval: float = 1.0,
        reconnect_interval: float = 0.1,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.watch_interval = watch_interval
        self.reconnect_interval = reconnect_interval
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

    async def _brpop_with_clean(self, index: int, channel: str, timeout: int) -> Any:
        # channels-redis's receive_single calls this in a loop until a message comes.
        _stop_if_cancelled()
        result = await super()._brpop_with_clean(index, channel, timeout)
        if result is None:  # nothing popped: nothing is lost by stopping
            _stop_if_cancelled()
        return result

    async def group_add(self, group: str, channel: str) -> None:
        self.memberships[group].add(channel)
        self._start_watching()
        try:
            await self._once_more_on_fresh_connections(super().group_add, group, channel)
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
            await self._once_more_on_fresh_connections(super().group_discard, group, channel)
        except UNREACHABLE as error:
            # What is left in Redis expires with the group (group_expiry); a message sent
            # to the closed socket's channel meanwhile expires unread.
            logger.warning("channel layer: group_discard %s failed (%s)", group, error)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        try:
            await self._once_more_on_fresh_connections(super().group_send, group, message)
        except UNREACHABLE as error:
            # Sent once Redis is back: every socket here gets layer.rejoined, then a state.
            logger.warning("channel layer: group_send to %s lost (%s)", group, error)
            self._stale = True

    async def _once_more_on_fresh_connections(
        self, command: Callable[..., Awaitable[None]], *args: Any
    ) -> None:
        """``command(*args)``; after a lost connection, once more on new connections."""
        try:
            await command(*args)
        except CONNECTION_LOST as error:
            logger.info("channel layer: %s; trying again on a fresh connection", error)
            await self._drop_idle_connections()
            await command(*args)

    async def _drop_idle_connections(self) -> None:
        """Close the connections waiting in the pools (a restarted Redis closed them all):
        the next command opens a new one. Those in use fail on their own."""
        for index in range(self.ring_size):
            with contextlib.suppress(*UNREACHABLE):
                await self.connection(index).connection_pool.disconnect(inuse_connections=False)

    def _start_watching(self) -> None:
        loop = asyncio.get_running_loop()
        if self._watcher is None or self._watcher.done() or self._watcher.get_loop() is not loop:
            self._watcher = loop.create_task(self._watch())

    async def _watch(self) -> None:
        failing = False
        while self.memberships:
            await asyncio.sleep(self.reconnect_interval if self._stale else self.watch_interval)
            try:
                await self._once_more_on_fresh_connections(self._repair)
                failing = False
            except UNREACHABLE as error:
                if not failing:
                    logger.warning("channel layer: Redis unreachable (%s)", error)
                failing = True
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


def _stop_if_cancelled() -> None:
    """Raise the CancelledError that the running task was sent and that was swallowed
    below (``Task.cancelling()`` still counts it)."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError
