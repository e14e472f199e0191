"""tournaments.systems.roundrobin: every pair once, by the circle method."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest

from tournaments.systems.roundrobin import round_robin

# (the players, the rounds: (black, white), a bye as (player, None))
TABLES = [
    ([1, 2], [[(1, 2)]]),
    ([1, 2, 3], [[(3, None), (1, 2)], [(2, None), (3, 1)], [(1, None), (2, 3)]]),
    (
        [1, 2, 3, 4],
        [[(1, 4), (2, 3)], [(3, 1), (4, 2)], [(1, 2), (3, 4)]],
    ),
    (
        [1, 2, 3, 4, 5, 6],
        [
            [(1, 6), (2, 5), (4, 3)],
            [(5, 1), (6, 4), (3, 2)],
            [(1, 4), (5, 3), (2, 6)],
            [(3, 1), (4, 2), (6, 5)],
            [(1, 2), (3, 6), (5, 4)],
        ],
    ),
]


@pytest.mark.parametrize(
    ("ids", "rounds"), TABLES, ids=[f"{len(row[0])} players" for row in TABLES]
)
def test_the_rounds(ids: list[int], rounds: list[list[tuple[int, int | None]]]) -> None:
    assert round_robin(ids) == rounds


COUNTS = list(range(2, 17))


@pytest.mark.parametrize("count", COUNTS)
def test_every_pair_meets_exactly_once(count: int) -> None:
    met = Counter(
        frozenset(game)
        for games in round_robin(range(1, count + 1))
        for game in games
        if None not in game
    )
    assert set(met.values()) == {1} and len(met) == count * (count - 1) // 2


@pytest.mark.parametrize("count", COUNTS)
def test_each_player_once_a_round(count: int) -> None:
    rounds = round_robin(range(1, count + 1))
    assert len(rounds) == (count if count % 2 else count - 1)
    for games in rounds:
        seated = [player for game in games for player in game if player is not None]
        assert sorted(seated) == list(range(1, count + 1))


@pytest.mark.parametrize("count", COUNTS)
def test_an_odd_count_gives_each_player_one_bye(count: int) -> None:
    byes = Counter(
        game[0] for games in round_robin(range(1, count + 1)) for game in games if game[1] is None
    )
    assert byes == (Counter(range(1, count + 1)) if count % 2 else Counter())


def colours(count: int) -> dict[int, str]:
    """Each player's colours in round order, ``B`` and ``W`` (byes left out)."""
    found = {player: "" for player in range(1, count + 1)}
    for games in round_robin(range(1, count + 1)):
        for black, white in games:
            if white is not None:
                found[black] += "B"
                found[white] += "W"
    return found


@pytest.mark.parametrize("count", COUNTS)
def test_colours_are_balanced_within_one(count: int) -> None:
    assert all(abs(line.count("B") - line.count("W")) <= 1 for line in colours(count).values())


@pytest.mark.parametrize("count", COUNTS)
def test_colours_alternate_but_once_for_an_even_count(count: int) -> None:
    repeats = {
        player: sum(1 for a, b in pairwise(line) if a == b)
        for player, line in colours(count).items()
    }
    assert max(repeats.values()) == (0 if count % 2 else min(1, count - 2))


@pytest.mark.parametrize("ids", [[], [7]])
def test_fewer_than_two_players_have_no_rounds(ids: list[int]) -> None:
    assert round_robin(ids) == []


def test_a_player_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError):
        round_robin([1, 2, 1])
