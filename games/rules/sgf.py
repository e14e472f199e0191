"""Game records in and out: SGF (FF[4]) for both games, and Othello transcripts.

SGF is read and written with sgfmill's ``sgf_grammar``, which knows the syntax
(escapes, values, collections) but no game; this module maps it to a
``GameRecord`` and checks every move with the rules.

Conventions of the files written here, and read back:

- ``GM[1]`` is Go, ``GM[2]`` Othello; ``FF[4]``, ``CA[UTF-8]``, ``SZ``, ``AP``,
  and when known ``KM`` (Go), ``PB``, ``PW``, ``DT``, ``RE``, ``GN``, ``GC``.
- A game that starts from a setup position writes it in the root: ``AB``,
  ``AW``, ``PL`` (the side to move), and ``HA`` when the record read one.
- One node per move, ``B[..]`` or ``W[..]``: column letter then row letter,
  counted from the top-left corner, so ``aa`` is ``(0, 0)`` and Othello's
  ``f5`` is ``fe``. A pass is an empty value, ``B[]``; Othello's automatic
  passes are written the same way. On reading, ``tt`` is a pass too (FF[3]).
- A scored Go game carries, in its last node, the territory as ``TB``/``TW``
  and the stones agreed dead as ``MA`` (marks, which viewers draw as crosses
  on those stones). SGF has no property meant for dead stones; ``MA`` in the
  node holding the final territory is what CGoban and KGS write.

What reading accepts beyond that, and what it refuses:

- Only the main line is read (the first variation wherever the game branches).
- Text is decoded with the file's ``CA``; without one, as UTF-8 if it is valid
  UTF-8, else as ISO-8859-1 (the SGF default). A ``str`` is taken as already
  decoded, whatever its ``CA`` says.
- A start position other than the game's own is read from the root node: the
  board ``AB``/``AW``/``AE`` lay out on an empty board (without them, the
  game's start: Othello's four centre discs), and the side to move ``PL``;
  without ``PL``, White when a Go handicap (``HA`` of 2 or more) placed black
  stones only, else Black. It must be a legal board: no Go chain without a
  liberty, and an Othello board that play can reach. ``HA`` is kept with it.
  A setup that lays out the game's own start (Othello programs often write the
  four centre discs) is no setup. Setup in any later node is refused.
- Othello: a placement by the side that did not have the turn is accepted when
  the other side had to pass (the automatic pass is put in), and the record
  ends with the automatic passes that follow its last placement, as a game
  played on the server does. A pass by a side that had a move is illegal.

>>> record = import_sgf("(;GM[2]SZ[8]PB[Ann]PW[Bo];B[fe];W[fd])")
>>> othello_transcript(record), record.black_name
('f5f4', 'Ann')
>>> print(export_sgf(record), end="")
(;FF[4]AP[othello-go-server:0.1]CA[UTF-8]GM[2]PB[Ann]PW[Bo]SZ[8];B[fe];W[fd])
"""

from __future__ import annotations

import codecs
import datetime
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from sgfmill import sgf_grammar, sgf_properties  # type: ignore[import-untyped]

from games.rules.base import Term, gettext_noop

from . import Position, new_position
from .base import EMPTY, Color, Diff, InvalidMoveError, Move, Point, RulesError
from .clock import TimeControl, TimeControlError
from .go import GoPosition
from .othello import OthelloPosition

__all__ = [
    "GameKind",
    "GameRecord",
    "RecordError",
    "Setup",
    "export_collection",
    "export_sgf",
    "import_collection",
    "import_sgf",
    "othello_transcript",
    "parse_othello_transcript",
    "parse_sgf_point",
    "replay",
    "sgf_point",
    "start_position",
]

GameKind = Literal["go", "othello"]

GAME_NUMBERS: dict[GameKind, int] = {"go": 1, "othello": 2}
"""The SGF ``GM`` number of each game."""

IMPORT_SIZES: dict[GameKind, range] = {"go": range(3, 20, 2), "othello": range(4, 17, 2)}
"""The board sizes a file may have: Go odd 3 to 19, Othello even 4 to 16."""

