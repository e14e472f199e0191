"""Playing through a record: the position after each move (``replay``), the position
before the first (``start_position``), every move checked by the rules (sgfmill's
``sgf_moves`` does the same for its boards). ``play_entries`` is the reader's and the
transcripts' own walk, which may put in Othello's missing passes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple

from gamerules import Position, new_position
from gamerules.base import Color, Diff, Move, RulesError, Term, gettext_noop
from gamerules.go import GoPosition
from gamerules.othello import OthelloPosition

from .record import GAME_NAMES, GameKind, GameRecord, MoveClock, RecordError, Setup

__all__ = ["Entry", "Step", "play_entries", "position_from_setup", "replay", "start_position"]


class Entry(NamedTuple):
    """A move as a record states it: ``color`` None when the record does not say."""

    color: Color | None
    move: Move
    label: str = ""
    clock: MoveClock | None = None


class Step(NamedTuple):
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
    entries = [Entry(color, move) for color, move in record.moves]
    return [(step.position, step.diff) for step in play_entries(start, entries, fill_passes=False)]


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
    return position_from_setup(record.kind, record.size, record.setup)


def play_entries(start: Position, entries: Iterable[Entry], *, fill_passes: bool) -> Iterator[Step]:
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
        yield Step(color, entry.move, position, diff, entry.clock, number)
    if fill_passes and isinstance(position, OthelloPosition) and position.must_pass:
        yield _pass(position)[1]


def _pass(position: OthelloPosition) -> tuple[OthelloPosition, Step]:
    color = position.to_move
    after, diff = position.play(Move.pass_turn())
    return after, Step(color, Move.pass_turn(), after, diff)


def _describe(number: int, entry: Entry, position: Position) -> str:
    """``move 12 B[fe] (black f5)``: the move as the file spells it and as players say it."""
    player = (entry.color or position.to_move).value
    try:
        notation = position.notation(entry.move)
    except RulesError:
        notation = repr(entry.move.point)
    spelled = f" {entry.label}" if entry.label else ""
    return f"move {number}{spelled} ({player} {notation})"


def position_from_setup(kind: GameKind, size: int, setup: Setup) -> Position:
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
            game_names=GAME_NAMES[kind],
            error=error,
        ) from None
