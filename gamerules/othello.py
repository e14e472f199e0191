"""Othello (Reversi) on any even board size from 4 up.

A position is immutable: ``play`` returns the next position and the ``Diff``
of the move (the disc placed and the discs flipped).

Rules enforced: a placement must flip at least one line of opponent discs, in
any of the eight directions, and flips every such line at once; a side with no
placement must pass (``must_pass``; the pass is then the only legal move); the
game is over when neither side can place a disc, and the side with more discs
wins. Not enforced here: clocks, resignation, and the console's voluntary pass
(``passed()`` hands the turn over without any check).

Points are ``(row, col)``, 0-based, row 0 at the top. Notation has column
letters ``a``.. and row numbers ``1``.. counted from the top-left corner:

>>> position = OthelloPosition.start(8)
>>> [position.format_point(point) for point in position.legal_moves()]
['d3', 'c4', 'f5', 'e6']
>>> position, diff = position.play(Move.place(position.parse_point("f5")))
>>> diff.point, diff.flipped
((4, 5), ((4, 4),))
>>> position.disc_counts()[Color.BLACK], position.to_move
(4, Color.WHITE)

Internally each side's discs are one Python int used as a bitboard: the disc
on ``(row, col)`` is bit ``row * (size + 1) + col``. The extra column at the
end of every row is always empty, so a shift that walks off the left or right
edge lands on it and stops; one that walks off the top or the bottom leaves
the board's bits. No shift needs a mask against wrapping.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NoReturn, Self

from gamerules.base import Term, gettext_noop

from .base import (
    EMPTY,
    BoardPosition,
    Color,
    Diff,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Point,
    RulesError,
)

__all__ = ["OthelloPosition"]

_NOTATION = re.compile(r"([a-z]+)([0-9]+)")


@dataclass(frozen=True, slots=True)
class _Geometry:
    """Everything about one board size that does not depend on the discs."""

    size: int
    board: int
    """Every square of the board (the guard column excluded)."""
    bit_index: Mapping[Point, int]
    up_shifts: tuple[int, ...]
    """The four directions that raise a bit's index: east, south-west, south, south-east."""
    centre: tuple[int, int]
    """The start discs: (black, white)."""
    points: tuple[Point, ...]
    """The point of each bit index (guard bits map to ``(-1, -1)`` and are never read)."""

    def points_of(self, board: int) -> list[Point]:
        """The points of the bits set in ``board``, in row-major order."""
        points = self.points
        found = []
        while board:
            low = board & -board
            found.append(points[low.bit_length() - 1])
            board ^= low
        return found


@functools.cache
def _geometry(size: int) -> _Geometry:
    width = size + 1
    bit_index = {(row, col): row * width + col for row in range(size) for col in range(size)}
    points = [(-1, -1)] * (size * width)
    for point, index in bit_index.items():
        points[index] = point
    half = size // 2
    black = (1 << bit_index[(half - 1, half)]) | (1 << bit_index[(half, half - 1)])
    white = (1 << bit_index[(half - 1, half - 1)]) | (1 << bit_index[(half, half)])
    return _Geometry(
        size=size,
        board=sum(1 << index for index in bit_index.values()),
        bit_index=bit_index,
        up_shifts=(1, width - 1, width, width + 1),
        centre=(black, white),
        points=tuple(points),
    )


def _check_size(size: object) -> int:
    if type(size) is not int or size < 4 or size % 2:
        raise RulesError(
            gettext_noop("an Othello board has an even size of at least 4, not %(size)s"),
            size=repr(size),
        )
    return size


def _legal_bits(geometry: _Geometry, own: int, other: int) -> int:
    """The empty squares where ``own`` flips at least one disc of ``other``."""
    empty = geometry.board & ~(own | other)
    legal = 0
    for shift in geometry.up_shifts:
        run = (own << shift) & other
        while run:
            run <<= shift
            legal |= run & empty
            run &= other
        run = (own >> shift) & other
        while run:
            run >>= shift
            legal |= run & empty
            run &= other
    return legal


def _flipped_bits(geometry: _Geometry, placed: int, own: int, other: int) -> int:
    """The discs of ``other`` that a disc of ``own`` placed on ``placed`` turns over."""
    flipped = 0
    for shift in geometry.up_shifts:
        line = 0
        run = (placed << shift) & other
        while run:
            line |= run
            run <<= shift
            if run & own:
                flipped |= line
                break
            run &= other
        line = 0
        run = (placed >> shift) & other
        while run:
            line |= run
            run >>= shift
            if run & own:
                flipped |= line
                break
            run &= other
    return flipped


