"""What the site's websocket consumers share (the game's, the lobby's, the bots'
stream): a text frame decoded into one message, a call into the database from the event
loop, and a consumer whose dispatch calls its handler at once."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from asgiref.sync import SyncToAsync
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from django.db import InterfaceError, OperationalError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils.translation import gettext

import broadcast
from games.services.errors import GameError

MAX_MESSAGE_BYTES = 4096
CLOSE_TRY_AGAIN_LATER = 1013
"""The close code of a socket opened while the database cannot be reached."""


def parse_message(text: str, types: tuple[str, ...]) -> dict[str, Any]:
    """The JSON object in one text frame, its `type` one of ``types`` (the socket's own).

    Raises GameError("bad_request") for a frame over 4 KiB, anything but a JSON
    object (nesting too deep for the decoder included), or an unknown type. The fields
    of each type (`ply`, `point`, `marking`) are checked by the service it goes to,
    before anything is read or written.
    """
    # surrogatepass: a lone surrogate (which no UTF-8 frame carries, but a test client
    # can pass) is measured rather than raising.
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise GameError(
            "bad_request",
            gettext("messages are limited to %(max_message_bytes)s bytes")
            % {"max_message_bytes": MAX_MESSAGE_BYTES},
        )
    try:
        message = json.loads(text)
    except ValueError:
        raise GameError("bad_request", gettext("the message is not JSON")) from None
    except RecursionError:
        raise GameError("bad_request", gettext("the message is nested too deeply")) from None
    if not isinstance(message, dict):
        raise GameError("bad_request", gettext("the message must be a JSON object"))
    if message.get("type") not in types:
        raise GameError(
            "bad_request", gettext("type must be one of %(types)s") % {"types": ", ".join(types)}
        )
    return message


_Result = TypeVar("_Result")

CHECK_AFTER_IDLE = 1.0
"""Seconds a kept connection may sit unused before its next call checks it first."""

_thread = threading.local()


def _open_connections() -> list[BaseDatabaseWrapper]:
    """This thread's database connections that are open."""
    return [c for c in connections.all(initialized_only=True) if c.connection is not None]


@contextmanager
def connection_kept() -> Iterator[None]:
    """Around a call in the database thread, as Channels' ``close_old_connections`` around
    each of its calls, but a working connection is kept for the next call instead of being
    given back to the pool (``CONN_MAX_AGE=0``): giving it back and taking it again was a
    quarter of the database thread's time a move on PostgreSQL (docs/benchmarks.md).

    Before the call, a connection that sat unused for ``CHECK_AFTER_IDLE`` or more is
    tried first (``SELECT 1``) and closed if it fails: PostgreSQL restarted meanwhile, say,
    and the call takes a working one from the pool instead of answering ``unavailable``.
    While calls follow each other, none is tried: the pool's own check is what cost. After
    it, one the call left unusable (an error it cannot recover from, autocommit not
    restored) is closed."""
    idle = time.monotonic() - getattr(_thread, "used_at", float("-inf")) >= CHECK_AFTER_IDLE
    if idle:
        for connection in _open_connections():
            if not connection.is_usable():
                connection.close()
    try:
        yield
    finally:
        for connection in _open_connections():
            connection.close_at = None  # kept: no maximum age
            connection.close_if_unusable_or_obsolete()
        _thread.used_at = time.monotonic()


class _KeptConnection(SyncToAsync):
    """``database_sync_to_async`` whose thread keeps its connection (``connection_kept``)."""

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        with connection_kept():
            return super().thread_handler(loop, *args, **kwargs)


async def database(call: Callable[..., _Result], *args: Any, **kwargs: Any) -> _Result:
    """``call`` in Django's database thread; GameError("unavailable") when the database
    cannot be reached (each service is one transaction: it rolled back).

    What the call broadcasts is sent from here, on the event loop, once it has returned
    (``broadcast.outbox``): its transaction has committed, and the database thread goes on
    to the next message instead of waiting for the loop to send."""
    with broadcast.outbox() as kept:
        try:
            return await _KeptConnection(call)(*args, **kwargs)
        except (OperationalError, InterfaceError):
            raise GameError(
                "unavailable", gettext("the database cannot be reached: try again")
            ) from None
        finally:
            layer = get_channel_layer()
            for group, event in kept:
                await layer.group_send(group, event)


class DirectDispatchConsumer(AsyncJsonWebsocketConsumer):
    """A consumer whose dispatch calls the handler at once.

    Channels' dispatch first closes old database connections, on the database thread: a
    thread hop for every message and every event each socket gets (a move to a game with
    ten spectators: eleven hops). Every database call here goes through `database`,
    which tidies them itself."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)
