"""Reads of pairing: the pools' counts for the lobby and the home page, a seek as JSON,
how a game was paired (G's ``paired``)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

from django.db.models import Count
from django.utils import translation
from django.utils.translation import gettext

from accounts import standing
from gamerules.clock import SETTINGS, TimeControl
from games.models import Game
from pairing.matching import window
from pairing.models import LobbySocket, Pairing, Seek
from pairing.pools import POOLS
from pairing.services import seeker


def seeking_counts() -> dict[str, int]:
    """How many seek in each pool that has a seeker: ``{pool: n}``."""
    rows = Seek.objects.values("pool").annotate(n=Count("id")).order_by("pool")
    return {row["pool"]: row["n"] for row in rows}


def lobby_sockets(session_keys: Iterable[str]) -> dict[str, int]:
    """How many lobby sockets each of the sessions ``session_keys`` has open (none: absent)."""
    rows = (
        LobbySocket.objects.filter(session_key__in=list(session_keys))
        .values("session_key")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {row["session_key"]: row["n"] for row in rows}


def seeking_part() -> dict[str, Any]:
    """The lobby message's ``seeking`` (games.selectors.register_lobby_part)."""
    return {"seeking": seeking_counts()}


def seek_json(seek: Seek) -> dict[str, Any]:
    """The ``seek`` of the ``seeking`` message: the fields the seek was made with (the
    clock's settings, null where unused), its ``id``, and what the page shows: its
    ``pool``, the seeker's ``rating`` and ``window`` now, ``since`` (ISO 8601), and
    ``label`` (``seek_words``)."""
    clock = seek.time_control or {"system": "none"}
    low, high = window(seeker(seek, now=None))
    return {
        "id": seek.pk,
        "kind": seek.kind,
        "size": seek.size,
        "clock": clock["system"],
        **{name: clock.get(name) for name in SETTINGS},
        "rated": seek.rated,
        "range": [seek.range_low, seek.range_high] if seek.range_low is not None else None,
        "pool": seek.pool,
        "category": seek.category,
        "rating": seek.rating,
        "window": [low, high],
        "since": seek.created_at.isoformat(),
        "label": seek_words(seek),
    }


def seek_words(seek: Seek) -> str:
    """What a seek looks for, in the create form's words: "Go 9x9, 2 min, +5 s per move
    (Fischer)", "Othello 8x8, no clock" (with the multiplication sign)."""
    clock = (
        TimeControl.from_json(seek.time_control).describe(translation)
        if seek.time_control
        else gettext("no clock")
    )
    return gettext("%(kind)s %(size)s×%(size)s, %(clock)s") % {  # noqa: RUF001
        "kind": Game.Kind(seek.kind).label,
        "size": seek.size,
        "clock": clock,
    }


def pairing_of(game: Game) -> Pairing | None:
    """How ``game`` was paired, None for a game the pools did not make."""
    return Pairing.objects.filter(game=game).first()


def pools(*, user_id: int | None) -> dict[str, Any]:
    """What the home page shows of the pools to the account ``user_id`` (None: a guest):
    each one-click pool with how many wait in it (``entries``), their seeks for the page's
    script, the counts, whether rated pools are offered (accounts only), and the words of
    the account's playban in force (``playban``: why and until when it may not seek)."""
    playban = standing.playbanned(user_id)
    counts = seeking_counts()
    entries = [
        {
            "index": index,
            "pool": SimpleNamespace(
                label=pool.label, clock=pool.clock, game=pool.game_in(translation)
            ),
            "casual": pool.key(rated=False),
            "rated": pool.key(rated=True),
            "waiting": counts.get(pool.key(rated=False), 0),
        }
        for index, pool in enumerate(POOLS)
    ]
    return {
        "pools": entries,
        "seeks": [pool.seek(rated=False) for pool in POOLS],
        "logged_in": user_id is not None,
        "seeking": counts,
        "playban": None if playban is None else playban.words(),
    }


PAIRED_KEPT = 4096
"""How many games' ``paired`` a process keeps (``paired_part``)."""

_paired: OrderedDict[str, dict[str, Any] | None] = OrderedDict()
_paired_lock = threading.Lock()


def paired_part(game: Game) -> dict[str, Any]:
    """G's ``paired`` (games.selectors.register_state_part): how the pools made ``game``
    (``paired_json``), None for a game they did not make.

    Remembered per process: a game's pairing is written in the transaction that creates
    the game and never changes, so G costs no query for it after the first (a ``moved``
    event is built for every move)."""
    if game.pk is None:
        return {"paired": None}
    key = game.public_id  # unguessable, so never another game's (as a reused pk could be)
    with _paired_lock:
        if key in _paired:
            _paired.move_to_end(key)
            return {"paired": _paired[key]}
    pairing = pairing_of(game)
    paired = None if pairing is None else paired_json(game, pairing)
    with _paired_lock:
        _paired[key] = paired
        while len(_paired) > PAIRED_KEPT:
            _paired.popitem(last=False)
    return {"paired": paired}


def paired_json(game: Game, pairing: Pairing) -> dict[str, Any]:
    """G's ``paired``: ``{"pool"`` (in words: "rated Othello 8x8, 3 min + 2 s"),
    ``"ratings": {"black", "white"}`` (each seeker's when paired), ``"seek"`` (the fields
    that seek in the same pool again, as the home page's query takes them)``}``."""
    # In English: G is one message for every viewer, and this part is kept per process.
    clock = TimeControl.from_json(game.time_control).describe() if game.time_control else "no clock"
    mode = "rated" if pairing.rated else "casual"
    kind = "Othello" if game.kind == Game.Kind.OTHELLO else "Go"
    return {
        "pool": f"{mode} {kind} {game.size}\N{MULTIPLICATION SIGN}{game.size}, {clock}",
        "ratings": {"black": pairing.black_rating, "white": pairing.white_rating},
        "seek": _seek_fields(game, pairing),
    }


def _seek_fields(game: Game, pairing: Pairing) -> dict[str, Any]:
    """The fields that seek again what ``game`` was paired from."""
    clock = game.time_control or {"system": "none"}
    # In the settings' own order (PostgreSQL's jsonb keeps keys in an order of its own).
    settings = {name: clock[name] for name in SETTINGS if clock.get(name) is not None}
    return {
        "kind": str(game.kind),
        "size": game.size,
        "clock": clock["system"],
        **settings,
        "rated": int(pairing.rated),
    }
