"""Who plays whom: the pools' matching as pure functions (no Django, mypy --strict).

As lila's ``MatchMaking``: one function from the waiting seekers to the pairs, the
score of a pair written out, the loop around it (``pairing.services.wave``) only feeding
it and applying its answer. docs/guide.md#pairing states the rules:

- two seeks are compatible when they are in the same pool (kind, size, clock settings
  and ``rated`` equal: ``pool_key``), come from different sessions and different
  accounts, neither account blocks the other (``apart``), and each player's rating lies
  within the other's window;
- a seeker's window is its ``range`` when given (absolute bounds, never widened), else
  its rating +- (200 + 20 x seconds waited);
- among compatible seeks the closest ratings pair first, then the longest waiting.

>>> ann = Seeker("ann", "othello8-fischer-60+1-casual", 1500.0, None, 3.0, "s1", None)
>>> bob = Seeker("bob", "othello8-fischer-60+1-casual", 1650.0, None, 0.0, "s2", None)
>>> pairs([ann, bob])
[('ann', 'bob')]
>>> window(bob)
(1450.0, 1850.0)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gamerules.clock import TimeControl
from players import glicko2

WINDOW_BASE = 200.0
WINDOW_PER_SECOND = 20.0
NEIGHBOURS = 32
"""How many compatible seekers above each one (by rating) a wave considers: enough for
any real pool, and it keeps a wave of 1,000 seekers of one rating linear, not quadratic
(a seeker left out by it is paired at the next wave, a second later)."""

GUEST_RATING = 1500.0


@dataclass(frozen=True)
class Seeker:
    """One waiting seek as the matching sees it.

    ``pool``: the compatible group (``pool_key``); ``rating``: the player's rating in the
    pool's category (guests 1500); ``range``: absolute bounds the seeker asked for, or
    None; ``waited``: seconds since the seek was made; ``session`` and ``account``: who
    seeks (``account`` None for a guest), never paired with itself.
    """

    id: str
    pool: str
    rating: float
    range: tuple[float, float] | None
    waited: float
    session: str
    account: int | None


def window(seeker: Seeker) -> tuple[float, float]:
    """The ratings ``seeker`` accepts: its ``range``, else its rating +- (200 + 20 x
    seconds waited).

    >>> window(Seeker("a", "p", 1620.0, None, 0.0, "s", None))
    (1420.0, 1820.0)
    >>> window(Seeker("a", "p", 1620.0, None, 10.0, "s", None))
    (1220.0, 2020.0)
    >>> window(Seeker("a", "p", 1620.0, (1000.0, 1300.0), 60.0, "s", None))
    (1000.0, 1300.0)
    """
    if seeker.range is not None:
        return seeker.range
    half = WINDOW_BASE + WINDOW_PER_SECOND * max(0.0, seeker.waited)
    return seeker.rating - half, seeker.rating + half


def compatible(a: Seeker, b: Seeker, apart: Collection[frozenset[int]] = frozenset()) -> bool:
    """Whether ``a`` and ``b`` may play each other: one pool, two sessions, two accounts
    (or guests) not kept ``apart`` (pairs of accounts of which one blocks the other),
    each rating within the other's window.

    >>> ann = Seeker("ann", "p", 1500.0, None, 0.0, "s1", 1)
    >>> bob = Seeker("bob", "p", 1500.0, None, 0.0, "s2", 2)
    >>> compatible(ann, bob), compatible(ann, bob, {frozenset((1, 2))})
    (True, False)
    """
    if a.pool != b.pool or a.session == b.session:
        return False
    if a.account is not None and a.account == b.account:
        return False
    if (
        a.account is not None
        and b.account is not None
        and frozenset((a.account, b.account)) in apart
    ):
        return False
    low_a, high_a = window(a)
    low_b, high_b = window(b)
    return low_a <= b.rating <= high_a and low_b <= a.rating <= high_b


def score(a: Seeker, b: Seeker) -> tuple[float, float, float]:
    """The order in which compatible pairs are made, smallest first: the rating gap, then
    the longest wait (the longer-waiting seeker's, then the other's)."""
    first, second = sorted((a.waited, b.waited), reverse=True)
    return abs(a.rating - b.rating), -first, -second


def pairs(
    seekers: Iterable[Seeker], apart: Collection[frozenset[int]] = frozenset()
) -> list[tuple[str, str]]:
    """The pairs to make now, as ``(id, id)``, best first; no seeker in two pairs, no two
    accounts kept ``apart`` (one blocks the other) paired.

    Greedy, as lila's pools: every compatible pair among each seeker's ``NEIGHBOURS``
    nearest compatible ones above it by rating, taken in ``score`` order while both are
    free. Within a pair, the seeker who waited longer comes first.
    """
    by_pool: dict[str, list[Seeker]] = defaultdict(list)
    for seeker in seekers:
        by_pool[seeker.pool].append(seeker)
    candidates: list[tuple[tuple[float, float, float], str, str]] = []
    for members in by_pool.values():
        members.sort(key=lambda seeker: (seeker.rating, -seeker.waited, seeker.id))
        for index, seeker in enumerate(members):
            high = window(seeker)[1]
            found = 0
            for other in members[index + 1 :]:
                if other.rating > high or found == NEIGHBOURS:
                    break
                if compatible(seeker, other, apart):
                    found += 1
                    first, second = sorted((seeker, other), key=lambda s: (-s.waited, s.id))
                    candidates.append((score(seeker, other), first.id, second.id))
    candidates.sort()
    taken: set[str] = set()
    made = []
    for _, first_id, second_id in candidates:
        if first_id in taken or second_id in taken:
            continue
        taken.update((first_id, second_id))
        made.append((first_id, second_id))
    return made


def pool_counts(pools: Iterable[str]) -> dict[str, int]:
    """How many seek in each pool, from each seek's pool."""
    counts: dict[str, int] = defaultdict(int)
    for pool in pools:
        counts[pool] += 1
    return dict(sorted(counts.items()))


