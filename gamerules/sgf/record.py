"""A game record as plain values: who played, the moves, how it ended (sgfmill's
``Sgf_game`` holds the same as a tree of nodes; ours is one line of play).

``GameRecord`` is what ``gamerules.sgf.reading`` reads from a file and
``gamerules.sgf.writing`` and ``gamerules.sgf.transcripts`` write; ``Setup`` is a start
position other than the game's own; ``MoveClock`` the time a mover had left.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from gamerules.base import Color, Move, Point, RulesError
from gamerules.clock import TimeControl

__all__ = [
    "GAME_NAMES",
    "GAME_NUMBERS",
    "IMPORT_SIZES",
    "GameKind",
    "GameRecord",
    "MoveClock",
    "RecordError",
    "Setup",
]

GameKind = Literal["go", "othello"]

GAME_NUMBERS: dict[GameKind, int] = {"go": 1, "othello": 2}
"""The SGF ``GM`` number of each game."""

IMPORT_SIZES: dict[GameKind, range] = {"go": range(3, 20, 2), "othello": range(4, 17, 2)}
"""The board sizes a file may have: Go odd 3 to 19, Othello even 4 to 16."""

GAME_NAMES: dict[GameKind, str] = {"go": "Go", "othello": "Othello"}
"""Each game's name, as the messages say it."""

_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class RecordError(RulesError):
    """A record that cannot be read, or whose moves break the rules; the message says where."""


@dataclass(frozen=True)
class Setup:
    """A start position other than the game's own, as a record lays it out.

    ``rows`` is the board before the first move (``.``, ``B``, ``W``), ``to_move`` the
    side that plays first, ``handicap`` the record's ``HA`` (None when it has none).
    ``to_json``/``from_json`` keep it as plain data.

    >>> setup = Setup(("B..", "...", "..."), Color.WHITE, handicap=1)
    >>> Setup.from_json(setup.to_json()) == setup
    True
    """

    rows: tuple[str, ...]
    to_move: Color
    handicap: int | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"rows": [...], "to_move": "white", "handicap": 2}`` (``handicap`` may be None)."""
        return {"rows": list(self.rows), "to_move": self.to_move.value, "handicap": self.handicap}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Setup:
        """The setup saved by ``to_json``."""
        return cls(tuple(data["rows"]), Color(data["to_move"]), data.get("handicap"))


class MoveClock(NamedTuple):
    """A mover's time left after its move, as SGF's ``BL``/``WL`` and ``OB``/``OW`` say:
    ``remaining_ms`` (main time, or the current period once in overtime) and, in
    overtime, ``overtime_left`` (byo-yomi periods or Canadian stones), else None."""

    remaining_ms: int
    overtime_left: int | None = None


@dataclass(frozen=True)
class GameRecord:
    """One game as a record: who played, the moves, and how it ended.

    ``moves`` are ``(colour, move)`` pairs in the order played, passes
    included (Othello's automatic passes too). ``komi`` is Go's: a Go file
    without ``KM`` reads as 0, and Othello's is always None. ``result`` reads
    ``B+3.5``, ``W+R``, ``Draw`` and so on, None when unknown. ``date`` is
    ``DT`` as written (``played_on`` reads it). For a scored Go game, ``dead`` are the stones agreed
    dead and ``territory`` the points each colour owns (a colour without
    territory has no key). ``game_name`` is ``GN``, ``comment`` is ``GC``.
    ``setup`` is the start position when it is not the game's own, None otherwise.
    ``time_control`` is the clock (``TM`` and ``OT``; None without one, or one the record
    names in words this module does not read); ``clocks``, when not empty, the mover's
    time left after each move of ``moves`` (None where the record does not say).
    ``comments`` are the nodes' ``C``: the text said after the first N moves, by N (0
    is the root's, before any move).
    """

    kind: GameKind
    size: int
    moves: tuple[tuple[Color, Move], ...] = ()
    black_name: str | None = None
    white_name: str | None = None
    komi: float | None = None
    result: str | None = None
    date: str | None = None
    dead: frozenset[Point] = frozenset()
    territory: Mapping[Color, frozenset[Point]] = field(default_factory=dict)
    game_name: str | None = None
    comment: str | None = None
    setup: Setup | None = None
    time_control: TimeControl | None = None
    clocks: tuple[MoveClock | None, ...] = ()
    comments: Mapping[int, str] = field(default_factory=dict)

    @property
    def played_on(self) -> datetime.date | None:
        """The first day ``date`` names, when it names a whole day; None otherwise.

        ``DT`` is ``YYYY-MM-DD``, or several dates (``1996-05-06,07``: the first is
        taken), or a part of one (``1996``, ``1996-05``: no day), or free text.

        >>> GameRecord(kind="go", size=9, date="1996-05-06,07").played_on
        datetime.date(1996, 5, 6)
        >>> GameRecord(kind="go", size=9, date="1996-05").played_on is None
        True
        """
        first = (self.date or "").split(",")[0].strip()
        if not _DAY.fullmatch(first):
            return None
        try:
            return datetime.date.fromisoformat(first)
        except ValueError:
            return None
