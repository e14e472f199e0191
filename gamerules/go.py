"""Go on square boards of odd size, 3x3 to 19x19.

A position is immutable: ``play`` returns the next position and the ``Diff``
of the move (the stone placed and the opponent stones it captured).

Rules enforced:

- Black moves first; the sides alternate; a side may place a stone on an
  empty point or pass. Two consecutive passes end play (``is_over``);
  ``resume()`` continues a game whose end was disputed.
- A placement first removes every opponent group it leaves without a liberty;
  only then is its own group looked at, so the placed stone survives a capture.
- Suicide (a placement that leaves its own group without a liberty and
  captures nothing) is illegal.
- Positional superko: a placement may not recreate any whole-board position
  of the game so far, whoever was to move then. It covers the simple ko. Each
  board is known by its Zobrist hash, kept in the position and its snapshot.

Not enforced here: clocks, resignation, and agreeing on dead stones (``score``
takes them as given; ``estimate_dead`` only guesses). A handicap game starts
from ``handicap_position``: the black stones on the standard points
(``handicap_points``), White to move; the count gives White nothing for them.

Points are ``(row, col)``, 0-based, row 0 at the top. Notation is the usual
human one: columns ``A``.. without ``I``, rows numbered from the bottom.

>>> position = GoPosition.start(9)
>>> position, diff = position.play(Move.place(position.parse_point("E5")))
>>> diff.point, position.to_move
((4, 4), Color.WHITE)
>>> position.format_point((8, 0))
'A1'

Inside, the board is a flat list of ``size * size`` ints (0 empty, 1 black,
2 white) indexed ``row * size + col``; neighbour lists and Zobrist keys are
computed once per board size.
"""

from __future__ import annotations

import functools
import hashlib
import math
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Self

from gamerules.base import gettext_noop

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

__all__ = [
    "GoPosition",
    "GoScore",
    "ScoringMethod",
    "estimate_dead",
    "handicap_counts",
    "handicap_points",
    "handicap_position",
    "score",
]

ScoringMethod = Literal["territory", "area"]

SIZES = range(3, 20, 2)
"""The board sizes Go allows here: odd, 3 to 19."""

COLUMNS = "ABCDEFGHJKLMNOPQRST"
"""Column letters of the human notation: no ``I``, as on real boards."""

_NOTATION = re.compile(r"([A-HJ-T])([0-9]{1,2})")
_HASH_BITS = 53
"""Zobrist keys stay below 2**53 so that a snapshot's history is exact in any JSON reader."""

_EMPTY, _BLACK, _WHITE = 0, 1, 2
_STONE = {Color.BLACK: _BLACK, Color.WHITE: _WHITE}
_COLOR = {_BLACK: Color.BLACK, _WHITE: Color.WHITE}
_LETTER = {EMPTY: _EMPTY, "B": _BLACK, "W": _WHITE}
_DRAWN = (EMPTY, "B", "W")


@dataclass(frozen=True, slots=True)
class _Geometry:
    """Everything about one board size that does not depend on the stones."""

    size: int
    points: tuple[Point, ...]
    """The point of each index."""
    index: Mapping[Point, int]
    neighbours: tuple[tuple[int, ...], ...]
    """The indices next to each index, up, left, right, down."""
    keys: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    """Zobrist keys by stone value (empty, black, white) and index; empty is all zeros."""


