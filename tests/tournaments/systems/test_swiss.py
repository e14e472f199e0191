"""tournaments.systems.swiss: scores, tiebreaks and pairings, against crosstables a person
can check (``swiss_tables`` says how they are written)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.systems.swiss_tables import (
    crosstable,
    field,
    id_of,
    letter_of,
    pairings_text,
)
from tournaments.systems import swiss
from tournaments.systems.records import Entrant, PairingError, Played, Result
from tournaments.systems.swiss import (
    OTHELLO_TIEBREAKS,
    Colour,
    Due,
    due,
    pair_swiss,
    swiss_scores,
)

GAME_RESULTS: list[Result] = ["black", "white", "draw"]

FOUR = field("a:2000 b:1900 c:1800 d:1700")
FIVE = field("a:2000 b:1900 c:1800 d:1700 e:1600")
SIX = field("a:2000 b:1900 c:1800 d:1700 e:1600 f:1500")
EIGHT = field("a:2000 b:1900 c:1800 d:1700 e:1600 f:1500 g:1400 h:1300")


def table(
    entrants: list[Entrant], games: list[Played], discs: bool = False
) -> dict[str, tuple[float, ...]]:
    """Each player's score and tiebreaks, by letter."""
    return {
        letter_of(id): (standing.score, *standing.tiebreaks.values())
        for id, standing in swiss_scores(entrants, games, discs=discs).items()
    }


# Scores and tiebreaks

# A round robin of four, by hand:
#          a    b    c    d   score  Buchholz        Sonneborn-Berger
#   a      -    1    1    ½   2.5    2+.5+1 = 3.5    2 + .5 + ½x1 = 3
#   b      0    -    1    1   2      2.5+.5+1 = 4    .5 + 1 = 1.5
#   c      0    0    -    ½   0.5    2.5+2+1 = 5.5   ½x1 = .5
#   d      ½    0    ½    -   1      2.5+2+.5 = 5    ½x2.5 + ½x.5 = 1.5
ROUND_ROBIN = crosstable("ab 1-0, cd =", "ca 0-1, bd 1-0", "ad =, bc 1-0")

# Five players and byes, by hand:
#   round 1: a beat b, c drew d, e bye; round 2: a drew c, e (white) beat b, d bye
#          score  Buchholz (a bye: nothing)   Sonneborn-Berger
#   a      1.5    b 0 + c 1 = 1               b 0 + ½ c 1 = .5
#   b      0      a 1.5 + e 2 = 3.5           0
#   c      1      d 1.5 + a 1.5 = 3           ½x1.5 + ½x1.5 = 1.5
#   d      1.5    c 1 = 1                     ½ c 1 = .5
#   e      2      b 0 = 0                     b 0 = 0
WITH_BYES = crosstable("ab 1-0, cd =, e bye", "ac =, be 0-1, d bye")

SCORES = [
    (
        "a round robin of four",
        FOUR,
        ROUND_ROBIN,
        {
            "a": (2.5, 3.5, 3.0),
            "b": (2.0, 4.0, 1.5),
            "c": (0.5, 5.5, 0.5),
            "d": (1.0, 5.0, 1.5),
        },
    ),
    (
        "a bye is worth a win and adds nothing to the tiebreaks",
        FIVE,
        WITH_BYES,
        {
            "a": (1.5, 1.0, 0.5),
            "b": (0.0, 3.5, 0.0),
            "c": (1.0, 3.0, 1.5),
            "d": (1.5, 1.0, 0.5),
            "e": (2.0, 0.0, 0.0),
        },
    ),
    (
        "a game in progress counts for nothing yet",
        FOUR,
        crosstable("ab 1-0, cd ?"),
        {"a": (1.0, 0.0, 0.0), "b": (0.0, 1.0, 0.0), "c": (0.0, 0.0, 0.0), "d": (0.0, 0.0, 0.0)},
    ),
    (
        "nothing played",
        FOUR[:2],
        [],
        {"a": (0.0, 0.0, 0.0), "b": (0.0, 0.0, 0.0)},
    ),
]


@pytest.mark.parametrize(
    ("entrants", "games", "expected"), [row[1:] for row in SCORES], ids=[row[0] for row in SCORES]
)
def test_scores_buchholz_and_sonneborn_berger(
    entrants: list[Entrant], games: list[Played], expected: dict[str, tuple[float, ...]]
) -> None:
    assert table(entrants, games) == expected