_DEFAULT_SIZES: dict[GameKind, int] = {"go": 19, "othello": 8}
_GAME_NAMES: dict[GameKind, str] = {"go": "Go", "othello": "Othello"}
_SIZE_RULES: dict[GameKind, str] = {"go": "odd sizes 3 to 19", "othello": "even sizes 4 to 16"}
_APPLICATION = sgf_grammar.compose(b"othello-go-server", b"0.1")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_SETUP = ("AB", "AW", "AE")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")

PropertyMap = dict[str, list[bytes]]


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


# Points


def sgf_point(point: Point, size: int) -> str:
    """The SGF letters of ``point`` on a ``size`` board: column, then row from the top.

    ``(0, 0)`` is ``aa``, the top-left corner. Raises ``InvalidMoveError`` for a
    point off the board (or a board wider than SGF's 26 letters).

    >>> sgf_point((2, 3), 9)
    'dc'
    """
    row, col = point
    if not (size <= len(_LETTERS) and 0 <= row < size and 0 <= col < size):
        raise InvalidMoveError(
            gettext_noop("%(point)s is not a point of the %(size)sx%(size)s board"),
            point=repr(point),
            size=size,
        )
    return _LETTERS[col] + _LETTERS[row]


def parse_sgf_point(text: str, size: int) -> Point:
    """The point written in SGF letters on a ``size`` board: ``dc`` is ``(2, 3)``.

    A pass (``""``, or ``tt`` in old Go files) is not a point. Raises
    ``InvalidMoveError`` for anything but two lowercase letters on the board.

    >>> parse_sgf_point("dc", 9)
    (2, 3)
    """
    letters = _LETTERS[:size]
    if len(text) != 2 or text[0] not in letters or text[1] not in letters:
        raise InvalidMoveError(
            gettext_noop("%(text)s is not a point of the %(size)sx%(size)s board in SGF"),
            text=repr(text),
            size=size,
        )
    return letters.index(text[1]), letters.index(text[0])


# Writing


def export_sgf(record: GameRecord) -> str:
    """The record as the text of an SGF file (one game, ending with a newline).

    Raises ``RecordError`` for a kind other than go/othello or a board wider
    than SGF's 26 point letters.
    """
    return _serialise(_game_tree(record))


def export_collection(records: Iterable[GameRecord]) -> str:
    """Several records as one SGF collection, in the order given."""
    return "".join(_serialise(_game_tree(record)) for record in records)


def _serialise(tree: object) -> str:
    serialised: bytes = sgf_grammar.serialise_game_tree(tree)
    return serialised.decode("utf-8")


def _game_tree(record: GameRecord) -> object:
    if record.kind not in GAME_NUMBERS:
        raise RecordError(
            gettext_noop("unknown game kind %(kind)s: expected go or othello"),
            kind=repr(record.kind),
        )
    if not 1 <= record.size <= len(_LETTERS):
        raise RecordError(
            gettext_noop("an SGF board has 1 to 26 lines, not %(size)s"), size=record.size
        )
    root: PropertyMap = {
        "FF": [b"4"],
        "GM": [str(GAME_NUMBERS[record.kind]).encode()],
        "CA": [b"UTF-8"],
        "SZ": [str(record.size).encode()],
        "AP": [_APPLICATION],
    }
    if record.kind == "go" and record.komi is not None:
        root["KM"] = [sgf_properties.serialise_real(record.komi)]
    texts = {
        "PB": record.black_name,
        "PW": record.white_name,
        "DT": record.date,
        "RE": record.result,
        "GN": record.game_name,
        "GC": record.comment,
    }
    for identifier, text in texts.items():
        if text is not None:
            root[identifier] = [sgf_grammar.escape_text(text.encode("utf-8"))]
    if record.setup is not None:
        _write_setup(root, record.setup, record.size)
    if record.time_control is not None:
        _write_time_control(root, record.time_control)
    nodes = [root]
    for number, (color, move) in enumerate(record.moves):
        value = b"" if move.point is None else _point_value(move.point, record.size)
        node = {color.letter: [value]}
        clock = record.clocks[number] if number < len(record.clocks) else None
        if clock is not None:
            node[f"{color.letter}L"] = [sgf_properties.serialise_real(clock.remaining_ms / 1000)]
            if clock.overtime_left is not None:
                node[f"O{color.letter}"] = [str(clock.overtime_left).encode("ascii")]
        nodes.append(node)
    for number, text in record.comments.items():
        node = nodes[min(max(number, 0), len(nodes) - 1)]
        said = [sgf_grammar.escape_text(text.encode("utf-8"))]
        node["C"] = [b"\n".join(node.get("C", []) + said)]
    if record.kind == "go":
        _write_points(nodes[-1], "TB", record.territory.get(Color.BLACK, ()), record.size)
        _write_points(nodes[-1], "TW", record.territory.get(Color.WHITE, ()), record.size)
        _write_points(nodes[-1], "MA", record.dead, record.size)
    tree = sgf_grammar.Coarse_game_tree()
    tree.sequence = nodes
    return tree


