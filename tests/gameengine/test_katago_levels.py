"""gameengine.katago_levels: what the computer's levels below KataGo's own may play, how
many points each draws, and which of them it plays."""

from __future__ import annotations

import itertools
import random

import pytest

from gameengine.katago_levels import CANDIDATE_SHARE, candidates, draw_size, pick
from gamerules import GoPosition
from gamerules.base import Color, Point

B, W = Color.BLACK, Color.WHITE

# The network's prior on a 3x3 board: the points in reading order, each half the one before.
ALL = [(r, c) for r in range(3) for c in range(3)]
PRIOR = {point: 0.5 ** (n + 1) for n, point in enumerate(ALL)}


@pytest.mark.parametrize(
    ("level", "playable", "drawn"),
    [
        (1, 50, 1),  # level 1 plays at random
        (1, 300, 1),
        (2, 50, 3),  # 9x9's middle game: level 2 picks the best of three points
        (3, 50, 5),
        (5, 50, 10),
        (8, 50, 34),
        (9, 50, 50),  # level 9 sees them all: the network's first choice
        (2, 300, 18),  # 19x19's opening
        (2, 10, 1),  # at least one, though the share is less
        (4, 1, 1),
        (6, 0, 0),
    ],
)
def test_each_level_draws_its_share_of_the_playable_points(
    level: int, playable: int, drawn: int
) -> None:
    assert draw_size(level, playable) == drawn


def test_each_level_from_2_draws_half_as_many_again_as_the_one_below() -> None:
    shares = [CANDIDATE_SHARE[level] for level in range(2, 10)]
    assert shares[-1] == 1.0
    assert all(1.4 <= high / low <= 1.6 for low, high in itertools.pairwise(shares))


@pytest.mark.parametrize("level", [0, 10, 11])
def test_there_are_nine_levels_below_katagos_own(level: int) -> None:
    with pytest.raises(ValueError, match="1 to 9"):
        draw_size(level, 50)


def test_level_9_plays_the_networks_first_choice() -> None:
    assert pick(9, ALL, PRIOR, 0.0, random.Random(0)) == (0, 0)
    assert pick(9, ALL[3:], PRIOR, 0.0, random.Random(0)) == (1, 0)


def test_a_level_plays_the_networks_best_of_the_points_it_drew() -> None:
    for seed in range(20):
        drawn = random.Random(seed).sample(ALL, draw_size(8, len(ALL)))
        expected = min(drawn)  # the prior falls in reading order
        assert pick(8, ALL, PRIOR, 0.0, random.Random(seed)) == expected


def test_a_higher_level_plays_the_networks_choices_more_often() -> None:
    def first_choices(level: int) -> int:
        rng = random.Random(level)
        return sum(pick(level, ALL, PRIOR, 0.0, rng) == (0, 0) for _ in range(400))

    found = [first_choices(level) for level in (1, 5, 7, 9)]
    assert found == sorted(found) and found[0] < 100 < found[2] and found[-1] == 400


def test_a_point_the_network_rules_out_is_never_played() -> None:
    prior = {point: share for point, share in PRIOR.items() if point != (0, 0)}
    played = {pick(3, ALL, prior, 0.0, random.Random(seed)) for seed in range(200)}
    assert (0, 0) not in played and len(played) > 3


@pytest.mark.parametrize(
    ("level", "playable", "passing", "expected"),
    [
        (9, ALL, 0.4, (0, 0)),  # the first choice (0.5) is better than a pass
        (9, ALL, 0.6, None),  # the network would rather pass: the game is over for it
        (9, ALL[4:], 0.1, (1, 1)),  # what is left is worse than a pass: not the network's call
        (1, ALL, 0.3, (2, 0)),  # the weakest level's draw worse than a pass: it plays
        (9, ALL, 0.0, (0, 0)),  # six decimals: the pass and the far points both read 0
        (9, [], 0.0, None),  # nothing to play
    ],
)
def test_a_level_passes_when_the_networks_first_choice_is_to_pass(
    level: int, playable: list[Point], passing: float, expected: Point | None
) -> None:
    assert pick(level, playable, PRIOR, passing, random.Random(0)) == expected


@pytest.mark.parametrize(
    ("rows", "to_move", "expected"),
    [
        (["...", "...", "..."], B, ALL),
        # Black's eye at the corner (0, 0) is no point for Black, but White may not play
        # there either (suicide); the other empty points are open to both.
        ([".B.", "BB.", "..."], B, [(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)]),
        ([".B.", "BB.", "..."], W, [(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)]),
        # Black's corner again, where White captures the two stones in atari: White's move.
        ([".BW", "BW.", "W.."], W, [(0, 0), (1, 2), (2, 1), (2, 2)]),
        ([".BW", "BW.", "W.."], B, [(1, 2), (2, 1), (2, 2)]),
    ],
)
def test_a_level_never_fills_its_own_eye(
    rows: list[str], to_move: Color, expected: list[Point]
) -> None:
    assert candidates(GoPosition.from_rows(rows, to_move)) == expected