def _zobrist_key(size: int, stone: int, index: int) -> int:
    # A hash of the name rather than a seeded PRNG: the keys must never change,
    # since stored snapshots carry them.
    digest = hashlib.blake2b(f"go {size} {stone} {index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - _HASH_BITS)


@functools.cache
def _geometry(size: int) -> _Geometry:
    points = tuple((row, col) for row in range(size) for col in range(size))
    neighbours = tuple(
        tuple(
            r * size + c
            for r, c in ((row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col))
            if 0 <= r < size and 0 <= c < size
        )
        for row, col in points
    )
    keys = tuple(
        tuple(_zobrist_key(size, stone, i) for i in range(size * size)) for stone in (1, 2)
    )
    return _Geometry(
        size=size,
        points=points,
        index={point: i for i, point in enumerate(points)},
        neighbours=neighbours,
        keys=((0,) * (size * size), keys[0], keys[1]),
    )


def _check_size(size: object) -> int:
    if type(size) is not int or size not in SIZES:
        raise RulesError(
            gettext_noop("a Go board has an odd size from 3 to 19, not %(size)s"), size=repr(size)
        )
    return size


def _chain(board: Sequence[int], start: int, neighbours: Sequence[Sequence[int]]) -> list[int]:
    """Every index connected to ``start`` through indices of the same content."""
    content = board[start]
    chain = [start]
    seen = {start}
    for i in chain:
        for j in neighbours[i]:
            if board[j] == content and j not in seen:
                seen.add(j)
                chain.append(j)
    return chain


_Chain = tuple[tuple[int, ...], frozenset[int]]
"""A chain of stones: its indices and its liberties."""

_Placement = tuple[int, list[int], list[int], list[int], list[int]]
"""A legal placement: the hash after it, the chains it captures, the chains of
its own colour it joins, its empty neighbours, and the opponent chains it
takes a liberty from without capturing them."""


class _Stones:
    """The stones on the board, with their chains kept up to date move by move.

    ``board`` holds 0 (empty), 1 (black) or 2 (white) per index; ``label`` the
    chain number of each stone (-1 on empty points); ``chains`` each chain by
    number (the index of one of its stones); ``key`` the Zobrist hash. Never
    changed once built: a move builds the next ``_Stones``.
    """

    __slots__ = ("board", "chains", "key", "label")

    board: list[int]
    label: list[int]
    chains: dict[int, _Chain]
    key: int

    @classmethod
    def of(cls, geometry: _Geometry, board: list[int]) -> _Stones:
        """The stones of ``board``, every chain found afresh."""
        stones = cls()
        stones.board = board
        stones.label = [-1] * len(board)
        stones.chains = {}
        stones.key = 0
        for start, color in enumerate(board):
            stones.key ^= geometry.keys[color][start]
            if color and stones.label[start] < 0:
                chain = _chain(board, start, geometry.neighbours)
                liberties = {j for i in chain for j in geometry.neighbours[i] if not board[j]}
                for i in chain:
                    stones.label[i] = start
                stones.chains[start] = (tuple(chain), frozenset(liberties))
        return stones

    def placed(
        self,
        geometry: _Geometry,
        index: int,
        own: int,
        placement: _Placement,
    ) -> _Stones:
        """The stones after ``own`` is placed on the empty ``index``, as
        ``placement`` (from ``GoPosition._placement``) found it legal."""
        key, captured, friends, free, enemies = placement
        board = self.board.copy()
        label = self.label.copy()
        chains = self.chains.copy()
        board[index] = own
        for number in enemies:
            points, liberties = chains[number]
            chains[number] = (points, liberties.difference((index,)))
        for number in captured:
            for i in chains.pop(number)[0]:
                board[i] = 0
                label[i] = -1
        if not friends:
            number, points, merged = index, (index,), frozenset(free)
        elif len(friends) == 1:
            number = friends[0]
            points, merged = chains[number]
            points += (index,)
            merged = merged.union(free).difference((index,))
        else:
            # The longest chain keeps its number, so fewer stones are relabelled.
            number = max(friends, key=lambda friend: len(chains[friend][0]))
            points, merged = chains[number]
            merged = merged.union(free)
            for friend in friends:
                if friend != number:
                    more_points, more_liberties = chains.pop(friend)
                    points += more_points
                    merged |= more_liberties
                    for i in more_points:
                        label[i] = number
            points += (index,)
            merged = merged.difference((index,))
        label[index] = number
        chains[number] = (points, merged)
        for chain in captured:
            for i in self.chains[chain][0]:
                for j in geometry.neighbours[i]:
                    if board[j] == own:
                        points, liberties = chains[label[j]]
                        chains[label[j]] = (points, liberties.union((i,)))
        after = _Stones()
        after.board, after.label, after.chains, after.key = board, label, chains, key
        return after


class _History:
    """The hashes of every board of one line of play, oldest first.

    The positions of one game share one ``_History``; each knows how many of
    its hashes are its own (``length``). Playing from the newest position
    appends in place; playing from an older one (a branch) copies, so no
    position ever sees a board that was not in its own past. This keeps the
    superko check O(1) per move without copying the history each move.
    """

    __slots__ = ("first_seen", "hashes", "superko")

    def __init__(self, hashes: Iterable[int], *, superko: bool = True) -> None:
        self.hashes = list(hashes)
        self.superko = superko
        self.first_seen: dict[int, int] = {}
        for i, key in enumerate(self.hashes):
            self.first_seen.setdefault(key, i)

    def extended(self, length: int, key: int) -> _History:
        """The history of ``length`` hashes followed by ``key`` (self, if it can grow)."""
        hashes = self.hashes
        if len(hashes) == length:
            hashes.append(key)
            # No lock: list.append is atomic. Of two threads growing the same
            # tip at once, the one whose key landed at ``length`` keeps this
            # history (both do if the keys are equal, rightly); the other
            # copies below. Entries past a position's ``length`` are never read.
            if hashes[length] == key:
                self.first_seen.setdefault(key, length)
                return self
        return _History([*hashes[:length], key], superko=self.superko)


class GoPosition(BoardPosition):
    """A Go position: the stones, the side to move, prisoners, passes and the boards seen.

    Immutable and hashable; equal positions have the same board, side to move,
    prisoners, consecutive passes and history of boards.
    """

    kind: ClassVar[str] = "go"
    __slots__ = (
        "_geometry",
        "_history",
        "_length",
        "_own",
        "_passes",
        "_prisoners",
        "_stones",
    )

    _geometry: _Geometry
    _stones: _Stones
    _own: int
    """The stone value of the side to move."""
    _history: _History
    _length: int
    """How many hashes of ``_history`` are this position's past (the last is its board)."""
    _prisoners: tuple[int, int]
    _passes: int

    def __init__(self) -> None:
        raise TypeError("use GoPosition.start(), from_rows() or from_snapshot()")

    @classmethod
    def _make(
        cls,
        geometry: _Geometry,
        stones: _Stones,
        own: int,
        history: _History,
        length: int,
        prisoners: tuple[int, int],
        passes: int,
    ) -> Self:
        # Only here are the slots written: the public side is read-only properties.
        position = object.__new__(cls)
        position._geometry = geometry
        position._stones = stones
        position._own = own
        position._history = history
        position._length = length
        position._prisoners = prisoners
        position._passes = passes
        return position

    @property
    def size(self) -> int:
        """The number of lines each way."""
        return self._geometry.size

    @property
    def to_move(self) -> Color:
        """The side whose turn it is."""
        return _COLOR[self._own]

    @property
    def consecutive_passes(self) -> int:
        """Passes in a row that led here: 2 means play has ended."""
        return self._passes

    # Building positions

    @classmethod
    def start(cls, size: int = 19, *, superko: bool = True) -> Self:
        """The empty ``size`` x ``size`` board, Black to move.

        ``superko=False`` plays by rules with no ko at all, as the seed's
        scoring problem does: a board may then come back. Raises
        ``RulesError`` unless ``size`` is odd and from 3 to 19.

        >>> GoPosition.start(3).rows()
        ['...', '...', '...']
        """
        geometry = _geometry(_check_size(size))
        stones = _Stones.of(geometry, [_EMPTY] * (size * size))
        history = _History([0], superko=superko)
        return cls._make(geometry, stones, _BLACK, history, 1, (0, 0), 0)

    @classmethod
    def from_rows(cls, rows: Sequence[str], to_move: Color) -> Self:
        """The position drawn as ``rows`` of ``.``, ``B`` and ``W``, ``to_move`` to play.

        No prisoners, no passes; the drawn board is the only one in its history.
        Raises ``RulesError`` for a board that is not square, of a size Go does
        not allow, with other characters, or with a chain that has no liberty.

        >>> GoPosition.from_rows([".B.", "BW.", "..."], Color.BLACK).legal_moves()
        [(0, 0), (0, 2), (1, 2), (2, 0), (2, 1), (2, 2)]
        """
        geometry, stones = _read_rows(rows)
        if not isinstance(to_move, Color):
            raise RulesError(f"to_move must be a Color, not {to_move!r}")
        own = _STONE[to_move]
        return cls._make(geometry, stones, own, _History([stones.key]), 1, (0, 0), 0)

    def to_snapshot(self) -> dict[str, Any]:
        """Everything needed to continue the game, as JSON-ready data.

        ``history`` holds the hash of every board of the game so far (ints
        below 2**53), oldest first; the last one is the current board.

        >>> GoPosition.start(3).to_snapshot()  # doctest: +NORMALIZE_WHITESPACE
        {'size': 3, 'rows': ['...', '...', '...'], 'to_move': 'black',
         'prisoners': {'black': 0, 'white': 0}, 'consecutive_passes': 0, 'history': [0]}
        """
        black, white = self._prisoners
        snapshot: dict[str, Any] = {
            "size": self.size,
            "rows": self.rows(),
            "to_move": self.to_move.value,
            "prisoners": {"black": black, "white": white},
            "consecutive_passes": self.consecutive_passes,
            "history": self._history.hashes[: self._length],
        }
        if not self._history.superko:
            snapshot["superko"] = False
        return snapshot

    @classmethod
    def from_snapshot(cls, data: Mapping[str, Any]) -> Self:
        """The position saved by ``to_snapshot()``.

        Raises ``RulesError`` if ``data`` is malformed or inconsistent: a field
        missing or of the wrong type, a board ``from_rows`` refuses, or a
        history whose last board is not the current one.
        """
        try:
            size, rows, to_move = data["size"], data["rows"], Color(data["to_move"])
            prisoners = (data["prisoners"]["black"], data["prisoners"]["white"])
            passes, hashes = data["consecutive_passes"], data["history"]
            superko = data.get("superko", True)
        except (KeyError, TypeError, ValueError) as error:
            raise RulesError(f"not a Go snapshot: {error!r}") from None
        if not isinstance(rows, list | tuple) or size != len(rows):
            raise RulesError(f"not a Go snapshot: size {size!r} and {len(rows)} rows")
        if not all(type(count) is int and count >= 0 for count in prisoners):
            raise RulesError(f"not a Go snapshot: prisoners {data['prisoners']!r}")
        if type(passes) is not int or not 0 <= passes <= 2:
            raise RulesError(f"not a Go snapshot: consecutive_passes {passes!r}")
        if not isinstance(hashes, list | tuple) or not all(
            type(key) is int and 0 <= key < 1 << _HASH_BITS for key in hashes
        ):
            raise RulesError("not a Go snapshot: history must be a list of board hashes")
        if type(superko) is not bool:
            raise RulesError(f"not a Go snapshot: superko {superko!r}")
        geometry, stones = _read_rows(rows)
        if not hashes or hashes[-1] != stones.key:
            raise RulesError("not a Go snapshot: the history does not end with the current board")
        history = _History(hashes, superko=superko)
        own = _STONE[to_move]
        return cls._make(geometry, stones, own, history, len(hashes), prisoners, passes)

    def resume(self) -> Self:
        """The same position with no passes counted, so play goes on (same side to move)."""
        return self._make(
            self._geometry,
            self._stones,
            self._own,
            self._history,
            self._length,
            self._prisoners,
            0,
        )

    # Reading positions

    def rows(self) -> list[str]:
        """The board as rows of ``.`` (empty), ``B`` (black) and ``W`` (white), top first."""
        size = self.size
        drawn = "".join(_DRAWN[stone] for stone in self._stones.board)
        return [drawn[start : start + size] for start in range(0, size * size, size)]

    @property
    def prisoners(self) -> dict[Color, int]:
        """The stones captured so far BY each colour."""
        black, white = self._prisoners
        return {Color.BLACK: black, Color.WHITE: white}

    @property
    def is_over(self) -> bool:
        """Both sides passed in a row: play has ended (``resume()`` to go on)."""
        return self._passes >= 2

    def stone_at(self, point: Point) -> Color | None:
        """The colour of the stone on ``point``, None if it is empty.

        Raises ``InvalidMoveError`` for a point off the board.
        """
        stone = self._stones.board[self._index(point)]
        return _COLOR[stone] if stone else None

    def chain(self, point: Point) -> frozenset[Point]:
        """The stones solidly connected to the stone on ``point``, empty for an empty
        point (the scoring phase marks whole chains dead).

        Raises ``InvalidMoveError`` for a point off the board.
        """
        number = self._stones.label[self._index(point)]
        if number < 0:
            return frozenset()
        points = self._geometry.points
        return frozenset(points[i] for i in self._stones.chains[number][0])

    def legal_moves(self) -> list[Point]:
        """The points where the side to move may place a stone, in row-major order.

        Empty once play is over. Passing is always legal while play goes on.
        """
        if self._passes >= 2:
            return []
        legal = []
        points = self._geometry.points
        for index, stone in enumerate(self._stones.board):
            if not stone and not isinstance(self._placement(index), str):
                legal.append(points[index])
        return legal

    def fills_own_eye(self, point: Point) -> bool:
        """True when every neighbour of ``point`` on the board holds a stone of the side to
        move: a point it only fills to harm itself (the computer's random moves avoid it).

        >>> GoPosition.from_rows([".B.", "BB.", "..."], Color.BLACK).fills_own_eye((0, 0))
        True
        >>> GoPosition.from_rows([".B.", "BB.", "..."], Color.WHITE).fills_own_eye((0, 0))
        False

        Raises ``InvalidMoveError`` for a point off the board.
        """
        own = self._own
        board = self._stones.board
        return all(board[j] == own for j in self._geometry.neighbours[self._index(point)])

    # Playing

    def play(self, move: Move) -> tuple[Self, Diff]:
        """The position after ``move`` by the side to move, and what the move changed.

        Raises ``InvalidMoveError`` for a point off the board and
        ``IllegalMoveError`` (the message says why) for a move the rules
        forbid: play is over (two passes; ``resume()`` first), the point is
        occupied, the placement is suicide, or it recreates an earlier board
        (superko). A pass is legal whenever play goes on.
        """
        own = self._own
        if move.action == "pass":
            if self._passes >= 2:
                raise IllegalMoveError(gettext_noop("play is over: both sides passed"))
            after = self._make(
                self._geometry,
                self._stones,
                3 - own,
                self._history,
                self._length,
                self._prisoners,
                self._passes + 1,
            )
            return after, Diff(_COLOR[own], "pass")
        index = self._index(move.point)
        if self._passes >= 2:
            raise IllegalMoveError(gettext_noop("play is over: both sides passed"))
        placement = self._placement(index)
        if isinstance(placement, str):
            raise IllegalMoveError(placement)
        geometry = self._geometry
        stones = self._stones
        color = _COLOR[own]
        points = geometry.points
        black, white = self._prisoners
        captured = placement[1]
        if captured:
            taken = sorted(i for number in captured for i in stones.chains[number][0])
            if own == _BLACK:
                black += len(taken)
            else:
                white += len(taken)
            diff = Diff(color, "place", points[index], captured=tuple(points[i] for i in taken))
        else:
            diff = Diff(color, "place", points[index])
        after = self._make(
            geometry,
            stones.placed(geometry, index, own, placement),
            3 - own,
            self._history.extended(self._length, placement[0]),
            self._length + 1,
            (black, white),
            0,
        )
        return after, diff

    def _placement(self, index: int) -> _Placement | str:
        """What placing a stone of the side to move on ``index`` does, or why it may not."""
        stones = self._stones
        board, label, chains = stones.board, stones.label, stones.chains
        if board[index]:
            return f"{self._name(index)} is occupied"
        own = self._own
        free: list[int] = []
        friends: list[int] = []
        captured: list[int] = []
        enemies: list[int] = []
        breathes = False
        for j in self._geometry.neighbours[index]:
            stone = board[j]
            if not stone:
                free.append(j)
            elif stone == own:
                number = label[j]
                if number not in friends:
                    friends.append(number)
                    breathes = breathes or len(chains[number][1]) > 1
            else:
                number = label[j]
                if len(chains[number][1]) > 1:
                    if number not in enemies:
                        enemies.append(number)
                elif number not in captured:
                    captured.append(number)
        if not free and not breathes and not captured:
            return f"{self._name(index)} is suicide: it would leave its own chain without liberty"
        keys = self._geometry.keys
        key = stones.key ^ keys[own][index]
        if captured:
            other_keys = keys[3 - own]
            for number in captured:
                for i in chains[number][0]:
                    key ^= other_keys[i]
        history = self._history
        if history.superko and history.first_seen.get(key, self._length) < self._length:
            return f"{self._name(index)} would repeat an earlier board position (superko)"
        return key, captured, friends, free, enemies

    def _index(self, point: object) -> int:
        try:
            index: int | None = self._geometry.index.get(point)  # type: ignore[call-overload]
        except TypeError:
            index = None
        if index is None:
            raise self._off_board(point)
        return index

    def _name(self, index: int) -> str:
        return _format_point(self.size, self._geometry.points[index])

    # Notation

    def format_point(self, point: Point) -> str:
        """The point in human notation: ``(18, 0)`` is ``A1`` and ``(0, 0)`` ``A19`` on 19x19.

        Columns are ``A``.. without ``I``, rows count from the bottom. Raises
        ``InvalidMoveError`` for a point off the board.
        """
        return self._name(self._index(point))

    def parse_point(self, text: str) -> Point:
        """The point written ``text`` (e.g. ``D4``, case ignored) on this board.

        Raises ``InvalidMoveError`` for text that is not a point of this board.

        >>> GoPosition.start(19).parse_point("t19")
        (0, 18)
        """
        match = _NOTATION.fullmatch(text.strip().upper())
        if match is None:
            raise InvalidMoveError(
                gettext_noop(
                    "%(text)s is not a point: expected a column letter (not I) "
                    "and a row number, e.g. D4"
                ),
                text=repr(text),
            )
        point = (self.size - int(match[2]), COLUMNS.index(match[1]))
        if point not in self._geometry.index:
            raise self._off_board(text)
        return point

    # Value semantics

    def _identity(self) -> tuple[object, ...]:
        return (
            self.size,
            self._stones.key,
            self._own,
            self._prisoners,
            self.consecutive_passes,
            self._length,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GoPosition):
            return NotImplemented
        return (
            self._identity() == other._identity()
            and self._stones.board == other._stones.board
            and self._history.hashes[: self._length] == other._history.hashes[: other._length]
        )

    def __hash__(self) -> int:
        return hash(self._identity())

    def __repr__(self) -> str:
        return f"GoPosition.from_rows({self.rows()!r}, {self.to_move!r})"


def _read_rows(rows: Sequence[str]) -> tuple[_Geometry, _Stones]:
    """The board drawn as ``rows``; ``RulesError`` if it is not a legal Go board."""
    if isinstance(rows, str):
        raise RulesError("rows must be a sequence of strings, not one string")
    geometry = _geometry(_check_size(len(rows)))
    board: list[int] = []
    for row, line in enumerate(rows):
        if not isinstance(line, str) or len(line) != geometry.size:
            raise RulesError(
                gettext_noop("row %(number)s is not a string of %(size)s points"),
                number=row + 1,
                size=geometry.size,
            )
        for point in line:
            if point not in _LETTER:
                raise RulesError(
                    gettext_noop("row %(number)s has %(point)s: expected '.', 'B' or 'W'"),
                    number=row + 1,
                    point=repr(point),
                )
            board.append(_LETTER[point])
    stones = _Stones.of(geometry, board)
    for number, (_, liberties) in stones.chains.items():
        if not liberties:
            where = _format_point(geometry.size, geometry.points[number])
            raise RulesError(f"the chain at {where} has no liberty")
    return geometry, stones


def _format_point(size: int, point: Point) -> str:
    row, col = point
    return f"{COLUMNS[col]}{size - row}"


# Handicap

MAX_HANDICAP: Mapping[int, int] = {3: 0, 5: 0, 7: 4, 9: 5, 11: 9, 13: 9, 15: 9, 17: 9, 19: 9}
"""The most handicap stones each board size takes. GNU Go's ``fixed_handicap`` (GTP's
placement) has no point for 3x3 and 5x5, four on 7x7 and nine on larger boards; on 9x9
we stop at five, as OGS and the contract do (six to nine leave the board no room)."""


def handicap_counts(size: int) -> range:
    """The numbers of handicap stones a ``size`` board takes: 2 up to ``MAX_HANDICAP``
    (empty for 3x3 and 5x5). Raises ``RulesError`` for a size Go does not allow.

    >>> handicap_counts(9), handicap_counts(19), handicap_counts(5)
    (range(2, 6), range(2, 10), range(2, 1))
    """
    return range(2, MAX_HANDICAP[_check_size(size)] + 1)


def handicap_points(size: int, stones: int) -> tuple[Point, ...]:
    """Where ``stones`` handicap stones stand on a ``size`` board: GTP's
    ``fixed_handicap`` points (the 3-3 points below 13x13, the 4-4 points from 13x13 on,
    the sides' middles and the centre), in reading order.

    Two take opposite corners (top right, bottom left), three add the top left, four
    the last corner; five add the centre; six the middles of the left and right
    sides, seven those and the centre; eight the four sides' middles, nine the centre
    too. Raises ``RulesError`` for a size Go does not allow or a number of stones the
    size does not take (``handicap_counts``).

    >>> [GoPosition.start(19).format_point(p) for p in handicap_points(19, 3)]
    ['D16', 'Q16', 'D4']
    """
    counts = handicap_counts(size)
    if type(stones) is not int or stones not in counts:
        takes = (
            gettext_noop(
                "a %(size)sx%(size)s board takes %(low)s to %(high)s stones, not %(stones)s"
            )
            if counts
            else gettext_noop("a %(size)sx%(size)s board takes no handicap, not %(stones)s")
        )
        raise RulesError(
            takes, size=size, low=counts.start, high=counts.stop - 1, stones=repr(stones)
        )
    near = 2 if size < 13 else 3
    far, middle = size - 1 - near, size // 2
    corners = [(near, far), (far, near), (near, near), (far, far)][: min(stones, 4)]
    left_right = [(middle, near), (middle, far)]
    top_bottom = [(near, middle), (far, middle)]
    sides = {6: left_right, 7: left_right, 8: left_right + top_bottom, 9: left_right + top_bottom}
    centre = [(middle, middle)] if stones in (5, 7, 9) else []
    return tuple(sorted([*corners, *sides.get(stones, []), *centre]))


def handicap_position(size: int, stones: int) -> GoPosition:
    """The start of a handicap game: ``stones`` black stones on ``handicap_points``,
    White to move. Raises ``RulesError`` like ``handicap_points``.

    >>> handicap_position(7, 2).rows()
    ['.......', '.......', '....B..', '.......', '..B....', '.......', '.......']
    """
    grid = [[EMPTY] * size for _ in range(size)]
    for row, col in handicap_points(size, stones):
        grid[row][col] = Color.BLACK.letter
    return GoPosition.from_rows(["".join(line) for line in grid], Color.WHITE)


# Scoring


@dataclass(frozen=True)
class GoScore:
    """The count at the end of a game, per colour.

    ``territory``: empty points owned (in an empty region bordered by that
    colour only, once the dead stones are lifted); ``prisoners``: opponent
    stones captured during play; ``dead``: opponent stones marked dead;
    ``stones``: own stones left alive on the board; ``komi``: 0 for Black, the
    komi for White; ``total``: territory + prisoners + dead + komi by
    territory scoring, stones + territory + komi by area scoring.
    """

    method: ScoringMethod
    territory: dict[Color, int]
    prisoners: dict[Color, int]
    dead: dict[Color, int]
    stones: dict[Color, int]
    komi: dict[Color, float]
    total: dict[Color, float]
    territory_points: dict[Color, frozenset[Point]]
    result: str
    """``B+3.5``, ``W+1``, ``Draw``: the winner and margin, whole numbers without ``.0``."""


def score(
    position: GoPosition,
    *,
    dead: Collection[Point] = (),
    komi: float = 0.0,
    method: ScoringMethod = "territory",
) -> GoScore:
    """Count ``position`` with the stones in ``dead`` taken off as prisoners.

    Territory scoring (the default, the rules of the Waterloo seed): an empty
    region bordered by one colour only is that colour's territory; each side
    scores its territory plus its prisoners, the opponent stones marked dead
    included (their points join the territory around them). Area scoring:
    stones left on the board plus territory. Komi is added to White. Regions
    bordered by both colours (dame, the shared liberties of a seki) count for
    nobody; the eyes of a group in seki count for its owner, as the seed's rule
    says.

    Raises ``RulesError`` for an unknown method, a komi that is not a finite
    number, or a dead point off the board or without a stone.

    >>> position = GoPosition.from_rows([".B.", "BB.", "..."], Color.WHITE)
    >>> score(position, komi=0.5).result
    'B+5.5'
    """
    if method not in ("territory", "area"):
        raise RulesError(
            gettext_noop("unknown scoring method %(method)s: expected territory or area"),
            method=repr(method),
        )
    if isinstance(komi, bool) or not isinstance(komi, int | float) or not math.isfinite(komi):
        raise RulesError(
            gettext_noop("komi must be a finite number, not %(komi)s"), komi=repr(komi)
        )
    geometry = position._geometry
    board = position._stones.board.copy()
    dead_counts = {Color.BLACK: 0, Color.WHITE: 0}
    for point in set(dead):
        index = position._index(point)
        stone = board[index]
        if not stone:
            raise RulesError(
                gettext_noop("%(format_point)s has no stone to mark dead"),
                format_point=position.format_point(point),
            )
        dead_counts[_COLOR[3 - stone]] += 1
        board[index] = _EMPTY
    owned = _territory(geometry, board)
    territory_points = {
        color: frozenset(geometry.points[i] for i in owned[_STONE[color]]) for color in Color
    }
    stones = {color: board.count(_STONE[color]) for color in Color}
    prisoners = position.prisoners
    komi_of = {Color.BLACK: 0.0, Color.WHITE: float(komi)}
    total: dict[Color, float] = {}
    for color in Color:
        counted = len(territory_points[color]) + komi_of[color]
        if method == "territory":
            counted += prisoners[color] + dead_counts[color]
        else:
            counted += stones[color]
        total[color] = counted
    return GoScore(
        method=method,
        territory={color: len(points) for color, points in territory_points.items()},
        prisoners=prisoners,
        dead=dead_counts,
        stones=stones,
        komi=komi_of,
        total=total,
        territory_points=territory_points,
        result=_result(total[Color.BLACK] - total[Color.WHITE]),
    )


def _territory(geometry: _Geometry, board: Sequence[int]) -> dict[int, list[int]]:
    """The empty indices in regions bordered by black only and by white only."""
    owned: dict[int, list[int]] = {_BLACK: [], _WHITE: []}
    for region in _regions(geometry, board):
        if region.owner:
            owned[region.owner] += region.points
    return owned


@dataclass(frozen=True, slots=True)
class _Region:
    """An empty region: its indices and the stones next to it."""

    points: list[int]
    bordering: frozenset[int]
    """The indices of the stones next to the region."""
    counts: tuple[int, int, int]
    """How many of those stones are black (index 1) and white (index 2)."""

    @property
    def owner(self) -> int:
        """The stone value of the only colour bordering the region, else 0."""
        _, black, white = self.counts
        return _BLACK if black and not white else _WHITE if white and not black else _EMPTY


def _regions(geometry: _Geometry, board: Sequence[int]) -> list[_Region]:
    """Every empty region of ``board``."""
    neighbours = geometry.neighbours
    seen: set[int] = set()
    regions = []
    for start, stone in enumerate(board):
        if stone or start in seen:
            continue
        points = _chain(board, start, neighbours)
        seen.update(points)
        bordering = frozenset(j for i in points for j in neighbours[i] if board[j])
        black = sum(board[j] == _BLACK for j in bordering)
        regions.append(_Region(points, bordering, (0, black, len(bordering) - black)))
    return regions


def _result(margin: float) -> str:
    if margin == 0:
        return "Draw"
    winner = "B" if margin > 0 else "W"
    margin = abs(margin)
    return f"{winner}+{int(margin) if margin == int(margin) else margin}"


# Guessing dead stones

_BIG_EYE = 4
"""An eye of this many points or more counts as two: most such shapes live."""


def estimate_dead(position: GoPosition) -> frozenset[Point]:
    """A first guess of the stones both players would agree are dead.

    The heuristic, meant to be corrected by the players in the scoring phase:

    1. Chains of one colour that touch a common *eye* (an empty region
       bordered by that colour only) form one group. An eye of four points or
       more counts as two.
    2. An empty region is *held* by a colour when more of the stones around it
       are of that colour than of the other, and it covers less than half the
       board (a wider one is open ground).
    3. A group is *hopeless* when it has fewer than two eyes and every other
       region it touches is held by the opponent.
    4. A hopeless group is dead, unless it touches a region together with an
       opponent group that is *weak* too: one that has fewer than two eyes
       even when the hopeless stones around its regions are lifted. That is a
       seki, or a fight nobody has won yet: both groups stay on the board.

    So a lone stone, or a group with a single small eye, inside the opponent's
    territory is dead; groups in seki, and groups in an open, unsettled board,
    live. It does not read ladders, false eyes or the vital points of big eyes.

    >>> position = GoPosition.from_rows(
    ...     ["..BW.", ".WBW.", "..BW.", "..BW.", "..BW."], Color.BLACK
    ... )
    >>> sorted(estimate_dead(position))
    [(1, 1)]
    """
    geometry = position._geometry
    stones = position._stones
    board, label = stones.board, stones.label
    regions = _regions(geometry, board)
    parent = {number: number for number in stones.chains}

    def group(chain: int) -> int:
        while parent[chain] != chain:
            parent[chain] = parent[parent[chain]]
            chain = parent[chain]
        return chain

    for region in regions:
        if region.owner:
            first, *others = {label[j] for j in region.bordering}
            for other in others:
                parent[group(other)] = group(first)
    # A group is known by one of its stones, so board[g] is the colour of group g.
    touching = [{group(label[j]) for j in region.bordering} for region in regions]
    half_board = len(board) / 2
    eyes = dict.fromkeys({g for groups in touching for g in groups}, 0)
    open_ground: set[int] = set()
    for region, groups in zip(regions, touching, strict=True):
        value = 2 if len(region.points) >= _BIG_EYE else 1
        for g in groups:
            own = board[g]
            if region.owner == own:
                eyes[g] += value
            elif len(region.points) >= half_board or region.counts[own] >= region.counts[3 - own]:
                open_ground.add(g)
    hopeless = {g for g, count in eyes.items() if count < 2 and g not in open_ground}
    lifted_eyes = dict.fromkeys(eyes, 0)
    for region, groups in zip(regions, touching, strict=True):
        value = 2 if len(region.points) >= _BIG_EYE else 1
        for g in groups:
            if all(board[j] == board[g] or group(label[j]) in hopeless for j in region.bordering):
                lifted_eyes[g] += value
    spared = {
        g
        for groups in touching
        for g in groups & hopeless
        if any(board[other] != board[g] and lifted_eyes[other] < 2 for other in groups)
    }
    points = geometry.points
    return frozenset(
        points[i]
        for number, (chain, _) in stones.chains.items()
        if group(number) in hopeless - spared
        for i in chain
    )