def _write_time_control(root: PropertyMap, control: TimeControl) -> None:
    """TM (main time, seconds) and OT, in the words other servers use (``5x30 byo-yomi``,
    ``25/300 Canadian``) and ``_read_time_control`` reads back."""
    if control.main_time is not None:
        root["TM"] = [str(control.main_time).encode("ascii")]
    overtime = {
        "fischer": f"fischer +{control.increment}",
        "byoyomi": f"{control.periods}x{control.period_time} byo-yomi",
        "canadian": f"{control.stones}/{control.period_time} Canadian",
        "absolute": "absolute",
        "correspondence": f"{control.days} days per move",
    }[control.system]
    root["OT"] = [sgf_grammar.escape_text(overtime.encode("ascii"))]


def _write_setup(root: PropertyMap, setup: Setup, size: int) -> None:
    for color in Color:
        stones = (
            (row, col)
            for row, line in enumerate(setup.rows)
            for col, square in enumerate(line)
            if square == color.letter
        )
        _write_points(root, f"A{color.letter}", stones, size)
    root["PL"] = [setup.to_move.letter.encode("ascii")]
    if setup.handicap is not None:
        root["HA"] = [str(setup.handicap).encode("ascii")]


def _point_value(point: Point, size: int) -> bytes:
    try:
        return sgf_point(point, size).encode("ascii")
    except InvalidMoveError as error:
        raise RecordError(str(error)) from None


def _write_points(node: PropertyMap, identifier: str, points: Iterable[Point], size: int) -> None:
    values = [_point_value(point, size) for point in sorted(points)]
    if values:
        node[identifier] = values


# Reading


def import_sgf(text: str | bytes) -> GameRecord:
    """The one game of an SGF file, every move checked by the rules.

    ``text`` is the file's content, as bytes (decoded by its ``CA``) or as
    already decoded text. The game starts from the root's setup, if any. Raises
    ``RecordError`` naming the problem: not SGF, several games, an unsupported
    game or board size, a setup that is not a legal board or not in the root
    node, a value that cannot be read, or an illegal move (its number, point
    and the reason).
    """
    games = _parse_collection(text)
    if len(games) > 1:
        raise RecordError(
            gettext_noop("the file holds %(count)s games: import them one at a time"),
            count=len(games),
        )
    return _read_game(*games[0])


def import_collection(text: str | bytes) -> list[GameRecord]:
    """Every game of an SGF collection, as ``import_sgf`` reads one.

    Errors in the second game or later say which game (``game 2: ...``).
    """
    games = _parse_collection(text)
    if len(games) == 1:
        return [_read_game(*games[0])]
    records = []
    for number, game in enumerate(games, start=1):
        try:
            records.append(_read_game(*game))
        except RecordError as error:
            raise RecordError(
                gettext_noop("game %(number)s: %(error)s"), number=number, error=error
            ) from None
    return records


class _Game(NamedTuple):
    nodes: list[PropertyMap]
    encoding: str | None


def _parse_collection(text: str | bytes) -> list[_Game]:
    data, encoding = (text.encode("utf-8"), "utf-8") if isinstance(text, str) else (text, None)
    try:
        trees = sgf_grammar.parse_sgf_collection(data)
    except ValueError as error:
        raise RecordError(
            gettext_noop("not an SGF file: %(parse_problem)s"),
            parse_problem=_parse_problem(str(error)),
        ) from None
    return [_Game(list(sgf_grammar.main_sequence_iter(tree)), encoding) for tree in trees]


