"""players.glicko2: Glickman's worked example first, then the pinned clamps, the growth
with inactivity, the categories by clock and the Go ranks, as tables."""

from __future__ import annotations

import math

import pytest

from gamerules.clock import TimeControl
from players import glicko2
from players.glicko2 import NEW_PLAYER, Rating

# Glickman, "Example of the Glicko-2 system": 1500 / 200 / 0.06 against three opponents,
# tau 0.5; his figures round every step, hence the tolerances.
EXAMPLE_OPPONENTS = [
    (Rating(1400, 30, 0.06), 1.0),
    (Rating(1550, 100, 0.06), 0.0),
    (Rating(1700, 300, 0.06), 0.0),
]


def test_glickmans_worked_example() -> None:
    after = glicko2.update(Rating(1500, 200, 0.06), EXAMPLE_OPPONENTS, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_glickmans_intermediate_values() -> None:
    """Steps 3 to 5 of the example: v = 1.7785, delta = -0.4834 (Glicko-2 scale; the paper
    rounds each step to four places), the new volatility 0.05999."""
    mu, phi = 0.0, 200 / glicko2.SCALE
    inverse_v = gain = 0.0
    for opponent, score in EXAMPLE_OPPONENTS:
        g = glicko2._g(opponent.rd / glicko2.SCALE)
        e = 1 / (1 + math.exp(-g * (mu - (opponent.rating - 1500) / glicko2.SCALE)))
        inverse_v += g * g * e * (1 - e)
        gain += g * (score - e)
    assert 1 / inverse_v == pytest.approx(1.7785, abs=1e-3)
    assert gain / inverse_v == pytest.approx(-0.4834, abs=1e-3)
    assert glicko2._new_volatility(phi, 0.06, 1 / inverse_v, gain / inverse_v, 0.5) == (
        pytest.approx(0.05999, abs=1e-5)
    )


@pytest.mark.parametrize(
    ("player", "opponent", "score", "rating", "rd"),
    [
        # Two new players: the winner gains what the loser loses (equal RDs).
        (NEW_PLAYER, NEW_PLAYER, 1.0, 1662.31, 290.32),
        (NEW_PLAYER, NEW_PLAYER, 0.0, 1337.69, 290.32),
        (NEW_PLAYER, NEW_PLAYER, 0.5, 1500.00, 290.32),
        # An established player beating a weaker one gains little.
        (Rating(1800, 45, 0.06), Rating(1400, 45, 0.06), 1.0, 1801.12, 46.06),
        # A steady player whose RD would fall under 45 (44.63 unclamped) keeps 45.
        (Rating(1500, 45, 0.001), Rating(1500, 30, 0.06), 0.5, 1500.0, 45.0),
    ],
)
def test_one_game_is_one_rating_period(
    player: Rating, opponent: Rating, score: float, rating: float, rd: float
) -> None:
    after = glicko2.rate_game(player, opponent, score)
    assert after.rating == pytest.approx(rating, abs=0.01)
    assert after.rd == pytest.approx(rd, abs=0.01)


def test_rd_kept_within_45_and_350() -> None:
    assert glicko2.clamped(Rating(1500, 20, 0.06)).rd == 45
    assert glicko2.clamped(Rating(1500, 500, 0.06)).rd == 350
    assert glicko2.clamped(Rating(1500, 200, 0.06)).rd == 200
    unclamped = glicko2.update(Rating(1500, 45, 0.001), [(Rating(1500, 30, 0.06), 0.5)])
    assert unclamped.rd < 45


@pytest.mark.parametrize(
    ("rd", "volatility", "days", "grown"),
    [
        (50.0, 0.06, 0, 50.0),
        (50.0, 0.06, 1, math.sqrt(50**2 + (173.7178 * 0.06) ** 2 * 0.21436)),
        (50.0, 0.06, 30, math.sqrt(50**2 + (173.7178 * 0.06) ** 2 * 30 * 0.21436)),
        (300.0, 0.06, 3650, 350.0),  # at most 350
        (350.0, 0.06, 10, 350.0),
    ],
)
def test_rd_grows_with_inactivity(rd: float, volatility: float, days: float, grown: float) -> None:
    after = glicko2.after_inactivity(Rating(1600, rd, volatility), days)
    assert after.rd == pytest.approx(grown)
    assert (after.rating, after.volatility) == (1600, volatility)


def test_provisional_above_110() -> None:
    assert Rating(1500, 110.01, 0.06).provisional
    assert not Rating(1500, 110, 0.06).provisional


@pytest.mark.parametrize(
    ("kind", "size", "control", "expected"),
    [
        ("othello", 8, TimeControl.fischer(main_time=60, increment=1), "othello8-bullet"),
        ("othello", 8, TimeControl.fischer(main_time=60, increment=3), "othello8-blitz"),  # 180
        ("othello", 8, TimeControl.fischer(main_time=300, increment=3), "othello8-blitz"),
        ("othello", 8, TimeControl.fischer(main_time=300, increment=5), "othello8-rapid"),  # 500
        ("othello", 8, TimeControl.absolute(main_time=1499), "othello8-rapid"),
        ("othello", 8, TimeControl.absolute(main_time=1500), "othello8-classical"),
        ("go", 9, TimeControl.byoyomi(main_time=300, periods=5, period_time=10), "go9-rapid"),
        (
            "go",
            19,
            TimeControl.byoyomi(main_time=1200, periods=5, period_time=30),
            "go19-classical",
        ),
        # Canadian: X = period_time / stones = 6 s, E = 200 + 240 = 440.
        ("go", 13, TimeControl.canadian(main_time=200, stones=25, period_time=150), "go13-blitz"),
        ("go", 9, TimeControl.correspondence(days=3), "go9-correspondence"),
    ],
)
def test_categories(kind: str, size: int, control: TimeControl, expected: str) -> None:
    assert glicko2.category(kind, size, control) == expected


@pytest.mark.parametrize(
    ("rating", "rank"),
    [
        (100, "30k"),  # below 30k: kept at 30k
        (525, "30k"),  # R = 0
        (1000, "16k"),  # R = 14.9
        (1500, "6k"),  # R = 24.3
        (1917.8, "1k"),  # R = 29.99
        (1918.5, "1d"),  # R = 30.0
        (2200, "4d"),  # R = 33.2
        (3000, "9d"),  # R = 40.3: kept at 9d
    ],
)
def test_go_ranks(rating: float, rank: str) -> None:
    assert glicko2.go_rank(rating) == rank


def test_a_period_without_games_only_grows_the_rd() -> None:
    after = glicko2.update(Rating(1700, 100, 0.06), [])
    assert (after.rating, after.volatility) == (1700, 0.06)
    assert after.rd == pytest.approx(
        glicko2.SCALE * math.sqrt((100 / glicko2.SCALE) ** 2 + 0.06**2)
    )


@pytest.mark.parametrize(
    ("first_actions", "moved"),
    [
        ([], False),
        (["resign"], False),
        (["timeout"], False),
        (["place", "resign"], False),
        (["place", "timeout"], False),
        (["place", "forfeit"], False),
        (["pass", "resign"], False),
        (["place", "place"], True),
        (["place", "pass"], True),
        (["pass", "pass"], True),
        (["place", "place", "resign"], True),
    ],
)
def test_a_game_moves_ratings_once_each_side_has_made_a_move_of_its_own(
    first_actions: list[str], moved: bool
) -> None:
    assert glicko2.both_sides_moved(first_actions) is moved
