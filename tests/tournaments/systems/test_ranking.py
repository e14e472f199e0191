"""tournaments.systems.ranking: by score, then the tiebreaks in order; ties share a rank."""

from __future__ import annotations

import pytest

from tournaments.systems.ranking import rank, ranked
from tournaments.systems.records import Standing


def standing(id: int, score: float, buchholz: float = 0, sb: float = 0) -> Standing:
    return Standing(id, score, {"buchholz": buchholz, "sonneborn_berger": sb})


ORDER = ("buchholz", "sonneborn_berger")

# (what the table shows, the standings, the (rank, id) expected best first)
TABLE = [
    ("nobody", [], []),
    ("score first", [standing(1, 1), standing(2, 3), standing(3, 2)], [(1, 2), (2, 3), (3, 1)]),
    (
        "Buchholz breaks a tie of scores",
        [standing(1, 2, buchholz=3), standing(2, 2, buchholz=5)],
        [(1, 2), (2, 1)],
    ),
    (
        "Sonneborn-Berger breaks a tie of Buchholz",
        [standing(1, 2, 5, sb=1), standing(2, 2, 5, sb=2.5)],
        [(1, 2), (2, 1)],
    ),
    (
        "a score beats any tiebreak",
        [standing(1, 2, buchholz=0), standing(2, 1.5, buchholz=99)],
        [(1, 1), (2, 2)],
    ),
    (
        "equal in everything: a shared rank, then the rank after the tied ones",
        [standing(3, 2, 4, 1), standing(1, 2, 4, 1), standing(2, 3), standing(4, 1)],
        [(1, 2), (2, 1), (2, 3), (4, 4)],
    ),
    (
        "three tied at the top",
        [standing(1, 1), standing(2, 1), standing(3, 1)],
        [(1, 1), (1, 2), (1, 3)],
    ),
]


@pytest.mark.parametrize(
    ("standings", "expected"), [row[1:] for row in TABLE], ids=[row[0] for row in TABLE]
)
def test_rank(standings: list[Standing], expected: list[tuple[int, int]]) -> None:
    assert [(place, s.id) for place, s in rank(standings, ORDER)] == expected


def test_only_the_tiebreaks_named_count() -> None:
    table = [standing(1, 2, buchholz=3, sb=9), standing(2, 2, buchholz=3, sb=1)]
    assert [(place, s.id) for place, s in rank(table, ["buchholz"])] == [(1, 1), (1, 2)]


def test_a_missing_tiebreak_is_an_error() -> None:
    with pytest.raises(KeyError):
        rank([standing(1, 2)], ["sos"])


def test_ranked_takes_any_key_and_keeps_the_given_order_of_ties() -> None:
    assert ranked(["bb", "a", "cc", "d"], key=lambda word: (len(word),)) == [
        (1, "bb"),
        (1, "cc"),
        (3, "a"),
        (3, "d"),
    ]