def _parse_problem(message: str) -> str:
    """sgfmill's message, with its games counted from 1 and the only game not named."""
    numbered = re.fullmatch(r"error parsing game (\d+): (.*)", message, re.DOTALL)
    if numbered is None:
        return message
    number = int(numbered[1]) + 1
    return numbered[2] if number == 1 else f"game {number}: {numbered[2]}"


def _read_game(nodes: list[PropertyMap], encoding: str | None) -> GameRecord:
    root = nodes[0]
    reader = _Reader(root, encoding or _declared_encoding(root))
    kind = _kind(root)
    size = _size(root, kind)
    setup, start = _read_start(root, kind, size)
    _refuse_later_setup(nodes)
    entries = [_entry(node, number, size) for number, node in _move_nodes(nodes)]
    played = list(_replay(start, entries, fill_passes=True))
    # A file's move N is played move N plus the passes put in before it.
    after = {0: 0} | {step.number: index for index, step in enumerate(played, 1) if step.number}
    clocks = tuple(step.clock for step in played)
    final = played[-1].position if played else start
    last = nodes[-1]
    dead = _read_points(last, "MA", size) if kind == "go" else frozenset()
    _check_dead(dead, final)
    result = _result(reader.simple_text("RE"))
    if result is None and isinstance(final, OthelloPosition):
        result = final.result()
    return GameRecord(
        kind=kind,
        size=size,
        moves=tuple((step.color, step.move) for step in played),
        black_name=reader.simple_text("PB"),
        white_name=reader.simple_text("PW"),
        komi=_komi(root) if kind == "go" else None,
        result=result,
        date=reader.simple_text("DT"),
        dead=dead,
        territory=_territory(last, size) if kind == "go" else {},
        game_name=reader.simple_text("GN"),
        comment=reader.text("GC"),
        setup=setup,
        time_control=_read_time_control(root, reader),
        clocks=clocks if any(clock is not None for clock in clocks) else (),
        comments={after[number]: text for number, text in _comments(nodes, reader).items()},
    )


def _comments(nodes: Sequence[PropertyMap], reader: _Reader) -> dict[int, str]:
    """Every node's ``C`` by the number of the file's moves up to that node."""
    comments: dict[int, list[str]] = {}
    number = 0
    for node in nodes:
        if "B" in node or "W" in node:
            number += 1
        text = reader.text("C", node)
        if text:
            comments.setdefault(number, []).append(text)
    return {number: "\n".join(texts) for number, texts in comments.items()}


_OVERTIME = {
    "fischer": re.compile(r"fischer\s*\+?\s*(?P<increment>[0-9]+)\s*s?", re.IGNORECASE),
    "byoyomi": re.compile(
        r"(?P<periods>[0-9]+)\s*x\s*(?P<period_time>[0-9]+)\s*byo-?yomi", re.IGNORECASE
    ),
    "canadian": re.compile(
        r"(?P<stones>[0-9]+)\s*/\s*(?P<period_time>[0-9]+)\s*canadian", re.IGNORECASE
    ),
    "absolute": re.compile(r"absolute", re.IGNORECASE),
    "correspondence": re.compile(r"(?P<days>[0-9]+)\s*days?\s*per\s*move", re.IGNORECASE),
}


def _read_time_control(root: PropertyMap, reader: _Reader) -> TimeControl | None:
    """The clock TM and OT name, when OT is in words this module writes; else None (a
    record's clock in other words is not guessed at)."""
    overtime = (reader.simple_text("OT") or "").strip()
    main = _ascii(root, "TM", "")
    try:
        main_time = round(float(main)) if main else None
    except ValueError:
        return None
    if not overtime and main_time:
        overtime = "absolute"
    for system, pattern in _OVERTIME.items():
        found = pattern.fullmatch(overtime)
        if found is None:
            continue
        settings = {name: int(value) for name, value in found.groupdict().items()}
        try:
            return TimeControl.build(system, main_time=main_time, **settings)
        except TimeControlError:
            return None
    return None


