"""McMahon (Go clubs): a Swiss on McMahon scores, which start from the players' ranks.

A player's start score is its rank's distance below the bar: 0 at or above the bar, each
rank below one less (``min(0, rank - bar)``, ranks as ``ranks`` numbers: 30k = 0 ..
9d = 38). A ``floor`` (a rank) may be given: every rank below it starts as the floor does
(the "bottom bar" of Go congresses); without one, every rank counts.

The McMahon score is the start score plus the points (1 / 0.5 / 0, a bye 1). Pairing is
``swiss.pair_swiss`` on McMahon scores, with all its rules. Tiebreaks, in order:

- ``sos``: the sum of the McMahon scores of the opponents met in finished games
  (``swiss.buchholz`` on McMahon scores);
- ``sodos``: the sum of the McMahon scores of the opponents beaten, plus half those of
  the opponents drawn (a jigo) (``swiss.sonneborn_berger`` on McMahon scores).

A bye adds nothing to either, as in the Swiss.

>>> from tournaments.systems.ranks import parse_rank
>>> players = [Entrant(1, 2000.0, rank=parse_rank("4d")), Entrant(2, 1500.0, rank=parse_rank("6k"))]
>>> start_scores(players, bar=parse_rank("2d"))
{1: 0, 2: -7}
>>> start_scores(players, bar=parse_rank("2d"), floor=parse_rank("3k"))
{1: 0, 2: -4}
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tournaments.systems.records import Entrant, Played, Standing
from tournaments.systems.swiss import SwissRound, pair_swiss, standings

TIEBREAKS: tuple[str, str] = ("sos", "sodos")


def start_scores(
    entrants: Iterable[Entrant], bar: int, *, floor: int | None = None
) -> dict[int, int]:
    """Each entrant's start score by id: ``min(0, rank - bar)``, a rank below ``floor``
    counted as ``floor``.

    Raises ValueError for an entrant without a rank, or a floor above the bar.
    """
    if floor is not None and floor > bar:
        raise ValueError(f"the floor ({floor}) is above the bar ({bar})")
    found = {}
    for entrant in entrants:
        if entrant.rank is None:
            raise ValueError(f"entrant {entrant.id} has no rank")
        rank = entrant.rank if floor is None else max(floor, entrant.rank)
        found[entrant.id] = min(0, rank - bar)
    return found


def mcmahon_scores(
    entrants: Iterable[Entrant], games: Iterable[Played], bar: int, *, floor: int | None = None
) -> dict[int, Standing]:
    """Every entrant's standing by id: its McMahon score, ``sos`` and ``sodos``. Games in
    progress count for nothing yet.

    Raises ValueError for an entrant without a rank, a floor above the bar, or a game
    naming a player who is not an entrant.
    """
    entrants = list(entrants)
    return standings(entrants, games, start_scores(entrants, bar, floor=floor), TIEBREAKS)


def pair_mcmahon(
    entrants: Sequence[Entrant],
    games: Iterable[Played],
    round_number: int,
    bar: int,
    *,
    floor: int | None = None,
) -> SwissRound:
    """The pairings of round ``round_number``: ``swiss.pair_swiss`` on McMahon scores
    (the bye to the lowest McMahon score without one).

    Raises what ``pair_swiss`` and ``start_scores`` raise.
    """
    starts = start_scores(entrants, bar, floor=floor)
    return pair_swiss(entrants, games, round_number, start_scores=dict(starts))
