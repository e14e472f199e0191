"""tournaments.systems.arena: lichess's arena scoring and pairing, as tables."""

from __future__ import annotations

import datetime
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.systems.arena import (
    ArenaStanding,
    arena_can_pair,
    arena_rank,
    arena_scores,
    arena_sheet,
    last_opponents,
    pair_arena,
)
from tournaments.systems.records import Entrant, Played, Result

TOKEN = re.compile(r"(?P<outcome>[WDL?])(?:\+(?P<moves>\d+))?")


def games_of_one(sheet: str) -> list[Played]:
    """Player 1's games against players 2, 3, ... from a sheet of tokens in the order
    played: ``W`` a win, ``D`` a draw, ``L`` a loss, ``?`` in progress; ``+7`` after one:
    player 1 went berserk and made 7 moves (without it, 30 moves and no berserk). Player 1
    has black in the odd games, white in the even ones, so both colours are read."""
    games = []
    for index, token in enumerate(sheet.split()):
        found = TOKEN.fullmatch(token)
        assert found is not None, token
        berserk = found["moves"] is not None
        moves = int(found["moves"]) if berserk else 30
        black = index % 2 == 0
        mine: Result = "black" if black else "white"
        theirs: Result = "white" if black else "black"
        results: dict[str, Result | None] = {"W": mine, "L": theirs, "D": "draw", "?": None}
        result = results[found["outcome"]]
        opponent = index + 2
        games.append(
            Played(
                round=index + 1,
                black=1 if black else opponent,
                white=opponent if black else 1,
                result=result,
                black_moves=moves if black else 30,
                white_moves=30 if black else moves,
                black_berserk=berserk and black,
                white_berserk=berserk and not black,
            )
        )
    return games


def standing_of_one(sheet: str) -> ArenaStanding:
    games = games_of_one(sheet)
    entrants = [Entrant(id, 1500.0) for id in range(1, len(games) + 2)]
    return arena_scores(entrants, games)[1]


# (the rule, player 1's sheet, the points of each finished game, on fire after it)
SCORING = [
    ("a win is 2, a draw 1, a loss 0", "W D L", (2, 1, 0), False),
    ("two wins: on fire, not yet scoring double", "W W", (2, 2), True),
    ("fire: two wins then a win scores double", "W W W", (2, 2, 4), True),
    ("the fire stays lit while winning", "W W W W", (2, 2, 4, 4), True),
    ("a draw on fire scores double, then the fire is out", "W W D W", (2, 2, 2, 2), False),
    ("a loss on fire scores nothing and puts it out", "W W L W W W", (2, 2, 0, 2, 2, 4), True),
    ("a win, a draw, a win: no fire", "W D W W", (2, 1, 2, 2), True),
    ("berserk with 7 moves: a win is 3", "W+7", (3,), False),
    ("berserk with 6 moves: no bonus", "W+6", (2,), False),
    ("berserk as white with 7 moves", "L W+7", (0, 3), False),
    ("berserk on fire with 7 moves: 4 + 1", "W W W+7", (2, 2, 5), True),
    ("berserk on fire with 6 moves: 4", "W W W+6", (2, 2, 4), True),
    ("a berserk draw has no bonus", "D+40", (1,), False),
    ("a berserk loss has no bonus", "L+40", (0,), False),
    ("a berserk win counts for the streak", "W+3 W+3 W", (2, 2, 4), True),
    ("a game in progress scores nothing yet", "W W ?", (2, 2), True),
]


@pytest.mark.parametrize(
    ("sheet", "points", "fire"), [row[1:] for row in SCORING], ids=[row[0] for row in SCORING]
)
def test_scoring(sheet: str, points: tuple[int, ...], fire: bool) -> None:
    standing = standing_of_one(sheet)
    assert (standing.points, standing.score, standing.fire) == (points, sum(points), fire)