def test_the_tiebreaks_come_in_their_order() -> None:
    standing = swiss_scores(FOUR, ROUND_ROBIN, discs=True)[id_of("a")]
    assert tuple(standing.tiebreaks) == OTHELLO_TIEBREAKS


# Discs: round 1 a beat b 40 to 24, c and d drew 32 all; round 2 d (black) beat a 35 to
# 29, b beat c 64 to 0 (a wipe-out); round 3 a beat c with no disc count, e had the bye.
#   a: +16 - 6 = 10; b: -16 + 64 = 48; c: 0 - 64 = -64; d: 0 + 6 = 6; e: 0
DISCS = crosstable("ab 40:24, cd 32:32", "da 35:29, bc 64:0", "ac 1-0, e bye")


def test_disc_difference() -> None:
    found = {letter: row[-1] for letter, row in table(FIVE, DISCS, discs=True).items()}
    assert found == {"a": 10, "b": 48, "c": -64, "d": 6, "e": 0}


def test_go_has_no_disc_difference() -> None:
    assert all(len(row) == 3 for row in table(FIVE, DISCS).values())


def test_a_game_naming_someone_who_is_not_an_entrant_is_refused() -> None:
    with pytest.raises(ValueError):
        swiss_scores(FOUR[:2], ROUND_ROBIN)


# Colours

# (the colours so far, the colour due)
DUES: list[tuple[tuple[Colour, ...], Due]] = [
    ((), Due(None, None, 0)),
    (("black",), Due(None, "white", 1)),
    (("black", "white"), Due(None, "black", 0)),
    (("black", "black"), Due("white", "white", 2)),
    (("white", "white"), Due("black", "black", 2)),
    (("black", "white", "white"), Due("black", "black", 1)),
    (("black", "black", "white"), Due(None, "white", 1)),
    (("white", "black", "black", "white"), Due(None, "black", 0)),
]


@pytest.mark.parametrize(("colours", "expected"), DUES)
def test_the_colour_due(colours: tuple[Colour, ...], expected: Due) -> None:
    assert due(colours) == expected


# Pairing

# (the rule, the players, the rounds so far, the pairings expected: black first, best
# board first, then the bye)
PAIRINGS = [
    (
        "round 1: the top half meets the bottom half, colours alternating down the boards",
        EIGHT,
        [],
        "ae fb cg hd",
        None,
    ),
    (
        "score groups: leaders meet leaders",
        EIGHT,
        crosstable("ae 1-0, fb 0-1, cg 1-0, hd 0-1"),
        "da bc eh gf",
        None,
    ),
    (
        "no rematch: all drew, so the Dutch partners of round 1 are not met again",
        FOUR,
        crosstable("ac =, db ="),
        "ba cd",
        None,
    ),
    (
        "a player who had black twice gets white",
        FOUR,
        crosstable("ac 1-0, db 0-1", "ab 1-0, cd 1-0"),
        "da bc",
        None,
    ),
    (
        "two leaders who both must have black cannot meet: each floats down with black",
        SIX,
        crosstable("ca 0-1, db 0-1, ef =", "ea 0-1, fb 0-1, cd ="),
        "af bc de",
        None,
    ),
    (
        "an odd player out: the bye to the lowest",
        FIVE,
        [],
        "ac db",
        "e",
    ),
    (
        "the lowest has had a bye: the next one up without one gets it",
        FIVE,
        crosstable("ab =, cd =, e bye", "ae 1-0, bc =, d bye"),
        "da eb",
        "c",
    ),
    (
        "the bye goes up when the others could not be paired without a rematch",
        field("a:2000 b:1900 c:1800"),
        crosstable("ab 1-0"),
        "ca",
        "b",
    ),
    (
        "a withdrawn player's games stay, and it is paired no more",
        FOUR,
        crosstable("ac 1-0, db 0-1, e bye"),
        "ba cd",
        None,
    ),
]


@pytest.mark.parametrize(
    ("entrants", "games", "pairings", "bye"),
    [row[1:] for row in PAIRINGS],
    ids=[row[0] for row in PAIRINGS],
)
def test_pair_swiss(
    entrants: list[Entrant], games: list[Played], pairings: str, bye: str | None
) -> None:
    round_number = max((game.round for game in games), default=0) + 1
    made = pair_swiss(entrants, games, round_number)
    assert (pairings_text(made.pairings), made.bye) == (
        pairings,
        None if bye is None else id_of(bye),
    )


