"""Pairing's parts of the pages: the home page's pools, and how a game was paired."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import template

from games.models import Game
from games.rules.clock import SETTINGS, TimeControl
from pairing import selectors
from pairing.models import Pairing
from pairing.pools import POOLS

register = template.Library()


@register.inclusion_tag("pairing/pools.html", takes_context=True)
def pairing_pools(context: dict[str, Any]) -> dict[str, Any]:
    """The grid of one-click pools with how many wait in each, the custom seek, and the
    seeking status; rated pools for accounts."""
    request = context["request"]
    counts = selectors.seeking_counts()
    pools = [
        {
            "index": index,
            "pool": pool,
            "casual": pool.key(rated=False),
            "rated": pool.key(rated=True),
            "waiting": counts.get(pool.key(rated=False), 0),
        }
        for index, pool in enumerate(POOLS)
    ]
    return {
        "pools": pools,
        "seeks": [pool.seek(rated=False) for pool in POOLS],
        "logged_in": request.user.is_authenticated,
        "seeking": counts,
    }


@register.inclusion_tag("pairing/paired.html")
def paired_note(game_id: str) -> dict[str, Any]:
    """How the game ``game_id`` was paired (pool, ratings); nothing for a game the pools
    did not make."""
    return _paired(game_id)


@register.inclusion_tag("pairing/seek_again.html", takes_context=True)
def seek_again(context: dict[str, Any], game_id: str) -> dict[str, Any]:
    """For a player of a game the pools made: a link that seeks again in the same pool at
    once (the game page shows it when the game is aborted: the opponent never came or
    never moved)."""
    seated = bool(context.get("state", {}).get("you"))
    return _paired(game_id) if seated else {"pairing": None}


def _paired(game_id: str) -> dict[str, Any]:
    pairing = Pairing.objects.filter(game__public_id=game_id).select_related("game").first()
    if pairing is None:
        return {"pairing": None}
    game = pairing.game
    return {
        "pairing": pairing,
        "pool": _pool_words(game, pairing),
        "again": urlencode(_seek_fields(game, pairing)),
    }


def _pool_words(game: Game, pairing: Pairing) -> str:
    clock = TimeControl.from_json(game.time_control).describe() if game.time_control else "no clock"
    mode = "rated" if pairing.rated else "casual"
    return (
        f"{mode} {game.get_kind_display()} {game.size}\N{MULTIPLICATION SIGN}{game.size}, {clock}"
    )


def _seek_fields(game: Game, pairing: Pairing) -> dict[str, Any]:
    """The home page's query that seeks again what ``game`` was paired from."""
    clock = game.time_control or {"system": "none"}
    # In the settings' own order (PostgreSQL's jsonb keeps keys in an order of its own).
    settings = {name: clock[name] for name in SETTINGS if clock.get(name) is not None}
    return {
        "seek": "again",
        "kind": game.kind,
        "size": game.size,
        "clock": clock["system"],
        **settings,
        "rated": int(pairing.rated),
    }