def _group(geometry: _Geometry, seed: int, discs: int) -> int:
    """The discs of ``discs`` joined to ``seed`` through discs next to each other."""
    group = seed & discs
    while True:
        grown = group
        for shift in geometry.up_shifts:
            grown |= (group << shift) | (group >> shift)
        # The guard column and the bits beyond the board are never discs.
        grown &= discs
        if grown == group:
            return group
        group = grown


def _column_letters(col: int) -> str:
    """``a``..``z``, then ``aa``, ``ab``.. for boards wider than 26."""
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def _column_number(letters: str) -> int:
    col = 0
    for letter in letters:
        col = col * 26 + ord(letter) - ord("a") + 1
    return col - 1


class OthelloPosition(BoardPosition):
    """An Othello position: the discs of both sides and the side to move.

    Immutable and hashable; equal positions have the same discs and side to move.
    """

    kind: ClassVar[str] = "othello"
    __slots__ = ("_black", "_geometry", "_legal", "_over", "_white", "to_move")

    to_move: Color
    _geometry: _Geometry
    _black: int
    _white: int
    _legal: int
    """The squares where the side to move may place a disc."""
    _over: bool

    def __init__(self) -> None:
        raise TypeError("use OthelloPosition.start(), from_rows() or from_snapshot()")

    @classmethod
    def _make(cls, geometry: _Geometry, black: int, white: int, to_move: Color) -> Self:
        if to_move is Color.BLACK:
            legal = _legal_bits(geometry, black, white)
            over = not legal and not _legal_bits(geometry, white, black)
        else:
            legal = _legal_bits(geometry, white, black)
            over = not legal and not _legal_bits(geometry, black, white)
        position = object.__new__(cls)
        # The slots' own setters: __setattr__ refuses every assignment.
        _SET_TO_MOVE(position, to_move)
        _SET_GEOMETRY(position, geometry)
        _SET_BLACK(position, black)
        _SET_WHITE(position, white)
        _SET_LEGAL(position, legal)
        _SET_OVER(position, over)
        return position

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"OthelloPosition is immutable: cannot set {name}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"OthelloPosition is immutable: cannot delete {name}")

    @property
    def size(self) -> int:
        """The number of rows (and of columns) of the board."""
        return self._geometry.size

    # Building positions

    @classmethod
    def start(cls, size: int = 8) -> Self:
        """The start position on a ``size`` x ``size`` board, Black to move.

        White has the centre squares (n/2, n/2) and (n/2+1, n/2+1), 1-based;
        Black the other two. Raises ``RulesError`` unless ``size`` is even and
        at least 4.

        >>> OthelloPosition.start(4).rows()
        ['....', '.WB.', '.BW.', '....']
        """
        geometry = _geometry(_check_size(size))
        black, white = geometry.centre
        return cls._make(geometry, black, white, Color.BLACK)

    @classmethod
    def from_rows(cls, rows: Sequence[str], to_move: Color) -> Self:
        """The position drawn as ``rows`` of ``.``, ``B`` and ``W``, ``to_move`` to play.

        Raises ``RulesError`` for a board that is not square, of a size Othello
        does not allow, or with other characters.

        >>> OthelloPosition.from_rows(["B...", "W...", "....", "...."], Color.WHITE).must_pass
        True
        """
        geometry = _geometry(_check_size(len(rows)))
        black = white = 0
        for row, line in enumerate(rows):
            if not isinstance(line, str) or len(line) != geometry.size:
                raise RulesError(
                    gettext_noop("row %(number)s is not a string of %(size)s squares"),
                    number=row + 1,
                    size=geometry.size,
                )
            for col, square in enumerate(line):
                bit = 1 << geometry.bit_index[(row, col)]
                if square == "B":
                    black |= bit
                elif square == "W":
                    white |= bit
                elif square != EMPTY:
                    raise RulesError(
                        gettext_noop("row %(number)s has %(square)s: expected '.', 'B' or 'W'"),
                        number=row + 1,
                        square=repr(square),
                    )
        if not isinstance(to_move, Color):
            raise RulesError(f"to_move must be a Color, not {to_move!r}")
        return cls._make(geometry, black, white, to_move)

    @classmethod
    def from_setup(cls, rows: Sequence[str], to_move: Color) -> Self:
        """The position a record lays out as ``rows``, ``to_move`` to play, if play can reach it.

        As ``from_rows``, and also raises ``RulesError`` for a board no game reaches:
        discs are never taken off, so the four centre squares of the start stay filled,
        and each disc is placed next to one already there, so the discs form one group
        (touching along a side or a corner).

        >>> OthelloPosition.from_setup(["B...", ".WB.", ".BW.", "...."], Color.WHITE).to_move
        Color.WHITE
        >>> OthelloPosition.from_setup(["B...", ".W..", ".BW.", "...."], Color.WHITE)
        Traceback (most recent call last):
        ...
        gamerules.base.RulesError: c2 is empty: a game never empties the four centre squares
        """
        position = cls.from_rows(rows, to_move)
        geometry = position._geometry
        discs = position._black | position._white
        centre = geometry.centre[0] | geometry.centre[1]
        for point in geometry.points_of(centre & ~discs):
            where = position.format_point(point)
            raise RulesError(f"{where} is empty: a game never empties the four centre squares")
        for point in geometry.points_of(discs & ~_group(geometry, centre, discs)):
            where = position.format_point(point)
            raise RulesError(
                gettext_noop(
                    "the disc on %(where)s is apart from the others: every disc "
                    "is placed next to one already on the board"
                ),
                where=where,
            )
        return position

    def to_snapshot(self) -> dict[str, Any]:
        """Everything needed to continue the game, as JSON-ready data.

        >>> OthelloPosition.start(4).to_snapshot()
        {'size': 4, 'rows': ['....', '.WB.', '.BW.', '....'], 'to_move': 'black'}
        """
        return {"size": self.size, "rows": self.rows(), "to_move": self.to_move.value}

    @classmethod
    def from_snapshot(cls, data: Mapping[str, Any]) -> Self:
        """The position saved by ``to_snapshot()``; raises ``RulesError`` if malformed."""
        try:
            rows, to_move, size = data["rows"], Color(data["to_move"]), data["size"]
        except (KeyError, TypeError, ValueError) as error:
            raise RulesError(f"not an Othello snapshot: {error!r}") from None
        if not isinstance(rows, list | tuple) or size != len(rows):
            raise RulesError(f"not an Othello snapshot: size {size!r} and rows {rows!r}")
        return cls.from_rows(rows, to_move)

    def passed(self) -> Self:
        """The same discs with the other side to move, whether or not that is legal.

        The console format lets a player pass at will; the game itself never does.
        """
        return self._make(self._geometry, self._black, self._white, self.to_move.opponent)

    # Reading positions

    def rows(self) -> list[str]:
        """The board as rows of ``.`` (empty), ``B`` (black) and ``W`` (white), top first."""
        width = self.size + 1
        black, white = self._black, self._white
        rows = []
        for row in range(self.size):
            squares = []
            for col in range(self.size):
                bit = 1 << (row * width + col)
                squares.append("B" if black & bit else "W" if white & bit else EMPTY)
            rows.append("".join(squares))
        return rows

    def disc_counts(self) -> dict[Color, int]:
        """The number of discs of each colour on the board."""
        return {Color.BLACK: self._black.bit_count(), Color.WHITE: self._white.bit_count()}

    def bitboards(self) -> tuple[int, int]:
        """The discs of Black and of White, each side's as one int used as a bitboard.

        The disc on ``(row, col)`` is bit ``row * (size + 1) + col``: every row has
        one guard bit at its end, never set (the module docstring says why). Engines
        search on these ints rather than on positions.

        >>> OthelloPosition.from_rows(["B...", "....", "....", "...W"], Color.BLACK).bitboards()
        (1, 262144)
        """
        return self._black, self._white

    def legal_moves(self) -> list[Point]:
        """The points where the side to move may place a disc, in row-major order.

        Empty when the side to move must pass or the game is over.
        """
        return self._geometry.points_of(self._legal)

    @property
    def must_pass(self) -> bool:
        """The side to move has no placement but the other side has: it must pass."""
        return not self._legal and not self._over

    @property
    def is_over(self) -> bool:
        """Neither side can place a disc."""
        return self._over

    def result(self) -> str | None:
        """``B+12``, ``W+2`` or ``Draw`` (by disc count) once the game is over, else None.

        >>> OthelloPosition.from_rows(["BBBB"] * 3 + ["WWW."], Color.BLACK).result()
        'B+9'
        """
        if not self._over:
            return None
        margin = self._black.bit_count() - self._white.bit_count()
        if margin > 0:
            return f"B+{margin}"
        if margin < 0:
            return f"W+{-margin}"
        return "Draw"

    # Playing

    def play(self, move: Move) -> tuple[Self, Diff]:
        """The position after ``move`` by the side to move, and what the move changed.

        A pass is legal only when the side to move must pass (``must_pass``).
        Raises ``InvalidMoveError`` for a point off the board and
        ``IllegalMoveError`` (the message says why) for a move the rules forbid:
        the game is over, the square is occupied, the disc flips nothing, or a
        pass while a placement is possible.
        """
        color = self.to_move
        geometry = self._geometry
        if move.action == "pass":
            if self._legal or self._over:
                self._refuse_pass()
            return self.passed(), Diff(color, "pass")
        index = self._index(move.point)
        placed = 1 << index
        if not self._legal & placed:
            self._refuse_placement(placed, geometry.points[index])
        if color is Color.BLACK:
            flipped = _flipped_bits(geometry, placed, self._black, self._white)
            black, white = self._black | placed | flipped, self._white ^ flipped
        else:
            flipped = _flipped_bits(geometry, placed, self._white, self._black)
            black, white = self._black ^ flipped, self._white | placed | flipped
        after = self._make(geometry, black, white, color.opponent)
        diff = Diff(color, "place", geometry.points[index], tuple(geometry.points_of(flipped)))
        return after, diff

    def _index(self, point: Point | None) -> int:
        """The bit of ``point``; raises ``InvalidMoveError`` for a point off the board."""
        try:
            index = None if point is None else self._geometry.bit_index.get(point)
        except TypeError:
            index = None
        if index is None:
            raise self._off_board(point)
        return index

    def _refuse_pass(self) -> NoReturn:
        if self._over:
            raise IllegalMoveError(gettext_noop("the game is over"))
        name = self.to_move.name.capitalize()
        raise IllegalMoveError(
            gettext_noop("%(name)s has a legal move and may not pass"), name=Term(name)
        )

    def _refuse_placement(self, placed: int, point: Point) -> NoReturn:
        where = self.format_point(point)
        if self._over:
            raise IllegalMoveError(gettext_noop("the game is over"))
        if (self._black | self._white) & placed:
            raise IllegalMoveError(gettext_noop("%(where)s is occupied"), where=where)
        name = self.to_move.name.capitalize()
        if not self._legal:
            raise IllegalMoveError(
                gettext_noop("%(where)s flips nothing: %(name)s has no legal move and must pass"),
                where=where,
                name=Term(name),
            )
        raise IllegalMoveError(gettext_noop("%(where)s flips nothing"), where=where)

    # Notation

    def format_point(self, point: Point) -> str:
        """The point in Othello notation, e.g. ``(4, 5)`` is ``f5``.

        Raises ``InvalidMoveError`` for a point off the board.
        """
        row, col = self._geometry.points[self._index(point)]
        return f"{_column_letters(col)}{row + 1}"

    def parse_point(self, text: str) -> Point:
        """The point written ``text`` (e.g. ``f5``, case ignored) on this board.

        Raises ``InvalidMoveError`` for text that is not a point of this board.

        >>> OthelloPosition.start(8).parse_point("F5")
        (4, 5)
        """
        match = _NOTATION.fullmatch(text.strip().lower())
        if match is None:
            raise InvalidMoveError(
                gettext_noop(
                    "%(text)s is not a point: expected a column letter and a row number, e.g. f5"
                ),
                text=repr(text),
            )
        point = (int(match[2]) - 1, _column_number(match[1]))
        if point not in self._geometry.bit_index:
            raise self._off_board(text)
        return point

    # Value semantics

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OthelloPosition):
            return NotImplemented
        return (self.size, self._black, self._white, self.to_move) == (
            other.size,
            other._black,
            other._white,
            other.to_move,
        )

    def __hash__(self) -> int:
        return hash((self.size, self._black, self._white, self.to_move))

    def __repr__(self) -> str:
        return f"OthelloPosition.from_rows({self.rows()!r}, {self.to_move!r})"


_SET_TO_MOVE, _SET_GEOMETRY, _SET_BLACK, _SET_WHITE, _SET_LEGAL, _SET_OVER = (
    getattr(OthelloPosition, name).__set__
    for name in ("to_move", "_geometry", "_black", "_white", "_legal", "_over")
)
