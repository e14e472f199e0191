"""Sending events to channel-layer groups, from any layer: at once, or kept in the
caller's outbox (``outbox``) when the caller runs in a consumer's database thread.

A consumer runs its service in the database thread (``database_sync_to_async``) within
``outbox()``: what the service broadcasts once its transaction commits is kept, as
``(group, event)``, for the consumer to send from its event loop, instead of the database
thread waiting for the loop to send it. The list reaches the thread through the context
that ``database_sync_to_async`` copies. Elsewhere (a view, the clock watch) an event goes
at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

_outbox: ContextVar[list[tuple[str, dict[str, Any]]] | None] = ContextVar("outbox", default=None)


@contextmanager
def outbox() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Within it, the events sent with ``send_to_group`` are kept, as ``(group, event)``,
    for the caller to send from its event loop."""
    kept: list[tuple[str, dict[str, Any]]] = []
    token = _outbox.set(kept)
    try:
        yield kept
    finally:
        _outbox.reset(token)


def send_to_group(group: str, event: dict[str, Any]) -> None:
    """Send ``event`` to the channel-layer ``group``: kept in the outbox when there is one
    (``outbox``), else at once."""
    kept = _outbox.get()
    if kept is not None:
        kept.append((group, event))
        return
    async_to_sync(get_channel_layer().group_send)(group, event)


def account_group(user_id: int) -> str:
    """The group of an account's open pages (their lobby sockets): its notifications."""
    return f"account.{user_id}"


def tournament_group(tournament_id: int) -> str:
    """The group of a tournament's open pages (their lobby sockets, opened with
    ``?tournament=<id>``): its live standings."""
    return f"tournament.{tournament_id}"
