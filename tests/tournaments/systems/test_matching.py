"""tournaments.systems.matching: networkx's maximum-weight matching, cardinality first."""

from __future__ import annotations

import pytest

from tournaments.systems.matching import best_pairs

# (what the table shows, the edges (a, b, weight), the pairs expected)
TABLE = [
    ("nothing", [], []),
    ("one edge", [(2, 1, 5)], [(1, 2)]),
    ("the heavier of two crossing edges", [(1, 2, 5), (1, 3, 7)], [(1, 3)]),
    (
        "more pairs before more weight: the heavy middle edge would leave two alone",
        [(1, 2, 1), (2, 3, 100), (3, 4, 1)],
        [(1, 2), (3, 4)],
    ),
    (
        "among full pairings the heaviest",
        [(1, 2, 1), (3, 4, 1), (1, 3, 5), (2, 4, 5)],
        [(1, 3), (2, 4)],
    ),
    ("an odd player is left out", [(1, 2, 3), (2, 3, 3), (1, 3, 4)], [(1, 3)]),
]


@pytest.mark.parametrize(
    ("edges", "expected"), [row[1:] for row in TABLE], ids=[row[0] for row in TABLE]
)
def test_best_pairs(edges: list[tuple[int, int, int]], expected: list[tuple[int, int]]) -> None:
    assert best_pairs(edges) == expected