# (player 1's games, its score sheet: (points, on fire when it began, berserk) a game)
SHEETS = [
    ("a win, a draw, a loss", "W D L", [(2, False, False), (1, False, False), (0, False, False)]),
    (
        "the third win begins on fire and scores double",
        "W W W",
        [(2, False, False), (2, False, False), (4, True, False)],
    ),
    (
        "a loss on fire is marked on fire, the next game not",
        "W W L W",
        [(2, False, False), (2, False, False), (0, True, False), (2, False, False)],
    ),
    ("a berserk win of 7 moves", "W+7", [(3, False, True)]),
    ("a berserk loss is marked berserk all the same", "L+9", [(0, False, True)]),
    (
        "a game being played: no points yet",
        "W W ?",
        [(2, False, False), (2, False, False), (None, True, False)],
    ),
]


@pytest.mark.parametrize(
    ("sheet", "lines"), [row[1:] for row in SHEETS], ids=[row[0] for row in SHEETS]
)
def test_the_score_sheet(sheet: str, lines: list[tuple[int | None, bool, bool]]) -> None:
    found = arena_sheet(1, games_of_one(sheet))
    assert [(line.points, line.fire, line.berserk) for line in found] == lines
    assert [line.round for line in found] == list(range(1, len(lines) + 1))
    # The standing's points are the sheet's, games being played left out.
    assert standing_of_one(sheet).points == tuple(p for p, _, _ in lines if p is not None)


def test_an_arena_sheet_refuses_a_bye() -> None:
    with pytest.raises(ValueError):
        arena_sheet(1, [Played(1, 1, None, "bye")])


@pytest.mark.parametrize(("sheet", "streak"), [("", 0), ("W W L", 0), ("L W W W", 3), ("W D W", 1)])
def test_the_streak_is_the_wins_in_a_row_at_the_end(sheet: str, streak: int) -> None:
    assert standing_of_one(sheet).streak == streak


def test_the_games_in_progress_at_the_end_count_once_they_end() -> None:
    playing = standing_of_one("W W ?")
    ended = standing_of_one("W W W")
    assert (playing.score, ended.score) == (4, 8)


def test_the_games_are_read_in_the_order_of_round_not_of_the_list() -> None:
    games = games_of_one("L W W W")
    table = arena_scores([Entrant(id, 1500.0) for id in range(1, 6)], reversed(games))
    assert table[1].points == (0, 2, 2, 4)


def test_berserk_counts_for_the_berserker_only() -> None:
    games = [Played(1, 1, 2, "white", black_berserk=True, black_moves=20, white_moves=20)]
    table = arena_scores([Entrant(1, 1500.0), Entrant(2, 1500.0)], games)
    assert (table[1].points, table[2].points) == ((0,), (2,))


def test_both_players_are_scored_from_one_game() -> None:
    games = [Played(1, 1, 2, "draw"), Played(2, 3, 1, "black")]
    table = arena_scores([Entrant(id, 1500.0) for id in (1, 2, 3)], games)
    assert {id: s.points for id, s in table.items()} == {1: (1, 0), 2: (1,), 3: (2,)}


def test_colours_count_games_in_progress() -> None:
    games = [Played(1, 1, 2, "draw"), Played(2, 1, 3, None), Played(3, 4, 2, None)]
    table = arena_scores([Entrant(id, 1500.0) for id in (1, 2, 3, 4)], games)
    assert [(table[id].blacks, table[id].whites) for id in (1, 2, 3, 4)] == [
        (2, 0),
        (0, 2),
        (0, 1),
        (1, 0),
    ]


RESULT_FOR_BLACK: dict[str, Result] = {"W": "black", "L": "white", "D": "draw"}

# (the games of player 1 as (opponent's rating, result for 1), its performance)
PERFORMANCES = [
    ("no finished game: none", [], None),
    ("a win: the opponent's rating + 500", [(1600.0, "W")], 2100.0),
    ("a loss: - 500", [(1600.0, "L")], 1100.0),
    ("a draw: the opponent's rating", [(1600.0, "D")], 1600.0),
    ("the mean over the games", [(1600.0, "W"), (1400.0, "L")], 1500.0),
]


