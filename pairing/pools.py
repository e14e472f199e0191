"""The home page's one-click pools (docs/guide.md#pairing): pure data, no Django.

Each pool is a seek's kind, size and clock; the page offers each casual, and rated to an
account. A custom seek may name any other settings: it makes a pool of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamerules.base import ENGLISH, Words, gettext_noop
from pairing.matching import pool_key

_KINDS = {"othello": gettext_noop("Othello"), "go": gettext_noop("Go")}


@dataclass(frozen=True)
class Pool:
    """A one-click pool: its button's ``label``, the game's ``kind`` and ``size``, and
    ``clock`` (the time control's JSON: ``system`` and its settings)."""

    label: str
    kind: str
    size: int
    clock: dict[str, Any]

    def key(self, *, rated: bool) -> str:
        """The pool's name in the lobby's ``seeking`` counts."""
        return pool_key(self.kind, self.size, self.clock, rated=rated)

    def seek(self, *, rated: bool) -> dict[str, Any]:
        """The ``seek`` message of a click on it."""
        settings = {name: value for name, value in self.clock.items() if name != "system"}
        return {
            "type": "seek",
            "kind": self.kind,
            "size": self.size,
            "clock": self.clock["system"],
            **settings,
            "rated": rated,
            "range": None,
        }

    @property
    def game(self) -> str:
        """The game and board, as the grid heads the pool: ``Othello 8x8``."""
        return self.game_in(ENGLISH)

    def game_in(self, words: Words) -> str:
        """``game`` in ``words``' language."""
        return words.gettext("%(kind)s %(size)s×%(size)s") % {  # noqa: RUF001
            "kind": words.gettext(_KINDS[self.kind]),
            "size": self.size,
        }


def _fischer(minutes: int, seconds: int) -> Pool:
    clock = {"system": "fischer", "main_time": minutes * 60, "increment": seconds}
    return Pool(f"{minutes}+{seconds}", "othello", 8, clock)


def _byoyomi(size: int, minutes: int, periods: int, period: int) -> Pool:
    clock = {
        "system": "byoyomi",
        "main_time": minutes * 60,
        "periods": periods,
        "period_time": period,
    }
    return Pool(f"{minutes}m + {periods}\N{MULTIPLICATION SIGN}{period}s", "go", size, clock)


def _correspondence(kind: str, size: int, days: int) -> Pool:
    return Pool(f"{days} days", kind, size, {"system": "correspondence", "days": days})


POOLS = (
    _fischer(1, 1),
    _fischer(3, 2),
    _fischer(5, 3),
    _fischer(10, 5),
    _byoyomi(9, 5, 5, 10),
    _byoyomi(9, 10, 5, 20),
    _byoyomi(13, 10, 5, 30),
    _byoyomi(19, 20, 5, 30),
    _correspondence("othello", 8, 3),
    _correspondence("go", 19, 3),
)
"""The presets docs/guide.md#pairing lists, in the grid's order."""
