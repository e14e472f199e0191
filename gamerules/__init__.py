"""gamerules: the rules of Othello and Go, as a small typed library.

Pure Python (the standard library, and sgfmill for SGF's syntax; no Django, no server),
typed (``py.typed``, ``mypy --strict``). The server checks every move with it; the
replay, the records, the admin's pictures, the engines (``gameengine``), the bots'
bridge (``gtpbot``) and the command line use the same code.

What it does:

- Positions, immutable: ``new_position(kind, size)``; ``position.play(move)`` checks the
  move and returns the next position with its ``Diff`` (the stone or disc placed, the
  discs flipped, the stones captured); ``legal_moves()``, ``to_move``, ``is_over``;
  snapshots to store a position and read it back (``position_from_snapshot``).
  ``othello`` (any even size from 4) and ``go`` (odd sizes 3 to 19, positional superko,
  no suicide, area or territory counting with the dead stones given) each say in their
  docstrings which rules they enforce and which they leave to the caller.
- ``Move.place(point)`` and ``Move.pass_turn()``; ``Color``; points are ``(row, col)``
  from the top-left. Errors subclass ``ValueError``: ``InvalidMoveError`` for a move
  that cannot be read, ``IllegalMoveError`` for one the rules forbid, both
  ``RulesError``, whose message is an English template a caller may translate.
- ``clock``: each side's clock as a value, charged with the time the caller passes in.
- ``sgf``: records in and out (SGF for both games, Othello's transcripts), every move
  checked.
- ``python -m gamerules FORMAT``: the command-line formats (``cli``), reading standard
  input and writing standard output. ``python -m games.rules`` is its old name.

>>> position = new_position("othello", 8)
>>> position, diff = position.play(Move.place((2, 3)))
>>> diff.flipped
((3, 3),)
>>> position.play(Move.place((0, 0)))
Traceback (most recent call last):
    ...
gamerules.base.IllegalMoveError: a1 flips nothing

What it does not do: choose a move (``gameengine`` does), store a game, read a clock
(the caller passes the milliseconds in), resign or agree on dead stones for the
players (``go.score`` takes them as given, ``go.estimate_dead`` only guesses), nor
translate its messages (the server does, from their templates).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gamerules.base import gettext_noop

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
