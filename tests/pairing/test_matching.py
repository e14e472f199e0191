"""pairing.matching: who plays whom, as tables of seeks and the pairs they make."""

from __future__ import annotations

import doctest

import pytest

from pairing import matching, pools
from pairing.matching import Seeker, category, pairs, pool_key

POOL = "othello8-fischer-180+2-casual"


def seeker(
    id: str,
    rating: float = 1500,
    *,
    waited: float = 0,
    range: tuple[float, float] | None = None,
    pool: str = POOL,
    session: str | None = None,
    account: int | None = None,
) -> Seeker:
    return Seeker(id, pool, float(rating), range, float(waited), session or f"s-{id}", account)


# (what the table shows, the seekers, the pairs expected: longer-waiting seeker first)
TABLE = [
    ("nobody", [], []),
    ("one alone waits", [seeker("a")], []),
    ("two guests", [seeker("a", waited=1), seeker("b")], [("a", "b")]),
    (
        "another pool is another group",
        [seeker("a"), seeker("b", pool="go9-byoyomi-300+5x10-casual")],
        [],
    ),
    ("one session never plays itself", [seeker("a", session="x"), seeker("b", session="x")], []),
    ("one account never plays itself", [seeker("a", account=7), seeker("b", account=7)], []),
    ("two accounts play", [seeker("a", account=7), seeker("b", account=8)], [("a", "b")]),
    ("200 apart at once: within the window", [seeker("a", 1500), seeker("b", 1700)], [("a", "b")]),
    ("201 apart at once: not yet", [seeker("a", 1500), seeker("b", 1701)], []),
    (
        "the window widens 20 a second: 300 apart after 5 s both",
        [seeker("a", 1500, waited=5), seeker("b", 1800, waited=5)],
        [("a", "b")],
    ),
    (
        "each must lie in the other's window: the newcomer's is still narrow",
        [seeker("a", 1500, waited=60), seeker("b", 1800, waited=0)],
        [],
    ),
    (
        "closest ratings first",
        [seeker("a", 1500), seeker("b", 1600), seeker("c", 1620), seeker("d", 1690)],
        [("b", "c"), ("a", "d")],
    ),
    (
        "then the longest waiting",
        [seeker("new", 1500, waited=1), seeker("old", 1500, waited=9), seeker("x", 1500)],
        [("old", "new")],
    ),
    (
        "a range is absolute: never widened",
        [seeker("a", 1500, waited=600, range=(1000, 1400)), seeker("b", 1450, waited=600)],
        [],
    ),
    (
        "a range may reach beyond the window",
        [seeker("a", 1500, range=(1500, 2000)), seeker("b", 1900, waited=30)],
        [("b", "a")],
    ),
    (
        "but the other's window still counts",
        [seeker("a", 1500, range=(1500, 2000)), seeker("b", 1900)],
        [],
    ),
    (
        "no seeker in two pairs",
        [seeker("a"), seeker("b"), seeker("c")],
        [("a", "b")],
    ),
    (
        "the closer pair wins a seeker both want",
        [seeker("a", 1400, waited=30), seeker("b", 1500), seeker("c", 1510)],
        [("b", "c")],
    ),
]


@pytest.mark.parametrize(
    ("seekers", "expected"), [row[1:] for row in TABLE], ids=[row[0] for row in TABLE]
)
def test_pairs(seekers: list[Seeker], expected: list[tuple[str, str]]) -> None:
    assert pairs(seekers) == expected
    assert pairs(reversed(seekers)) == expected  # the order they come in does not matter


def test_a_thousand_seekers_of_one_rating_all_pair_once() -> None:
    seekers = [seeker(str(n), waited=n % 7) for n in range(1000)]
    made = pairs(seekers)
    paired = [id for pair in made for id in pair]
    assert sorted(paired, key=int) == [str(n) for n in range(1000)]


def test_spread_ratings_pair_with_neighbours() -> None:
    seekers = [seeker(str(n), 1000 + 10 * n) for n in range(20)]
    assert sorted(pairs(seekers)) == sorted((str(n), str(n + 1)) for n in range(0, 20, 2))


@pytest.mark.parametrize(
    ("clock", "expected"),
    [
        ({"system": "fischer", "main_time": 60, "increment": 1}, "bullet"),  # 100
        ({"system": "fischer", "main_time": 60, "increment": 3}, "blitz"),  # 180
        ({"system": "fischer", "main_time": 300, "increment": 3}, "blitz"),  # 420
        ({"system": "fischer", "main_time": 600, "increment": 5}, "rapid"),  # 800
        ({"system": "absolute", "main_time": 1499}, "rapid"),
        ({"system": "absolute", "main_time": 1500}, "classical"),
        ({"system": "byoyomi", "main_time": 300, "periods": 5, "period_time": 10}, "rapid"),
        ({"system": "byoyomi", "main_time": 1200, "periods": 5, "period_time": 30}, "classical"),
        ({"system": "canadian", "main_time": 300, "stones": 25, "period_time": 300}, "rapid"),
        ({"system": "correspondence", "days": 3}, "correspondence"),
        (None, "correspondence"),
    ],
)
def test_the_category_of_a_seek_has_its_clock_s_speed(
    clock: dict[str, object] | None, expected: str
) -> None:
    assert category("othello", 8, clock) == f"othello8-{expected}"


def test_category_and_pool_key() -> None:
    clock = {"system": "byoyomi", "main_time": 300, "periods": 5, "period_time": 10}
    assert category("go", 9, clock) == "go9-rapid"
    assert pool_key("go", 9, clock, rated=True) == "go9-byoyomi-300+5x10-rated"
    assert pool_key("othello", 8, None, rated=False) == "othello8-none-casual"
    canadian = {"system": "canadian", "main_time": 1200, "stones": 25, "period_time": 300}
    assert pool_key("go", 19, canadian, rated=False) == "go19-canadian-1200+25/300-casual"


def test_the_pinned_pools() -> None:
    keys = [pool.key(rated=False) for pool in pools.POOLS]
    assert keys == [
        "othello8-fischer-60+1-casual",
        "othello8-fischer-180+2-casual",
        "othello8-fischer-300+3-casual",
        "othello8-fischer-600+5-casual",
        "go9-byoyomi-300+5x10-casual",
        "go9-byoyomi-600+5x20-casual",
        "go13-byoyomi-600+5x30-casual",
        "go19-byoyomi-1200+5x30-casual",
        "othello8-correspondence-3d-casual",
        "go19-correspondence-3d-casual",
    ]
    assert pools.POOLS[1].seek(rated=True) == {
        "type": "seek",
        "kind": "othello",
        "size": 8,
        "clock": "fischer",
        "main_time": 180,
        "increment": 2,
        "rated": True,
        "range": None,
    }


def test_the_doctests_hold() -> None:
    assert doctest.testmod(matching).failed == 0