# (the rule, the players, the rounds so far)
UNPAIRABLE = [
    (
        "more rounds than players - 1",
        FOUR,
        crosstable("ac 1-0, db =", "ab =, cd 1-0", "ad =, bc ="),
    ),
    ("two players who have met", FOUR[:2], crosstable("ab 1-0")),
    (
        "everyone has had a bye",
        FOUR[:3],
        crosstable("ab 1-0, c bye", "ca =, b bye", "bc 0-1, a bye"),
    ),
    (
        "the only opponent left must have the same colour",
        FOUR,
        crosstable("ca 0-1, db 0-1", "da 0-1, cb 0-1"),
    ),
    ("nobody to pair", [], []),
]


@pytest.mark.parametrize(
    ("entrants", "games"), [row[1:] for row in UNPAIRABLE], ids=[row[0] for row in UNPAIRABLE]
)
def test_a_round_that_cannot_be_paired_is_reported(
    entrants: list[Entrant], games: list[Played]
) -> None:
    round_number = max((game.round for game in games), default=0) + 1
    with pytest.raises(PairingError):
        pair_swiss(entrants, games, round_number)


@pytest.mark.parametrize(
    ("games", "round_number"),
    [
        (crosstable("ab 1-0, cd ?"), 2),
        (crosstable("ab 1-0, cd 1-0"), 1),
    ],
    ids=["a game of the round before in progress", "this round already paired"],
)
def test_refused(games: list[Played], round_number: int) -> None:
    with pytest.raises(ValueError):
        pair_swiss(FOUR, games, round_number)


def test_start_scores_make_the_groups() -> None:
    starts = {id_of("a"): 0.0, id_of("b"): -3.0, id_of("c"): 0.0, id_of("d"): -3.0}
    made = pair_swiss(FOUR, [], 1, start_scores=starts)
    assert {frozenset(pair) for pair in made.pairings} == {
        frozenset((id_of("a"), id_of("c"))),
        frozenset((id_of("b"), id_of("d"))),
    }


# Properties over whole tournaments of random results


def valid_pairings(
    entrants: list[Entrant], games: list[Played], bye: int | None
) -> Iterator[list[tuple[int, int]]]:
    """Every pairing of ``entrants`` but ``bye`` that keeps the hard rules (no rematch,
    no third colour in a row), tried one by one."""
    ids = [entrant.id for entrant in entrants if entrant.id != bye]
    met: dict[int, set[int]] = {id: set() for id in ids}
    colours: dict[int, list[str]] = {id: [] for id in ids}
    for game in sorted(games, key=lambda game: game.round):
        if game.white is None:
            continue
        for player, opponent, colour in (
            (game.black, game.white, "black"),
            (game.white, game.black, "white"),
        ):
            if player in met:
                met[player].add(opponent)
                colours[player].append(colour)

    def must(player: int) -> str | None:
        last = colours[player][-2:]
        return last[0] if len(last) == 2 and last[0] == last[1] else None

    def pairings(rest: list[int]) -> Iterator[list[tuple[int, int]]]:
        if not rest:
            yield []
            return
        first, others = rest[0], rest[1:]
        for other in others:
            if other in met[first] or (must(first) is not None and must(first) == must(other)):
                continue
            for more in pairings([player for player in others if player != other]):
                yield [(first, other), *more]

    if len(ids) % 2 == 0:
        yield from pairings(ids)


def byes_allowed(entrants: list[Entrant], games: list[Played]) -> list[int | None]:
    """Who may have the bye: nobody for an even count, else those who have had none."""
    if len(entrants) % 2 == 0:
        return [None]
    had = {game.black for game in games if game.white is None}
    return [entrant.id for entrant in entrants if entrant.id not in had]


def valid_pairing_exists(entrants: list[Entrant], games: list[Played]) -> bool:
    """Whether any pairing of ``entrants`` keeps the hard rules, by trying them all."""
    return any(
        next(valid_pairings(entrants, games, bye), None) is not None
        for bye in byes_allowed(entrants, games)
    )


def floats(pairs: Iterable[tuple[int, int]], scores: dict[int, float]) -> int:
    """How many of ``pairs`` join two score groups."""
    return sum(1 for a, b in pairs if scores[a] != scores[b])