def _territory(node: PropertyMap, size: int) -> dict[Color, frozenset[Point]]:
    """TB/TW, keyed only by the colours that own some territory."""
    owned = {color: _read_points(node, f"T{color.letter}", size) for color in Color}
    return {color: points for color, points in owned.items() if points}


def _declared_encoding(root: PropertyMap) -> str | None:
    if "CA" not in root:
        return None
    name = root["CA"][0].decode("ascii", "replace").strip()
    try:
        codecs.lookup(name)
    except LookupError:
        raise RecordError(gettext_noop("unknown character set CA[%(name)s]"), name=name) from None
    return name


class _Reader:
    """Decodes the root's text properties; ``encoding`` None means guess."""

    def __init__(self, root: PropertyMap, encoding: str | None) -> None:
        self.root = root
        self.encoding = encoding

    def simple_text(self, identifier: str) -> str | None:
        if identifier not in self.root:
            return None
        return self._decode(identifier, sgf_grammar.simpletext_value(self.root[identifier][0]))

    def text(self, identifier: str, node: PropertyMap | None = None) -> str | None:
        """The Text value of ``identifier`` in ``node`` (the root when None)."""
        node = self.root if node is None else node
        if identifier not in node:
            return None
        return self._decode(identifier, sgf_grammar.text_value(node[identifier][0]))

    def _decode(self, identifier: str, value: bytes) -> str:
        if self.encoding is None:
            try:
                return value.decode("utf-8")
            except UnicodeDecodeError:
                return value.decode("iso-8859-1")
        try:
            return value.decode(self.encoding)
        except UnicodeDecodeError:
            raise RecordError(
                gettext_noop("%(identifier)s is not valid %(encoding)s text"),
                identifier=identifier,
                encoding=self.encoding,
            ) from None


def _kind(root: PropertyMap) -> GameKind:
    raw = _ascii(root, "GM", "1")
    for kind, number in GAME_NUMBERS.items():
        if raw == str(number):
            return kind
    raise RecordError(
        gettext_noop(
            "unsupported game GM[%(raw)s]: only Go (GM[1]) and Othello (GM[2]) can be imported"
        ),
        raw=raw,
    )


def _size(root: PropertyMap, kind: GameKind) -> int:
    raw = _ascii(root, "SZ", str(_DEFAULT_SIZES[kind]))
    if not raw.isdigit():
        raise RecordError(
            gettext_noop("SZ[%(raw)s] is not a board size: expected one number, e.g. SZ[19]"),
            raw=raw,
        )
    size = int(raw)
    if size not in IMPORT_SIZES[kind]:
        raise RecordError(
            gettext_noop(
                "board size %(size)s is not supported for %(game_names)s: %(size_rules)s only"
            ),
            size=size,
            game_names=_GAME_NAMES[kind],
            size_rules=_SIZE_RULES[kind],
        )
    return size


def _komi(root: PropertyMap) -> float:
    raw = _ascii(root, "KM", "0")
    try:
        komi: float = sgf_properties.interpret_real(raw.encode("ascii"))
    except ValueError:
        raise RecordError(
            gettext_noop("KM[%(raw)s] is not a komi: expected a number, e.g. KM[6.5]"), raw=raw
        ) from None
    return komi


def _ascii(node: PropertyMap, identifier: str, default: str) -> str:
    if identifier not in node:
        return default
    return node[identifier][0].decode("ascii", "replace").strip()


def _read_start(root: PropertyMap, kind: GameKind, size: int) -> tuple[Setup | None, Position]:
    """The root's setup and the position it starts from; no setup when the root has none
    or lays out the game's own start."""
    standard = new_position(kind, size)
    if not any(identifier in root for identifier in (*_SETUP, "PL")):
        return None, standard
    laid_out = any(identifier in root for identifier in _SETUP)
    rows = _setup_rows(root, size) if laid_out else standard.rows()
    handicap = _handicap(root) if kind == "go" else None
    setup = Setup(tuple(rows), _first_player(root, rows, handicap), handicap)
    position = _setup_position(kind, size, setup)
    return (None, standard) if position == standard else (setup, position)


