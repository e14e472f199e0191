"""The rules of Othello and Go: pure Python, no Django, used by everyone.

The server validates every move here; the replay, the exports, the admin
pictures and the command line (``python -m games.rules``) use the same code.

>>> position = new_position("othello", 8)
>>> position, diff = position.play(Move.place((2, 3)))
>>> diff.flipped
((3, 3),)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.base import gettext_noop

from .base import (
    Color,
    Diff,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Point,
    RulesError,
)
from .go import GoPosition
from .othello import OthelloPosition

Position = OthelloPosition | GoPosition

KINDS: dict[str, type[OthelloPosition] | type[GoPosition]] = {
    "othello": OthelloPosition,
    "go": GoPosition,
}

__all__ = [
    "KINDS",
    "Color",
    "Diff",
    "GoPosition",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "OthelloPosition",
    "Point",
    "Position",
    "RulesError",
    "new_position",
    "position_from_snapshot",
    "setup_position",
    "stones_by_color",
]


def _kind(kind: str) -> type[OthelloPosition] | type[GoPosition]:
    try:
        return KINDS[kind]
    except KeyError:
        raise RulesError(
            gettext_noop("unknown game kind %(kind)s: expected othello or go"), kind=repr(kind)
        ) from None


def new_position(kind: str, size: int) -> Position:
    """The start position of ``kind`` (``othello`` or ``go``) on a ``size`` board.

    Raises ``RulesError`` for an unknown kind or a size the game does not allow.
    """
    return _kind(kind).start(size)


def setup_position(kind: str, size: int, start: Mapping[str, Any] | None) -> Position:
    """The position before a stored game's first move: ``start`` (an imported setup,
    ``{"rows", "to_move"}``) when there is one, else the start of ``kind``."""
    if start is None:
        return new_position(kind, size)
    return _kind(kind).from_rows(start["rows"], Color(start["to_move"]))


def stones_by_color(rows: Sequence[str]) -> dict[Color, list[Point]]:
    """The discs or stones on a board written as ``rows`` (``.``, ``B``, ``W``), by colour,
    row by row (an engine is told a setup this way).

    >>> stones_by_color([".B", "W."])
    {Color.BLACK: [(0, 1)], Color.WHITE: [(1, 0)]}
    """
    stones: dict[Color, list[Point]] = {}
    for row, line in enumerate(rows):
        for col, letter in enumerate(line):
            if letter != ".":
                stones.setdefault(Color.from_letter(letter), []).append((row, col))
    return stones


def position_from_snapshot(kind: str, snapshot: Mapping[str, Any]) -> Position:
    """The position stored as ``snapshot`` (from ``Position.to_snapshot()``)."""
    return _kind(kind).from_snapshot(snapshot)
