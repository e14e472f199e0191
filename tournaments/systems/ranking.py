"""Ranks from standings: ordered by score then tiebreaks, ties sharing a rank.

Ranks are "standard competition" ranks (1, 2, 2, 4): a player's rank is one more than
the number of players strictly ahead of it.

>>> from tournaments.systems.records import Standing
>>> table = [Standing(1, 2.0, {"buchholz": 3.0}), Standing(2, 2.0, {"buchholz": 3.0}),
...          Standing(3, 2.5, {"buchholz": 1.0}), Standing(4, 1.0, {"buchholz": 4.0})]
>>> [(place, standing.id) for place, standing in rank(table, ["buchholz"])]
[(1, 3), (2, 1), (2, 2), (4, 4)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from tournaments.systems.records import Standing

T = TypeVar("T")


def ranked(items: Iterable[T], key: Callable[[T], tuple[float, ...]]) -> list[tuple[int, T]]:
    """``items`` best first by ``key`` (larger better), each with its rank; items whose
    keys are equal share a rank and keep their given order. Raises nothing."""
    ordered = sorted(items, key=key, reverse=True)
    # sorted(reverse=True) keeps equal items in their given order, as wanted.
    places: list[tuple[int, T]] = []
    previous: tuple[float, ...] | None = None
    for index, item in enumerate(ordered):
        current = key(item)
        place = places[-1][0] if current == previous else index + 1
        places.append((place, item))
        previous = current
    return places


def rank(standings: Iterable[Standing], order: Sequence[str]) -> list[tuple[int, Standing]]:
    """The standings best first, each with its rank: by score, then by the tiebreaks
    named in ``order`` (most important first); equal on all of them, a shared rank,
    listed by id.

    Raises KeyError if a standing lacks a tiebreak named in ``order``.
    """
    return ranked(
        sorted(standings, key=lambda standing: standing.id),
        lambda standing: (standing.score, *(standing.tiebreaks[name] for name in order)),
    )