def check_round(entrants: list[Entrant], games: list[Played], made_round: int) -> None:
    """The hard rules, over every round so far: each player paired or with the bye once a
    round, nobody meets twice, nobody has the same colour three games running, nobody has
    two byes."""
    ids = {entrant.id for entrant in entrants}
    this_round = [game for game in games if game.round == made_round]
    seated = [player for game in this_round for player in game.players]
    assert sorted(seated) == sorted(ids)
    met: set[frozenset[int]] = set()
    colours: dict[int, str] = {id: "" for id in ids}
    byes: dict[int, int] = dict.fromkeys(ids, 0)
    for game in sorted(games, key=lambda game: game.round):
        if game.white is None:
            byes[game.black] += 1
            continue
        pair = frozenset((game.black, game.white))
        assert pair not in met, f"a rematch in round {game.round}"
        met.add(pair)
        colours[game.black] += "B"
        colours[game.white] += "W"
    assert all("BBB" not in line and "WWW" not in line for line in colours.values()), colours
    assert all(count <= 1 for count in byes.values()), byes


def play(
    entrants: list[Entrant], rounds: int, results: st.DataObject, oracle: bool
) -> list[Played]:
    """A tournament of ``rounds`` with results drawn from ``results``; every round is
    checked. With ``oracle`` (a few players), every pairing is tried by brute force: a
    round that cannot be paired must truly have no valid pairing, and ends the
    tournament; when every allowed pair is offered (``swiss.EXACT_UP_TO``), a round
    paired has no more pairs across score groups than the fewest possible. Without,
    every round must be paired."""
    exact = len(entrants) <= swiss.EXACT_UP_TO
    games: list[Played] = []
    for number in range(1, rounds + 1):
        try:
            made = pair_swiss(entrants, games, number)
        except PairingError:
            assert oracle and not valid_pairing_exists(entrants, games)
            return games
        if oracle and exact:
            # Leaders meet leaders: no valid pairing (with this bye) has fewer floats.
            scores = {id: s.score for id, s in swiss_scores(entrants, games).items()}
            fewest = min(
                floats(pairs, scores) for pairs in valid_pairings(entrants, games, made.bye)
            )
            assert floats(made.pairings, scores) == fewest
        for black, white in made.pairings:
            result: Result = results.draw(st.sampled_from(GAME_RESULTS))
            games.append(Played(number, black, white, result))
        if made.bye is not None:
            games.append(Played(number, made.bye, None, "bye"))
        check_round(entrants, games, number)
    return games


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=9), st.integers(min_value=1, max_value=10), st.data())
def test_small_tournaments_keep_the_rules_and_fail_only_when_they_must(
    count: int, rounds: int, results: st.DataObject
) -> None:
    entrants = [Entrant(id, 2000.0 - 10 * id, joined_order=id) for id in range(1, count + 1)]
    play(entrants, rounds, results, oracle=True)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(1000, 2400), min_size=12, max_size=40),
    st.integers(min_value=1, max_value=5),
    st.data(),
)
def test_larger_tournaments_are_always_paired_within_the_rules(
    ratings: list[int], rounds: int, results: st.DataObject
) -> None:
    entrants = [Entrant(id, float(rating), joined_order=id) for id, rating in enumerate(ratings, 1)]
    play(entrants, rounds, results, oracle=False)


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=1, max_value=9), st.integers(min_value=1, max_value=10), st.data())
def test_the_limited_offers_fall_back_until_the_rules_decide(
    count: int, rounds: int, results: st.DataObject
) -> None:
    """Above ``EXACT_UP_TO`` the first tries offer a few pairs only: made to apply to a
    few players, they still pair every round that can be paired, within the rules."""
    entrants = [Entrant(id, 2000.0 - 10 * id, joined_order=id) for id in range(1, count + 1)]
    with mock.patch.object(swiss, "EXACT_UP_TO", 0):
        play(entrants, rounds, results, oracle=True)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(1000, 2400), min_size=12, max_size=60),
    st.integers(min_value=1, max_value=5),
    st.data(),
)
def test_larger_tournaments_with_limited_offers_are_paired_within_the_rules(
    ratings: list[int], rounds: int, results: st.DataObject
) -> None:
    entrants = [Entrant(id, float(rating), joined_order=id) for id, rating in enumerate(ratings, 1)]
    with mock.patch.object(swiss, "EXACT_UP_TO", 0):
        play(entrants, rounds, results, oracle=False)
