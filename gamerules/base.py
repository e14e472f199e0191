"""Types shared by both games: colours, points, moves, diffs and the errors.

A point is ``(row, col)``, 0-based, row 0 at the top of the board, as in the
server's contract. A board is drawn as rows of ``.`` (empty), ``B`` (black)
and ``W`` (white).
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, Self

Point = tuple[int, int]
Action = Literal["place", "pass"]

EMPTY = "."


class Color(enum.Enum):
    """A side of the game; its value is the contract's spelling."""

    BLACK = "black"
    WHITE = "white"

    @property
    def opponent(self) -> Color:
        """The other side."""
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def letter(self) -> str:
        """``B`` or ``W``, as on a drawn board and in SGF."""
        return "B" if self is Color.BLACK else "W"

    @classmethod
    def from_letter(cls, letter: str) -> Color:
        """The colour drawn as ``B`` or ``W``; raises ``ValueError`` otherwise."""
        try:
            return {"B": cls.BLACK, "W": cls.WHITE}[letter]
        except KeyError:
            raise ValueError(f"not a colour letter: {letter!r}") from None

    def __repr__(self) -> str:
        return f"Color.{self.name}"


# Words a person reads. The rules import no Django: a message is marked with
# ``gettext_noop`` (the name Django's makemessages collects) and kept as a template with
# named parameters, and the caller translates it with its own ``Words``
# (``django.utils.translation`` itself) when it shows it.


def gettext_noop(message: str) -> str:
    """``message`` unchanged, marked for the translators' catalogues."""
    return message


class Words(Protocol):
    """A translator: Django's ``django.utils.translation`` module is one."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, number: int) -> str: ...


class English:
    """The words as written: English, no catalogue."""

    @staticmethod
    def gettext(message: str) -> str:
        return message

    @staticmethod
    def ngettext(singular: str, plural: str, number: int) -> str:
        return singular if number == 1 else plural


ENGLISH = English()


class Term(str):
    """A word given as a message's parameter that is itself translated (a setting's name,
    a unit): marked with ``gettext_noop`` where it is written."""

    __slots__ = ()


def translated(template: str, params: Mapping[str, object], words: Words) -> str:
    """``template`` in ``words``' language, filled with ``params`` (a ``Term`` or a
    ``RulesError`` among them translated too)."""
    filled = {name: _translated(value, words) for name, value in params.items()}
    text = words.gettext(template)
    return text % filled if params else text


def _translated(value: object, words: Words) -> object:
    if isinstance(value, Term):
        return words.gettext(value) if value else value  # gettext("") is the header
    translate = getattr(value, "translated", None)  # an error given as a parameter
    return translate(words) if callable(translate) else value


class RulesError(ValueError):
    """Base of the errors the rules raise. ``str()`` is the English message; the
    ``template`` (marked for translation) and its ``params`` let a caller show it in
    another language: ``translated(words)``."""

    def __init__(self, message: str, /, **params: object) -> None:
        super().__init__(translated(message, params, ENGLISH))
        self.template = message
        self.params = params

    def translated(self, words: Words) -> str:
        """The message in ``words``' language."""
        return translated(self.template, self.params, words)


class InvalidMoveError(RulesError):
    """A move that cannot even be read: bad syntax or a point off the board."""


class IllegalMoveError(RulesError):
    """A well-formed move that the rules forbid; the message says why."""


class InputFormatError(Exception):
    """Command-line input that does not follow its format; ``line`` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Move:
    """What a player does on their turn: place a stone or disc, or pass."""

    action: Action
    point: Point | None = None

    @classmethod
    def place(cls, point: Point) -> Move:
        """A placement on ``point``."""
        return cls("place", (point[0], point[1]))

    @classmethod
    def pass_turn(cls) -> Move:
        """A pass."""
        return cls("pass", None)

    def __repr__(self) -> str:
        return f"Move.place({self.point})" if self.point else "Move.pass_turn()"


@dataclass(frozen=True)
class Diff:
    """What one move changed: enough to step a replay both ways.

    ``flipped`` (Othello) are the discs that turned to ``color``; ``captured``
    (Go) are the opponent's stones removed from the board.
    """

    color: Color
    action: Action
    point: Point | None = None
    flipped: tuple[Point, ...] = ()
    captured: tuple[Point, ...] = ()

    def apply(self, rows: Sequence[str]) -> list[str]:
        """The board ``rows`` after this move."""
        grid = [list(row) for row in rows]
        if self.point is not None:
            grid[self.point[0]][self.point[1]] = self.color.letter
        _paint(grid, self.flipped, self.color.letter)
        _paint(grid, self.captured, EMPTY)
        return ["".join(row) for row in grid]

    def undo(self, rows: Sequence[str]) -> list[str]:
        """The board ``rows`` before this move."""
        grid = [list(row) for row in rows]
        if self.point is not None:
            grid[self.point[0]][self.point[1]] = EMPTY
        _paint(grid, self.flipped, self.color.opponent.letter)
        _paint(grid, self.captured, self.color.opponent.letter)
        return ["".join(row) for row in grid]


class BoardPosition(abc.ABC):
    """What the positions of both games do alike, built on what each one defines.

    A subclass defines ``size``, ``format_point`` (its game's notation) and the
    snapshot pair ``to_snapshot``/``from_snapshot``; it gets ``notation`` and
    copying (``copy``, ``pickle``) through its snapshot.
    """

    __slots__ = ()

    @property
    @abc.abstractmethod
    def size(self) -> int:
        """The number of rows (and of columns) of the board."""

    @abc.abstractmethod
    def format_point(self, point: Point) -> str:
        """The point in the game's notation; ``InvalidMoveError`` off the board."""

    @abc.abstractmethod
    def to_snapshot(self) -> dict[str, Any]:
        """The position as plain JSON data."""

    @classmethod
    @abc.abstractmethod
    def from_snapshot(cls, data: Mapping[str, Any]) -> Self:
        """The position stored as ``data`` (from ``to_snapshot``)."""

    def notation(self, move: Move) -> str:
        """The placement in the game's notation, ``pass`` for a pass.

        Raises ``InvalidMoveError`` for a point off the board.
        """
        if move.point is None:
            return "pass"
        return self.format_point(move.point)

    def _off_board(self, written: object) -> InvalidMoveError:
        """The error for ``written`` (a point, or its text) naming no point of this board."""
        return InvalidMoveError(
            gettext_noop("%(written)s is not a point of the %(size)sx%(size)s board"),
            written=repr(written),
            size=self.size,
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from the snapshot: pickle and copy cannot set immutable slots one by
        # one, and a copy then owns its own data (Go's history).
        return (_restore, (type(self), self.to_snapshot()))


def _restore(cls: type[BoardPosition], snapshot: Mapping[str, Any]) -> BoardPosition:
    # A function, not the bound classmethod: Twisted (under daphne) replaces how
    # pickle reduces methods, and its way cannot find a classmethod.
    return cls.from_snapshot(snapshot)


def _paint(grid: list[list[str]], points: Iterable[Point], letter: str) -> None:
    for row, col in points:
        grid[row][col] = letter


def empty_rows(size: int) -> list[str]:
    """An empty ``size`` x ``size`` board."""
    return [EMPTY * size] * size
