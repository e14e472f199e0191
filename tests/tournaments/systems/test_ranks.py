"""tournaments.systems.ranks: Go ranks as numbers, 30k = 0 .. 1k = 29, 1d = 30 .. 9d = 38."""

from __future__ import annotations

import pytest

from tournaments.systems.ranks import format_rank, parse_rank, rank_from_number

# (rank as written, its number)
RANKS = [
    ("30k", 0),
    ("29k", 1),
    ("10k", 20),
    ("1k", 29),
    ("1d", 30),
    ("3d", 32),
    ("9d", 38),
]


@pytest.mark.parametrize(("text", "number"), RANKS)
def test_a_rank_reads_as_its_number(text: str, number: int) -> None:
    assert parse_rank(text) == number


@pytest.mark.parametrize(("text", "number"), RANKS)
def test_a_number_writes_as_its_rank(text: str, number: int) -> None:
    assert format_rank(number) == text


@pytest.mark.parametrize(("text", "number"), [(" 3D ", 32), ("5K", 25)])
def test_case_and_spaces_do_not_matter(text: str, number: int) -> None:
    assert parse_rank(text) == number


@pytest.mark.parametrize("text", ["", "0k", "31k", "0d", "10d", "3p", "3", "k", "-1k", "3 d"])
def test_anything_else_is_not_a_rank(text: str) -> None:
    with pytest.raises(ValueError):
        parse_rank(text)


@pytest.mark.parametrize("number", [-1, 39])
def test_numbers_outside_30k_to_9d_have_no_rank(number: int) -> None:
    with pytest.raises(ValueError):
        format_rank(number)


# (OGS's rank number R = ln(rating / 525) x 23.15, the rank's number)
@pytest.mark.parametrize(
    ("rank_number", "number"),
    [
        (24.27, 24),  # 1500: 6k, as go_rank shows it
        (29.99, 29),  # 1k
        (30.0, 30),  # 1d
        (-4.5, 0),  # below 30k: kept at 30k
        (41.2, 38),  # above 9d: kept at 9d
    ],
)
def test_ogs_rank_numbers_round_down_within_30k_to_9d(rank_number: float, number: int) -> None:
    assert rank_from_number(rank_number) == number