@pytest.mark.parametrize(
    ("games", "performance"),
    [row[1:] for row in PERFORMANCES],
    ids=[row[0] for row in PERFORMANCES],
)
def test_performance(games: list[tuple[float, str]], performance: float | None) -> None:
    entrants = [Entrant(1, 1500.0)] + [
        Entrant(index + 2, rating) for index, (rating, _) in enumerate(games)
    ]
    played = [
        Played(index + 1, 1, index + 2, RESULT_FOR_BLACK[result])
        for index, (_, result) in enumerate(games)
    ]
    assert arena_scores(entrants, played)[1].performance == performance


@pytest.mark.parametrize(
    ("entrants", "games"),
    [
        ([Entrant(1, 1500.0)], [Played(1, 1, 2, "black")]),
        ([Entrant(1, 1500.0)], [Played(1, 1, None, "bye")]),
    ],
    ids=["a player who is not an entrant", "a bye"],
)
def test_refused(entrants: list[Entrant], games: list[Played]) -> None:
    with pytest.raises(ValueError):
        arena_scores(entrants, games)


def test_last_opponents_are_of_the_latest_game_in_progress_or_not() -> None:
    games = [Played(2, 1, 3, None), Played(1, 1, 2, "black"), Played(1, 4, 5, "draw")]
    assert last_opponents(games) == {1: 3, 2: 1, 3: 1, 4: 5, 5: 4}


def arena(id: int, score: int, performance: float | None, rating: float = 1500.0) -> ArenaStanding:
    return ArenaStanding(id, rating, score, (), 0, False, performance, 0, 0)


# (the rule, the standings, the (rank, id) best first)
RANKING = [
    ("score first", [arena(1, 4, 2500.0), arena(2, 6, 1200.0)], [(1, 2), (2, 1)]),
    ("then performance", [arena(1, 4, 1800.0), arena(2, 4, 1900.0)], [(1, 2), (2, 1)]),
    (
        "the rating stands in for a missing performance",
        [arena(1, 0, None, rating=1700.0), arena(2, 0, 1650.0)],
        [(1, 1), (2, 2)],
    ),
    ("equal in both: a shared rank", [arena(2, 4, 1800.0), arena(1, 4, 1800.0)], [(1, 1), (1, 2)]),
]


@pytest.mark.parametrize(
    ("standings", "expected"), [row[1:] for row in RANKING], ids=[row[0] for row in RANKING]
)
def test_arena_rank(standings: list[ArenaStanding], expected: list[tuple[int, int]]) -> None:
    assert [(place, s.id) for place, s in arena_rank(standings)] == expected


END = datetime.datetime(2026, 5, 1, 12, 0, tzinfo=datetime.UTC)


@pytest.mark.parametrize(
    ("now", "allowed"),
    [
        ("11:00:00", True),
        ("11:58:59", True),
        ("11:59:00", False),  # the last minute has begun
        ("11:59:30", False),
        ("12:00:00", False),
        ("12:05:00", False),
    ],
)
def test_no_new_pairing_in_the_last_minute(now: str, allowed: bool) -> None:
    at = datetime.datetime.combine(END.date(), datetime.time.fromisoformat(now), END.tzinfo)
    assert arena_can_pair(at, END) is allowed


# Pairing

LETTERS = "abcdefgh"


def free_players(line: str) -> tuple[list[Entrant], dict[int, ArenaStanding]]:
    """Free players written ``a:10/1500`` (player a, score 10, rating 1500), a to h as
    ids 1 to 8."""
    entrants, standings = [], {}
    for token in line.split():
        name, rest = token.split(":")
        score, rating = rest.split("/")
        id = LETTERS.index(name) + 1
        entrants.append(Entrant(id, float(rating)))
        standings[id] = ArenaStanding(id, float(rating), int(score), (), 0, False, None, 0, 0)
    return entrants, standings


