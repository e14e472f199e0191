"""tournaments.systems.mcmahon: start scores from the bar, SOS and SODOS, pairing on
McMahon scores (crosstables as ``swiss_tables`` writes them)."""

from __future__ import annotations

import pytest

from tests.tournaments.systems.swiss_tables import (
    crosstable,
    field,
    id_of,
    letter_of,
    pairings_text,
)
from tournaments.systems.mcmahon import TIEBREAKS, mcmahon_scores, pair_mcmahon, start_scores
from tournaments.systems.ranks import parse_rank
from tournaments.systems.records import Entrant, Played

BAR = parse_rank("3d")

# (the rule, the rank, the floor, the start score)
STARTS = [
    ("above the bar: 0", "5d", None, 0),
    ("at the bar: 0", "3d", None, 0),
    ("one rank below: -1", "2d", None, -1),
    ("1k is two ranks below 2d: -3", "1k", None, -3),
    ("10k: -12", "10k", None, -12),
    ("30k: -32", "30k", None, -32),
    ("a floor at 5k: 10k starts as 5k, -7", "10k", "5k", -7),
    ("a floor at 5k: 30k too", "30k", "5k", -7),
    ("a floor changes nothing above it", "1k", "5k", -3),
    ("at the floor", "5k", "5k", -7),
]


@pytest.mark.parametrize(
    ("rank", "floor", "start"), [row[1:] for row in STARTS], ids=[row[0] for row in STARTS]
)
def test_start_scores_from_the_bar(rank: str, floor: str | None, start: int) -> None:
    entrant = Entrant(1, 1500.0, rank=parse_rank(rank))
    floor_number = None if floor is None else parse_rank(floor)
    assert start_scores([entrant], BAR, floor=floor_number) == {1: start}


@pytest.mark.parametrize(
    ("entrants", "floor"),
    [([Entrant(1, 1500.0)], None), ([Entrant(1, 1500.0, rank=20)], parse_rank("4d"))],
    ids=["an entrant without a rank", "a floor above the bar"],
)
def test_refused(entrants: list[Entrant], floor: int | None) -> None:
    with pytest.raises(ValueError):
        start_scores(entrants, BAR, floor=floor)


# Bar 3d. By hand:
#   player  rank  start   round 1      round 2      McMahon score
#   a       4d     0      beat b       beat d        0 + 2 =  2
#   b       2d    -1      lost to a    beat c       -1 + 1 =  0
#   c       1k    -3      lost to d    lost to b    -3 + 0 = -3
#   d       5k    -7      beat c       lost to a    -7 + 1 = -6
#   e       5k    -7      bye          -            -7 + 1 = -6
#   SOS:   a  b 0 + d -6 = -6;  b  a 2 + c -3 = -1;  c  d -6 + b 0 = -6;  d  c -3 + a 2 = -1
#   SODOS: a  b 0 + d -6 = -6;  b  c -3;             c  0;                 d  c -3
#   e: a bye adds nothing to either.
PLAYERS = field("a:2300/4d b:2100/2d c:1750/1k d:1450/5k e:1450/5k")
GAMES = crosstable("ab 1-0, cd 0-1, e bye", "ad 1-0, cb 0-1")


def test_mcmahon_scores_sos_and_sodos() -> None:
    found = {
        letter_of(id): (standing.score, *standing.tiebreaks.values())
        for id, standing in mcmahon_scores(PLAYERS, GAMES, BAR).items()
    }
    assert found == {
        "a": (2.0, -6.0, -6.0),
        "b": (0.0, -1.0, -3.0),
        "c": (-3.0, -6.0, 0.0),
        "d": (-6.0, -1.0, -3.0),
        "e": (-6.0, 0.0, 0.0),
    }


def test_the_tiebreaks_come_in_their_order() -> None:
    standing = mcmahon_scores(PLAYERS, GAMES, BAR)[id_of("a")]
    assert tuple(standing.tiebreaks) == TIEBREAKS


def test_a_jigo_counts_half_in_sodos() -> None:
    # a (3d) starts 0, b (2d) -1; after a jigo 0.5 and -0.5.
    players = field("a:2000/3d b:1900/2d")
    standings = mcmahon_scores(players, crosstable("ab ="), BAR)
    assert [(s.score, s.tiebreaks["sos"], s.tiebreaks["sodos"]) for s in standings.values()] == [
        (0.5, -0.5, -0.25),
        (-0.5, 0.5, 0.25),
    ]


# (the rule, the players, the rounds so far, the pairings expected, the bye)
PAIRINGS: list[tuple[str, list[Entrant], list[Played], str, str | None]] = [
    (
        "round 1: the start scores make the groups, not the ratings",
        field("a:2300/4d b:2250/3d c:2200/1d d:2150/1d"),
        [],
        "ab dc",
        None,
    ),
    (
        "the bye to the lowest McMahon score, whatever the rating",
        field("a:2300/4d b:1500/3d c:2400/10k"),
        [],
        "ab",
        "c",
    ),
    (
        # After round 1: b 1, a 0, c 0, d -1. b-c and a-d would make two floats; a-c keeps
        # the middle group whole and floats only b down to d.
        "round 2: the fewest floats, even two groups down",
        field("a:2300/4d b:2250/3d c:2200/2d d:2150/2d"),
        crosstable("ab 0-1, cd 1-0"),
        "bd ca",
        None,
    ),
]


@pytest.mark.parametrize(
    ("entrants", "games", "pairings", "bye"),
    [row[1:] for row in PAIRINGS],
    ids=[row[0] for row in PAIRINGS],
)
def test_pair_mcmahon(
    entrants: list[Entrant], games: list[Played], pairings: str, bye: str | None
) -> None:
    round_number = max((game.round for game in games), default=0) + 1
    made = pair_mcmahon(entrants, games, round_number, BAR)
    assert (pairings_text(made.pairings), made.bye) == (
        pairings,
        None if bye is None else id_of(bye),
    )


def test_a_floor_joins_the_lowest_groups() -> None:
    players = field("a:1500/10k b:1400/12k c:1300/20k d:1200/25k")
    without = pair_mcmahon(players, [], 1, BAR)
    with_floor = pair_mcmahon(players, [], 1, BAR, floor=parse_rank("10k"))
    assert pairings_text(without.pairings) == "ab dc"
    assert pairings_text(with_floor.pairings) == "ac db"