def _setup_rows(root: PropertyMap, size: int) -> list[str]:
    """The board AB/AW/AE lay out on an empty board; a point named twice is refused."""
    grid = [[EMPTY] * size for _ in range(size)]
    named: dict[Point, str] = {}
    for identifier in _SETUP:
        for point in sorted(_read_points(root, identifier, size)):
            if point in named:
                raise RecordError(
                    gettext_noop(
                        "the setup names %(sgf_point)s in both %(named)s and %(identifier)s"
                    ),
                    sgf_point=sgf_point(point, size),
                    named=named[point],
                    identifier=identifier,
                )
            named[point] = identifier
            if identifier != "AE":
                grid[point[0]][point[1]] = identifier[1]
    return ["".join(row) for row in grid]


def _handicap(root: PropertyMap) -> int | None:
    if "HA" not in root:
        return None
    raw = _ascii(root, "HA", "")
    if not raw.isdigit():
        raise RecordError(
            gettext_noop("HA[%(raw)s] is not a handicap: expected a number of stones, e.g. HA[2]"),
            raw=raw,
        )
    return int(raw)


def _first_player(root: PropertyMap, rows: Sequence[str], handicap: int | None) -> Color:
    """PL; without it, White after a handicap of black stones only, else Black."""
    if "PL" in root:
        raw = _ascii(root, "PL", "")
        try:
            return Color.from_letter(raw.upper())
        except ValueError:
            raise RecordError(
                gettext_noop("PL[%(raw)s] is not a player: expected PL[B] or PL[W]"), raw=raw
            ) from None
    board = "".join(rows)
    if handicap is not None and handicap > 1 and "B" in board and "W" not in board:
        return Color.WHITE
    return Color.BLACK


def _setup_position(kind: GameKind, size: int, setup: Setup) -> Position:
    """The position ``setup`` lays out; ``RecordError`` for a board the game cannot have."""
    if len(setup.rows) != size:
        raise RecordError(
            gettext_noop("the setup has %(count)s rows, not %(size)s"),
            count=len(setup.rows),
            size=size,
        )
    build: Callable[[Sequence[str], Color], Position] = (
        GoPosition.from_rows if kind == "go" else OthelloPosition.from_setup
    )
    try:
        return build(setup.rows, setup.to_move)
    except RulesError as error:
        raise RecordError(
            gettext_noop("the setup is not a legal %(game_names)s position: %(error)s"),
            game_names=_GAME_NAMES[kind],
            error=error,
        ) from None


def _refuse_later_setup(nodes: Sequence[PropertyMap]) -> None:
    for number, node in enumerate(nodes[1:], start=1):
        if any(identifier in node for identifier in _SETUP):
            raise RecordError(
                gettext_noop(
                    "setup properties (AB/AW/AE) in node %(number)s are not "
                    "supported: only the root node may lay out the start position"
                ),
                number=number,
            )


def _read_points(node: PropertyMap, identifier: str, size: int) -> frozenset[Point]:
    """The points of a point-list property: ``[]`` is none, rectangles (``aa:cc``) expanded."""
    points: set[Point] = set()
    for raw in node.get(identifier, []):
        if raw == b"":
            continue
        first, last = sgf_grammar.parse_compose(raw)
        top, left = _point(identifier, first, size)
        bottom, right = (top, left) if last is None else _point(identifier, last, size)
        points.update(
            (row, col)
            for row in range(min(top, bottom), max(top, bottom) + 1)
            for col in range(min(left, right), max(left, right) + 1)
        )
    return frozenset(points)


def _point(identifier: str, raw: bytes, size: int) -> Point:
    text = raw.decode("ascii", "replace")
    try:
        return parse_sgf_point(text, size)
    except InvalidMoveError:
        raise RecordError(
            gettext_noop("%(identifier)s[%(text)s] is not a point of the %(size)sx%(size)s board"),
            identifier=identifier,
            text=text,
            size=size,
        ) from None


def _move_nodes(nodes: Sequence[PropertyMap]) -> Iterator[tuple[int, PropertyMap]]:
    """The nodes that hold a move, numbered 1, 2, ... in the file's order."""
    number = 0
    for node in nodes:
        if "B" in node or "W" in node:
            number += 1
            yield number, node