def named(pairs: list[tuple[int, int]]) -> set[frozenset[str]]:
    return {frozenset(LETTERS[id - 1] for id in pair) for pair in pairs}


# (the rule, the free players, last opponents "ab" (a's last was b), the pairs expected)
PAIRING = [
    ("nobody", "", "", ""),
    ("one alone waits", "a:0/1500", "", ""),
    ("two free players play", "a:0/1500 b:0/1500", "", "ab"),
    ("never the same opponent twice in a row: both wait", "a:0/1500 b:0/1500", "ab ba", ""),
    ("one remembering is enough", "a:0/1500 b:0/1500", "ab", ""),
    ("the other remembering too", "a:0/1500 b:0/1500", "ba", ""),
    ("a met b before, but not last: they play", "a:0/1500 b:0/1500", "ac bc", "ab"),
    ("the odd one out waits: the last one free", "a:0/1900 b:0/1800 c:0/1700", "", "ab"),
    ("the last one free, not the lowest", "c:0/1700 b:0/1800 a:0/1900", "", "bc"),
    (
        "score before rating: leaders meet leaders",
        "a:10/1200 b:10/1300 c:0/2000 d:0/1900",
        "",
        "ab cd",
    ),
    ("rating within a score", "a:4/1500 b:4/1800 c:4/1510 d:4/1790", "", "bd ac"),
    (
        "the last opponents avoided: neighbours swap",
        "a:8/1500 b:6/1500 c:4/1500 d:2/1500",
        "ab",
        "ac bd",
    ),
    (
        "two pairs of last opponents avoided",
        "a:8/1500 b:6/1500 c:4/1500 d:2/1500",
        "ab ba cd dc",
        "ac bd",
    ),
    (
        "of five the last one free waits, the others avoid their last opponents",
        "a:8/1500 b:6/1500 c:4/1500 d:2/1500 e:0/1500",
        "ab ba",
        "ac bd",
    ),
    (
        "the last one free plays one left over, the nearer",
        "a:6/1500 b:6/1500 c:0/1500",
        "ab ba",
        "bc",
    ),
]


def opponents_from(line: str) -> dict[int, int | None]:
    """Last opponents written ``ab`` (a's last opponent was b)."""
    return {LETTERS.index(pair[0]) + 1: LETTERS.index(pair[1]) + 1 for pair in line.split()}


@pytest.mark.parametrize(
    ("free", "last", "expected"), [row[1:] for row in PAIRING], ids=[row[0] for row in PAIRING]
)
def test_pair_arena(free: str, last: str, expected: str) -> None:
    entrants, standings = free_players(free)
    pairs = pair_arena(entrants, standings, opponents_from(last), random.Random(1))
    assert named(pairs) == {frozenset(pair) for pair in expected.split()}


def test_a_player_without_a_standing_counts_0() -> None:
    entrants, standings = free_players("a:6/1500 b:6/1500 c:0/1500")
    entrants.append(Entrant(4, 1500.0))
    assert named(pair_arena(entrants, standings, {}, random.Random(1))) == {
        frozenset("ab"),
        frozenset("cd"),
    }


def test_the_best_board_comes_first() -> None:
    entrants, standings = free_players("a:0/1500 b:0/1500 c:9/1500 d:9/1500")
    pairs = pair_arena(entrants, standings, {}, random.Random(1))
    assert [set(pair) for pair in pairs] == [{3, 4}, {1, 2}]


def coloured(blacks: tuple[int, int], whites: tuple[int, int], seed: int) -> tuple[int, int]:
    standings = {
        1: ArenaStanding(1, 1500.0, 0, (), 0, False, None, blacks[0], whites[0]),
        2: ArenaStanding(2, 1500.0, 0, (), 0, False, None, blacks[1], whites[1]),
    }
    entrants = [Entrant(1, 1500.0), Entrant(2, 1500.0)]
    [pair] = pair_arena(entrants, standings, {}, random.Random(seed))
    return pair


