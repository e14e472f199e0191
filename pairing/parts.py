"""Pairing's parts of the games' pages (``games.pages``, registered in PairingConfig):
the home page's pools and their script, how a game was paired, and the offer to seek
again once a paired game is over."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games.models import Game
from games.rules.clock import SETTINGS, TimeControl
from pairing import selectors
from pairing.models import Pairing
from pairing.pools import POOLS


def pools(context: Any) -> SafeString:
    """The grid of one-click pools with how many wait in each, the custom seek, and the
    seeking status; rated pools for accounts."""
    request = context["request"]
    counts = selectors.seeking_counts()
    entries = [
        {
            "index": index,
            "pool": pool,
            "casual": pool.key(rated=False),
            "rated": pool.key(rated=True),
            "waiting": counts.get(pool.key(rated=False), 0),
        }
        for index, pool in enumerate(POOLS)
    ]
    shown = {
        "pools": entries,
        "seeks": [pool.seek(rated=False) for pool in POOLS],
        "logged_in": request.user.is_authenticated,
        "seeking": counts,
    }
    return render_to_string("pairing/pools.html", shown, request=request)


def pools_script(context: Any) -> SafeString:
    """The home page's script of the pools (after the lobby's, whose socket it shares)."""
    return format_html('<script type="module" src="{}"></script>', static("js/pairing.js"))


def paired_note(context: Any) -> SafeString:
    """How the game of the page was paired (pool, ratings); nothing for a game the pools
    did not make."""
    return render_to_string("pairing/paired.html", _paired(context))


def seek_again(context: Any) -> SafeString:
    """For a player of a game the pools made: a link that seeks again in the same pool at
    once (the game page shows it when the game is aborted: the opponent never came or
    never moved)."""
    shown = _paired(context) if context["state"].get("you") else {"pairing": None}
    return render_to_string("pairing/seek_again.html", shown)


def _paired(context: Any) -> dict[str, Any]:
    """What the page's parts show of how its ``game`` was paired: read once a page (both
    parts ask), kept in the template's render context."""
    shown: dict[str, Any] | None = context.render_context.get(__name__)
    if shown is None:
        game = context["game"]
        pairing = selectors.pairing_of(game)
        shown = {"pairing": None}
        if pairing is not None:
            shown = {
                "pairing": pairing,
                "pool": _pool_words(game, pairing),
                "again": urlencode(_seek_fields(game, pairing)),
            }
        context.render_context[__name__] = shown
    return shown


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
