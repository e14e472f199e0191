"""The lobby's message and its broadcast: the games' open games and count of games in play
(``games.selectors.lobby_jsons``) with the pools' ``seeking``, as every lobby socket
(``pairing.consumers``) sends it, on connect and whenever it changes.

The lobby changes with a game (created, joined, called off, finished, its creator gone:
``games.signals.game_changed``, whose receiver in the live app calls ``broadcast_lobby``),
with the seeks (this app's services and loop), and with time alone: a game leaves the count
of games being played ten minutes after its last move. So the loop of every process also
asks ``stale_counts``, which compares the counts with what that process last told.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.db.models import Count

import broadcast
from games import selectors
from pairing.models import Seek

LOBBY_GROUP = "lobby"
"""The channel-layer group of every lobby socket."""


def lobby_json(language: str | None = None) -> dict[str, Any]:
    """The lobby's message in ``language`` (the site's default when None): the open games
    (``games``, each clock in words), how many are being played (``playing``), and the
    pools' counts (``seeking``)."""
    code = language or settings.LANGUAGE_CODE
    return lobby_jsons([code])[code]


def lobby_jsons(languages: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The lobby's message in each of ``languages``, read once (``lobby_json``)."""
    messages = selectors.lobby_jsons(languages)
    seeking = seeking_counts()
    return {language: {**message, "seeking": seeking} for language, message in messages.items()}


def seeking_counts() -> dict[str, int]:
    """The lobby's ``seeking``: how many seek in each pool that has a seeker, ``{pool: n}``."""
    rows = Seek.objects.values("pool").annotate(n=Count("id")).order_by("pool")
    return {row["pool"]: row["n"] for row in rows}


_told: dict[str, Any] = {}
"""The counts (``playing``, ``seeking``) of the last lobby message this process built for
every lobby socket (``lobby_event``)."""


def stale_counts(*, playing: bool) -> bool:
    """Whether the pools' counts (and, when ``playing``, how many games are being played:
    ``selectors.playing_count``, a query of its own) are not what this process last told
    the lobby, or it told nothing yet.

    Compared with what was told, not with what the caller saw last: a message built
    between two readings (a game created, say) may carry a count that was true only for
    a moment, a game gone from the count before another came in, and every socket would
    keep it while the readings agree. Each process answers for its own messages; every
    process asks (``pairing.loop``)."""
    if not _told or seeking_counts() != _told["seeking"]:
        return True
    return playing and selectors.playing_count() != _told["playing"]


_lobby_held: ContextVar[list[bool] | None] = ContextVar("lobby_held", default=None)


@contextmanager
def lobby_noted() -> Iterator[list[bool]]:
    """Within it, ``broadcast_lobby`` only notes that the lobby changed, in the list it
    yields (not empty: it did), and sends nothing: the caller sends one ``lobby_event``
    later, when it chooses (the pairing loop, at most every half second)."""
    changed: list[bool] = []
    token = _lobby_held.set(changed)
    try:
        yield changed
    finally:
        _lobby_held.reset(token)


@contextmanager
def lobby_held() -> Iterator[None]:
    """Within it, ``broadcast_lobby`` only notes that the lobby changed, and the lobby is
    broadcast once when it ends: a batch of changes (a pairing wave's games) costs one
    lobby message, not one each."""
    with lobby_noted() as changed:
        yield
    if changed:
        broadcast_lobby()


def broadcast_lobby() -> None:
    """Send ``lobby_event`` to everyone on the lobby's websocket (once at the end of a
    ``lobby_held`` block; only noted within ``lobby_noted``)."""
    held = _lobby_held.get()
    if held is not None:
        held.append(True)
        return
    broadcast.send_to_group(LOBBY_GROUP, lobby_event())


def lobby_event() -> dict[str, Any]:
    """``lobby.changed``: the lobby as it is now, encoded once in each of the site's
    languages (``languages``; ``whole``: the default's), for each socket to send its own.
    Its counts are what this process last told the lobby (``stale_counts``)."""
    messages = lobby_jsons(code for code, _name in settings.LANGUAGES)
    told = messages[settings.LANGUAGE_CODE]
    _told.update(playing=told["playing"], seeking=told["seeking"])
    texts = {code: json.dumps(message, separators=(",", ":")) for code, message in messages.items()}
    return {"type": "lobby.changed", "whole": texts[settings.LANGUAGE_CODE], "languages": texts}
