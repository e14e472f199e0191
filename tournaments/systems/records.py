"""What the tournament systems are fed, and what a Swiss or McMahon standing is.

The Django layer reads these from its rows: one ``Entrant`` per player who joined, one
``Played`` per pairing so far (games in progress and byes included).

>>> Played(1, black=7, white=None, result="bye").is_bye
True
>>> Played(1, black=7, white=8, result="bye")
Traceback (most recent call last):
...
ValueError: a bye has no white player (black 7, white 8)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

Result = Literal["black", "white", "draw", "bye"]
"""Who won a finished pairing: a colour, a draw, or ``bye`` (a pairing with no game)."""

RESULTS: tuple[Result, ...] = ("black", "white", "draw", "bye")


class PairingError(ValueError):
    """A round or a wave that cannot be paired within the rules; the message says why."""


@dataclass(frozen=True)
class Entrant:
    """A player in a tournament as the pairing sees it.

    ``rating``: the player's rating in the tournament's category; ``rank``: the Go rank as
    a number (``ranks.parse_rank``: 30k = 0 .. 9d = 38), needed by McMahon only;
    ``joined_order``: the order of joining, which settles what ratings leave equal.
    """

    id: int
    rating: float
    rank: int | None = None
    joined_order: int = 0


@dataclass(frozen=True)
class Played:
    """One pairing so far: a game (finished or in progress) or a bye.

    ``round``: the round for a Swiss, a McMahon or a round robin (from 1); for an arena,
    any number that grows with the time the game was made (its id will do), which orders
    each player's games. ``result`` None: the game is in progress. A bye has the player in
    ``black``, ``white`` None and ``result`` "bye". ``black_discs``/``white_discs``: the
    final disc counts of an Othello game (None for Go, or unknown). ``black_moves``/
    ``white_moves``: the moves each side made; ``black_berserk``/``white_berserk``: who
    went berserk (arenas). ``forfeit``: the game was lost by a side that never made its
    first move (at the first-move deadline), won by the other without a game.

    Raises ValueError when the fields contradict each other (a bye with a white player,
    a game without one, a player against itself, an unknown result, a forfeit without a
    winner).
    """

    round: int
    black: int
    white: int | None
    result: Result | None
    black_discs: int | None = None
    white_discs: int | None = None
    black_moves: int = 0
    white_moves: int = 0
    black_berserk: bool = False
    white_berserk: bool = False
    forfeit: bool = False

    def __post_init__(self) -> None:
        if self.result is not None and self.result not in RESULTS:
            raise ValueError(f"unknown result {self.result!r}")
        if self.result == "bye" and self.white is not None:
            raise ValueError(f"a bye has no white player (black {self.black}, white {self.white})")
        if self.white is None and self.result != "bye":
            raise ValueError(f"a game needs a white player (black {self.black})")
        if self.white == self.black:
            raise ValueError(f"player {self.black} cannot play itself")
        if self.forfeit and self.result not in ("black", "white"):
            raise ValueError(f"a forfeit has a winner (round {self.round}, {self.result!r})")

    @property
    def is_bye(self) -> bool:
        """Whether this pairing is a bye."""
        return self.white is None

    @property
    def players(self) -> tuple[int, ...]:
        """Who is in this pairing: black then white (black alone for a bye)."""
        return (self.black,) if self.white is None else (self.black, self.white)

    def colour_of(self, player: int) -> Literal["black", "white"]:
        """The colour ``player`` has in this game; raises ValueError if not in it."""
        if player == self.black and self.white is not None:
            return "black"
        if player == self.white:
            return "white"
        raise ValueError(f"player {player} has no colour in this pairing")

    def opponent_of(self, player: int) -> int | None:
        """The other player of this pairing (None for a bye); raises ValueError if
        ``player`` is not in it."""
        if player == self.black:
            return self.white
        if player == self.white:
            return self.black
        raise ValueError(f"player {player} is not in this pairing")


@dataclass(frozen=True)
class Standing:
    """A player's score and tiebreaks in a Swiss or a McMahon, as the JSON shows them.

    ``score``: Swiss points (1 / 0.5 / 0, a bye 1), McMahon's with the start score;
    ``tiebreaks``: by name, in their order of importance (``swiss.TIEBREAKS``,
    ``mcmahon.TIEBREAKS``).
    """

    id: int
    score: float
    tiebreaks: Mapping[str, float]