def _entry(node: PropertyMap, number: int, size: int) -> _Entry:
    if "B" in node and "W" in node:
        raise RecordError(
            gettext_noop("move %(number)s: one node holds both B and W"), number=number
        )
    color = Color.BLACK if "B" in node else Color.WHITE
    values = node[color.letter]
    if len(values) != 1:
        raise RecordError(
            gettext_noop("move %(number)s: %(color)s has %(count)s values"),
            number=number,
            color=color.letter,
            count=len(values),
        )
    raw = values[0]
    label = f"{color.letter}[{raw.decode('ascii', 'replace')}]"
    clock = _move_clock(node, color, number)
    if raw == b"" or (raw == b"tt" and size <= 19):
        return _Entry(color, Move.pass_turn(), label, clock)
    try:
        point = _point(color.letter, raw, size)
    except RecordError as error:
        raise RecordError(
            gettext_noop("move %(number)s: %(error)s"), number=number, error=error
        ) from None
    return _Entry(color, Move.place(point), label, clock)


def _move_clock(node: PropertyMap, color: Color, number: int) -> MoveClock | None:
    """BL/WL (seconds left) and OB/OW (periods or stones left) of a move's node."""
    left = _ascii(node, f"{color.letter}L", "")
    if not left:
        return None
    overtime = _ascii(node, f"O{color.letter}", "")
    try:
        seconds = float(left)
        overtime_left = int(overtime) if overtime else None
    except ValueError:
        raise RecordError(
            gettext_noop(
                "move %(number)s: %(color)sL[%(left)s] O%(color)s[%(overtime)s] is no time left"
            ),
            number=number,
            color=color.letter,
            left=left,
            overtime=overtime,
        ) from None
    if not math.isfinite(seconds):
        raise RecordError(
            gettext_noop("move %(number)s: %(color)sL[%(left)s] is no time left"),
            number=number,
            color=color.letter,
            left=left,
        )
    return MoveClock(max(0, round(seconds * 1000)), overtime_left)


def _check_dead(dead: frozenset[Point], final: Position) -> None:
    rows = final.rows()
    for row, col in sorted(dead):
        if rows[row][col] == EMPTY:
            where = final.format_point((row, col))
            raise RecordError(
                gettext_noop("MA marks a dead stone at %(where)s, but that point is empty"),
                where=where,
            )


def _result(text: str | None) -> str | None:
    """RE as the server spells it: ``B+R`` for a resignation, ``B+T`` on time, ``B+F`` for
    a forfeit, ``Draw`` for a jigo."""
    if text is None or text.strip() in ("", "?", "Void"):
        return None
    text = text.strip()
    if text in ("0", "Draw", "Jigo"):
        return "Draw"
    winner = re.fullmatch(r"([BW])\+(R|Resign|T|Time|F|Forfeit)", text, re.IGNORECASE)
    if winner is not None:
        return f"{winner[1].upper()}+{winner[2][0].upper()}"
    return text


# Playing through a record


class _Entry(NamedTuple):
    """A move as a record states it: ``color`` None when the record does not say."""

    color: Color | None
    move: Move
    label: str = ""
    clock: MoveClock | None = None


class _Step(NamedTuple):
    """A move played: ``number`` is the record's (None for a pass put in)."""

    color: Color
    move: Move
    position: Position
    diff: Diff
    clock: MoveClock | None = None
    number: int | None = None


def replay(record: GameRecord) -> list[tuple[Position, Diff]]:
    """The position after each move of ``record``, with what the move changed.

    Every move is checked: raises ``RecordError`` naming the move (number,
    point, reason) when it is not its colour's turn or the rules forbid it.
    The moves start from ``start_position(record)``, which raises for a kind,
    size or setup the rules do not have.
    """
    start = start_position(record)
    entries = [_Entry(color, move) for color, move in record.moves]
    return [(step.position, step.diff) for step in _replay(start, entries, fill_passes=False)]