# Pools and categories


def pool_key(kind: str, size: int, clock: Mapping[str, object] | None, *, rated: bool) -> str:
    """The name of the compatible group of a seek: kind and size, the clock's system and
    settings, and casual or rated, e.g. ``othello8-fischer-180+2-casual``,
    ``go9-byoyomi-300+5x10-rated``, ``go19-canadian-1200+25/300-casual``,
    ``othello8-absolute-300-casual``, ``go19-correspondence-3d-casual``,
    ``othello8-none-casual``.

    ``clock``: the time control's JSON (``system`` and its settings), None for none.

    >>> pool_key("othello", 8, {"system": "fischer", "main_time": 60, "increment": 1},
    ...          rated=False)
    'othello8-fischer-60+1-casual'
    """
    mode = "rated" if rated else "casual"
    if clock is None:
        return f"{kind}{size}-none-{mode}"
    system = str(clock["system"])
    settings = {
        "fischer": "{main_time}+{increment}",
        "absolute": "{main_time}",
        "byoyomi": "{main_time}+{periods}x{period_time}",
        "canadian": "{main_time}+{stones}/{period_time}",
        "correspondence": "{days}d",
    }[system].format(**clock)
    return f"{kind}{size}-{system}-{settings}-{mode}"


def category(kind: str, size: int, clock: Mapping[str, Any] | None) -> str:
    """The rating category ``<kind><size>-<speed>`` of a seek (``glicko2.category``); a
    seek with no clock, casual only, counts as ``correspondence`` (a game that may last
    for days).

    >>> category("go", 19, {"system": "correspondence", "days": 3})
    'go19-correspondence'
    >>> category("othello", 8, {"system": "fischer", "main_time": 180, "increment": 2})
    'othello8-blitz'
    """
    if clock is None:
        return f"{kind}{size}-correspondence"
    return glicko2.category(kind, size, TimeControl.from_json(clock))
