"""Reading SGF: one game (``import_sgf``) or a collection (``import_collection``),
every move checked by the rules (through ``gamerules.sgf.replaying``); what is accepted
and what refused is ``gamerules.sgf``'s docstring. sgfmill's ``sgf_grammar`` parses the
syntax; this module reads the game.
"""

from __future__ import annotations

import codecs
import math
import re
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from sgfmill import sgf_grammar, sgf_properties  # type: ignore[import-untyped]

from gamerules import Position, new_position
from gamerules.base import EMPTY, Color, InvalidMoveError, Move, Point, gettext_noop
from gamerules.clock import TimeControl, TimeControlError
from gamerules.othello import OthelloPosition

from .properties import PropertyMap, parse_sgf_point, sgf_point
from .record import (
    GAME_NAMES,
    GAME_NUMBERS,
    IMPORT_SIZES,
    GameKind,
    GameRecord,
    MoveClock,
    RecordError,
    Setup,
)
from .replaying import Entry, play_entries, position_from_setup

__all__ = ["import_collection", "import_sgf"]

_DEFAULT_SIZES: dict[GameKind, int] = {"go": 19, "othello": 8}
_SIZE_RULES: dict[GameKind, str] = {"go": "odd sizes 3 to 19", "othello": "even sizes 4 to 16"}
_SETUP = ("AB", "AW", "AE")


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
    played = list(play_entries(start, entries, fill_passes=True))
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
            game_names=GAME_NAMES[kind],
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
    position = position_from_setup(kind, size, setup)
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


def _entry(node: PropertyMap, number: int, size: int) -> Entry:
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
        return Entry(color, Move.pass_turn(), label, clock)
    try:
        point = _point(color.letter, raw, size)
    except RecordError as error:
        raise RecordError(
            gettext_noop("move %(number)s: %(error)s"), number=number, error=error
        ) from None
    return Entry(color, Move.place(point), label, clock)


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