# (the rule, blacks of 1 and 2, whites of 1 and 2, (black, white) expected)
COLOURS = [
    ("black to the one who had black less", (3, 1), (1, 3), (2, 1)),
    ("the other way round", (0, 2), (2, 0), (1, 2)),
    ("by balance, not by count", (5, 1), (5, 0), (1, 2)),
]


@pytest.mark.parametrize(
    ("blacks", "whites", "expected"), [row[1:] for row in COLOURS], ids=[row[0] for row in COLOURS]
)
def test_colours(
    blacks: tuple[int, int], whites: tuple[int, int], expected: tuple[int, int]
) -> None:
    assert {coloured(blacks, whites, seed) for seed in range(20)} == {expected}


def test_equal_balances_toss_a_coin() -> None:
    assert {coloured((2, 1), (2, 1), seed) for seed in range(20)} == {(1, 2), (2, 1)}


def test_a_player_free_twice_is_refused() -> None:
    with pytest.raises(ValueError):
        pair_arena([Entrant(1, 1500.0), Entrant(1, 1500.0)], {}, {}, random.Random(1))


def check_wave(
    free: list[Entrant], last: dict[int, int | None], pairs: list[tuple[int, int]]
) -> None:
    """The rules every wave keeps: only free players, each at most once, never against the
    last opponent, and nobody left waiting who could have played another one waiting."""
    paired = [player for pair in pairs for player in pair]
    assert len(paired) == len(set(paired))
    assert set(paired) <= {entrant.id for entrant in free}
    for a, b in pairs:
        assert last.get(a) != b and last.get(b) != a
    waiting = [entrant.id for entrant in free if entrant.id not in paired]
    for index, a in enumerate(waiting):
        for b in waiting[index + 1 :]:
            assert last.get(a) == b or last.get(b) == a, (a, b)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(min_value=0, max_value=40).flatmap(
        lambda count: st.tuples(
            st.lists(st.integers(0, 30), min_size=count, max_size=count),
            st.lists(st.integers(1000, 2200), min_size=count, max_size=count),
            st.lists(st.integers(0, count + 1), min_size=count, max_size=count),
        )
    ),
    st.integers(0, 2**32),
)
def test_every_wave_keeps_the_rules(
    players: tuple[list[int], list[int], list[int]], seed: int
) -> None:
    scores, ratings, lasts = players
    free = [Entrant(id, float(rating)) for id, rating in enumerate(ratings, start=1)]
    standings = {
        id: ArenaStanding(id, float(rating), score, (), 0, False, None, 0, 0)
        for id, (score, rating) in enumerate(zip(scores, ratings, strict=True), start=1)
    }
    # 0 for no last opponent, and a player may have met one who is busy now (count + 1).
    last: dict[int, int | None] = {
        id: other or None for id, other in enumerate(lasts, start=1) if other != id
    }
    check_wave(free, last, pair_arena(free, standings, last, random.Random(seed)))


def test_a_wave_larger_than_a_group_keeps_the_rules() -> None:
    rng = random.Random(7)
    free = [Entrant(id, rng.gauss(1500, 300)) for id in range(1, 331)]
    standings = {
        entrant.id: ArenaStanding(
            entrant.id, entrant.rating, rng.randrange(0, 40), (), 0, False, None, 0, 0
        )
        for entrant in free
    }
    # Everyone's last opponent is a neighbour in the standings: the hardest case.
    order = sorted(free, key=lambda e: (-standings[e.id].score, -e.rating))
    last: dict[int, int | None] = {}
    for a, b in zip(order[::2], order[1::2], strict=False):
        last[a.id], last[b.id] = b.id, a.id
    pairs = pair_arena(free, standings, last, rng)
    check_wave(free, last, pairs)
    assert len(pairs) == 165