def start_position(record: GameRecord) -> Position:
    """The position before the first move of ``record``: its setup, else the game's start.

    Raises ``RecordError`` for a kind or size the rules do not have, or a setup
    that is not a legal board of the game.

    >>> setup = Setup(("...", ".B.", "..."), Color.WHITE, handicap=1)
    >>> start_position(GameRecord(kind="go", size=3, setup=setup))
    GoPosition.from_rows(['...', '.B.', '...'], Color.WHITE)
    """
    try:
        standard = new_position(record.kind, record.size)
    except RulesError as error:
        raise RecordError(str(error)) from None
    if record.setup is None:
        return standard
    return _setup_position(record.kind, record.size, record.setup)


def _replay(start: Position, entries: Iterable[_Entry], *, fill_passes: bool) -> Iterator[_Step]:
    """Play ``entries`` from ``start``; ``fill_passes`` puts in Othello's missing passes."""
    position = start
    for number, entry in enumerate(entries, start=1):
        if (
            fill_passes
            and isinstance(position, OthelloPosition)
            and position.must_pass
            and entry.move.action == "place"
            and entry.color is not position.to_move
        ):
            position, step = _pass(position)
            yield step
        color = position.to_move
        where = _describe(number, entry, position)
        if entry.color is not None and entry.color is not color:
            raise RecordError(
                gettext_noop("%(where)s: it is %(color)s's turn"),
                where=where,
                color=Term(color.value),
            )
        try:
            position, diff = position.play(entry.move)
        except RulesError as error:
            raise RecordError(
                gettext_noop("%(where)s: %(error)s"), where=where, error=error
            ) from None
        yield _Step(color, entry.move, position, diff, entry.clock, number)
    if fill_passes and isinstance(position, OthelloPosition) and position.must_pass:
        yield _pass(position)[1]


def _pass(position: OthelloPosition) -> tuple[OthelloPosition, _Step]:
    color = position.to_move
    after, diff = position.play(Move.pass_turn())
    return after, _Step(color, Move.pass_turn(), after, diff)


def _describe(number: int, entry: _Entry, position: Position) -> str:
    """``move 12 B[fe] (black f5)``: the move as the file spells it and as players say it."""
    player = (entry.color or position.to_move).value
    try:
        notation = position.notation(entry.move)
    except RulesError:
        notation = repr(entry.move.point)
    spelled = f" {entry.label}" if entry.label else ""
    return f"move {number}{spelled} ({player} {notation})"


# Othello transcripts


def othello_transcript(record: GameRecord) -> str:
    """An 8x8 Othello game as the plain transcript of its placements, e.g. ``f5d6c3``.

    Passes are left out: the transcript implies them. Raises ``RecordError``
    for any other game or size, or a game from a setup position.
    """
    start = _transcript_start(record.kind, record.size)
    if record.setup is not None:
        raise RecordError(
            gettext_noop("a transcript starts from the standard position, not from a setup")
        )
    return "".join(start.format_point(move.point) for _, move in record.moves if move.point)


def parse_othello_transcript(text: str) -> GameRecord:
    """The 8x8 Othello game of a transcript such as ``f5d6c3``, moves checked.

    Case and whitespace are ignored. The passes the transcript implies are put
    in, and a finished game gets its result by disc count. Raises
    ``RecordError`` naming the move that is not a square or not legal.
    """
    start = _transcript_start("othello", 8)
    squares = "".join(text.split()).lower()
    entries = []
    for number, index in enumerate(range(0, len(squares), 2), start=1):
        square = squares[index : index + 2]
        try:
            point = start.parse_point(square)
        except RulesError:
            raise RecordError(
                gettext_noop("move %(number)s: %(square)s is not a square of the 8x8 board"),
                number=number,
                square=repr(square),
            ) from None
        entries.append(_Entry(None, Move.place(point)))
    played = list(_replay(start, entries, fill_passes=True))
    final = played[-1].position if played else start
    return GameRecord(
        kind="othello",
        size=8,
        moves=tuple((step.color, step.move) for step in played),
        result=final.result() if isinstance(final, OthelloPosition) else None,
    )


def _transcript_start(kind: str, size: int) -> OthelloPosition:
    if kind != "othello" or size != 8:
        raise RecordError(
            gettext_noop("a transcript is for 8x8 Othello only, not %(size)sx%(size)s %(kind)s"),
            size=size,
            kind=kind,
        )
    return OthelloPosition.start(8)
