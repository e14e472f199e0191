"""Crosstables written as text, for the Swiss and McMahon tests.

Players are letters, ``a`` to ``l`` (ids 1 to 12); a round is a line of pairings, black
first: ``ab 1-0`` (black won), ``ab 0-1`` (white won), ``ab =`` (a draw), ``ab ?`` (in
progress), ``ab 40:24`` (an Othello game's discs, black's first: black won), ``e bye``.
"""

from __future__ import annotations

from tournaments.systems.ranks import parse_rank
from tournaments.systems.records import Entrant, Played, Result

LETTERS = "abcdefghijkl"


def id_of(letter: str) -> int:
    return LETTERS.index(letter) + 1


def letter_of(id: int) -> str:
    return LETTERS[id - 1]


def crosstable(*rounds: str) -> list[Played]:
    """The pairings of ``rounds`` (round 1 first), each a line as the module says."""
    games = []
    for number, line in enumerate(rounds, start=1):
        for pairing in filter(None, (part.strip() for part in line.split(","))):
            players, outcome = pairing.split()
            if outcome == "bye":
                games.append(Played(number, id_of(players), None, "bye"))
                continue
            black, white = id_of(players[0]), id_of(players[1])
            discs: tuple[int | None, int | None] = (None, None)
            if ":" in outcome:
                black_discs, white_discs = (int(count) for count in outcome.split(":"))
                discs = (black_discs, white_discs)
                outcome = "1-0" if black_discs > white_discs else "0-1"
                if black_discs == white_discs:
                    outcome = "="
            result: Result | None = {"1-0": "black", "0-1": "white", "=": "draw", "?": None}[
                outcome
            ]
            games.append(Played(number, black, white, result, *discs))
    return games


def field(ratings: str) -> list[Entrant]:
    """Entrants written ``a:2000 b:1900 ...`` (a letter and a rating), joined in that
    order; ``a:2000/3d`` gives a Go rank too (its number, as ``ranks.parse_rank``)."""
    entrants = []
    for order, token in enumerate(ratings.split()):
        name, rest = token.split(":")
        rating, _, rank = rest.partition("/")
        entrants.append(
            Entrant(id_of(name), float(rating), parse_rank(rank) if rank else None, order)
        )
    return entrants


def pairings_text(pairings: tuple[tuple[int, int], ...]) -> str:
    """Pairings as ``ab cd``: black first, best boards first."""
    return " ".join(letter_of(black) + letter_of(white) for black, white in pairings)
