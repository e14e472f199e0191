"""Writing records as SGF: one game (``export_sgf``) or a collection
(``export_collection``), in the conventions ``gamerules.sgf`` states, through sgfmill's
``sgf_grammar`` (the escapes and the serialising).
"""

from __future__ import annotations

from collections.abc import Iterable

from sgfmill import sgf_grammar, sgf_properties  # type: ignore[import-untyped]

from gamerules.base import Color, InvalidMoveError, Point, gettext_noop
from gamerules.clock import TimeControl

from .properties import LETTERS, PropertyMap, sgf_point
from .record import GAME_NUMBERS, GameRecord, RecordError, Setup

__all__ = ["export_collection", "export_sgf"]

_APPLICATION = sgf_grammar.compose(b"othello-go-server", b"0.1")


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
    if not 1 <= record.size <= len(LETTERS):
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
