"""The seeds' Othello command-line formats, run by ``python -m gamerules FORMAT``.

- ``othello-replay`` (Jutge P18992): a board size, then moves ``N r c`` (black)
  or ``B r c`` (white), 1-based; the board after each, drawn with ``.``, ``N``
  and ``B``, and the disc count ``black:white``.
- ``othello-commands`` (UVa 220): several games, each a board of ``-``, ``B``
  and ``W`` and the side to move, then commands ``L`` (list the legal moves),
  ``Mrc`` (move) and ``Q`` (print the board, end the game).
- ``othello-play``: a console where two people play on one 8x8 board.

The batch formats raise ``InputFormatError`` naming the line of malformed input
or of an illegal move; the console explains bad input and asks again.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TextIO

from gamerules.base import gettext_noop

from .base import (
    Color,
    IllegalMoveError,
    InputFormatError,
    InvalidMoveError,
    Move,
    Point,
    RulesError,
)
from .othello import OthelloPosition

__all__ = ["othello_commands", "othello_play", "othello_replay"]

_REPLAY_MOVE = re.compile(r"([NB])\s+(\d+)\s+(\d+)")
_COMMANDS_MOVE = re.compile(r"M\s*(\d)\s*(\d)|M\s*(\d+)[\s,]+(\d+)")
_CONSOLE_MOVE = re.compile(r"(\d+)\s+(\d+)")
_REPLAY_LETTERS = str.maketrans("BW", "NB")
_COMMANDS_LETTERS = str.maketrans(".", "-")


class _Lines:
    """The non-blank lines of a batch input, stripped, with their 1-based numbers."""

    def __init__(self, stdin: TextIO) -> None:
        self._lines = enumerate(stdin, start=1)
        self.number = 0

    def __iter__(self) -> Iterator[str]:
        try:
            for number, line in self._lines:
                self.number = number
                if line.strip():
                    yield line.strip()
        except UnicodeDecodeError as error:
            # The decoder fails on a whole chunk: count the lines it holds before the bad byte.
            number = self.number + 1 + error.object[: error.start].count(b"\n")
            raise InputFormatError(number, f"not readable as {error.encoding} text") from None

    def next(self, expected: str) -> str:
        """The next non-blank line; ``InputFormatError`` at the end of the input."""
        for text in self:
            return text
        raise InputFormatError(self.number + 1, f"the input ends where {expected} should be")

    def error(self, message: str) -> InputFormatError:
        """An ``InputFormatError`` about the line read last."""
        return InputFormatError(self.number, message)


def _name(color: Color) -> str:
    return color.name.capitalize()


def _play(position: OthelloPosition, point: Point, lines: _Lines, text: str) -> OthelloPosition:
    """``position`` after its side to move plays ``point``; an illegal move is an input error."""
    try:
        return position.play(Move.place(point))[0]
    except RulesError as error:
        raise lines.error(f"illegal move {text!r}: {error}") from None


def _one_based(position: OthelloPosition, row: str, col: str) -> Point:
    """The point of the 1-based ``row`` and ``col``; ``InvalidMoveError`` off the board."""
    point = (int(row) - 1, int(col) - 1)
    if not (0 <= point[0] < position.size and 0 <= point[1] < position.size):
        raise InvalidMoveError(
            gettext_noop("rows and columns go from 1 to %(size)s on this board"), size=position.size
        )
    return point


def _batch_point(position: OthelloPosition, row: str, col: str, lines: _Lines, text: str) -> Point:
    """The point of the 1-based ``row`` and ``col``; off the board is an input error."""
    try:
        return _one_based(position, row, col)
    except InvalidMoveError as error:
        raise lines.error(f"{text!r}: {error}") from None


# othello-replay


def othello_replay(stdin: TextIO, stdout: TextIO) -> None:
    """Replay a Jutge game: print the board and the disc count at the start and after each move.

    A side that cannot move is skipped by the input, so a move by the other
    colour first makes the automatic pass. Raises ``InputFormatError`` for a
    malformed line or an illegal move.
    """
    lines = _Lines(stdin)
    text = lines.next("the board size")
    try:
        position = OthelloPosition.start(int(text))
    except (ValueError, RulesError):
        raise lines.error(
            f"the board size must be an even number of at least 4, not {text!r}"
        ) from None
    _write_replay_board(stdout, position)
    for text in lines:
        match = _REPLAY_MOVE.fullmatch(text)
        if match is None:
            raise lines.error(f"expected a move 'N row col' or 'B row col', not {text!r}")
        color = Color.BLACK if match[1] == "N" else Color.WHITE
        point = _batch_point(position, match[2], match[3], lines, text)
        if color is not position.to_move and position.must_pass:
            position = position.play(Move.pass_turn())[0]
        if color is not position.to_move and not position.is_over:
            raise lines.error(
                f"illegal move {text!r}: it is {_name(position.to_move)}'s turn, "
                f"and {_name(position.to_move)} can move"
            )
        position = _play(position, point, lines, text)
        _write_replay_board(stdout, position)


def _write_replay_board(stdout: TextIO, position: OthelloPosition) -> None:
    counts = position.disc_counts()
    for row in position.rows():
        stdout.write(row.translate(_REPLAY_LETTERS) + "\n")
    stdout.write(f"{counts[Color.BLACK]}:{counts[Color.WHITE]}\n\n")


# othello-commands


def othello_commands(stdin: TextIO, stdout: TextIO) -> None:
    """Run UVa 220 games: ``L`` lists the legal moves, ``Mrc`` moves, ``Q`` prints the board.

    On ``M``, a side with no legal move first passes the turn to the other.
    Outputs of successive games are separated by one blank line. Raises
    ``InputFormatError`` for a malformed line or an illegal move.
    """
    lines = _Lines(stdin)
    text = lines.next("the number of games")
    if not text.isdigit():
        raise lines.error(f"expected the number of games, not {text!r}")
    for game in range(int(text)):
        if game:
            stdout.write("\n")
        position = _read_commands_board(lines)
        while (text := lines.next("a command (L, Mrc or Q)")) != "Q":
            position = _run_command(position, text, lines, stdout)
        for row in position.rows():
            stdout.write(row.translate(_COMMANDS_LETTERS) + "\n")
    for text in lines:
        raise lines.error(f"unexpected {text!r} after the last game")


def _read_commands_board(lines: _Lines) -> OthelloPosition:
    """A board of ``-``, ``B`` and ``W`` (as many rows as the first is long), then ``B``/``W``."""
    rows = [lines.next("a board row")]
    while True:
        if len(rows[-1]) != len(rows[0]) or rows[-1].strip("-BW"):
            raise lines.error(
                f"expected a board row of {len(rows[0])} '-', 'B' or 'W', not {rows[-1]!r}"
            )
        if len(rows) == len(rows[0]):
            break
        rows.append(lines.next("a board row"))
    text = lines.next("the side to move (B or W)")
    if text not in ("B", "W"):
        raise lines.error(f"expected the side to move, B or W, not {text!r}")
    try:
        return OthelloPosition.from_rows(
            [row.replace("-", ".") for row in rows], Color.from_letter(text)
        )
    except RulesError as error:
        raise lines.error(f"not an Othello board: {error}") from None


def _run_command(
    position: OthelloPosition, text: str, lines: _Lines, stdout: TextIO
) -> OthelloPosition:
    """Run the ``L`` or ``M`` command ``text``; returns the position after it."""
    if text == "L":
        legal = position.legal_moves()
        listed = " ".join(f"({row + 1},{col + 1})" for row, col in legal)
        stdout.write((listed or "No legal move.") + "\n")
        return position
    match = _COMMANDS_MOVE.fullmatch(text)
    if match is None:
        raise lines.error(f"expected a command L, Mrc or Q, not {text!r}")
    row, col = (match[1], match[2]) if match[1] else (match[3], match[4])
    point = _batch_point(position, row, col, lines, text)
    if not position.legal_moves():
        position = position.passed()
    position = _play(position, point, lines, text)
    counts = position.disc_counts()
    stdout.write(f"Black - {counts[Color.BLACK]:2d} White - {counts[Color.WHITE]:2d}\n")
    return position


# othello-play


def othello_play(stdin: TextIO, stdout: TextIO) -> None:
    """Two people play on one 8x8 board until one types ``quit`` or the input ends.

    Each prompt names the side to move and its legal moves. A move is typed as
    ``f5`` or as ``5 6`` (row and column, 1-based); ``pass`` hands the turn
    over even when a move is possible. The game never ends by itself. Bad
    input and illegal moves get a one-line explanation and a new prompt.
    """
    position = OthelloPosition.start(8)
    _write_console_board(stdout, position)
    while True:
        stdout.write(_prompt(position))
        stdout.flush()
        try:
            line = stdin.readline()
        except KeyboardInterrupt:
            line = ""
        if not line:
            stdout.write("\n")
            return
        command = line.strip().lower()
        if command == "quit":
            return
        if command == "pass":
            position = position.passed()
        elif command:
            try:
                position = position.play(Move.place(_console_point(position, command)))[0]
            except IllegalMoveError as error:
                stdout.write(f"Illegal move: {error}.\n")
            except InvalidMoveError as error:
                stdout.write(f"{error}.\n")
            else:
                _write_console_board(stdout, position)


def _console_point(position: OthelloPosition, command: str) -> Point:
    """The point typed as ``f5`` or ``5 6``; ``InvalidMoveError`` for anything else."""
    match = _CONSOLE_MOVE.fullmatch(command)
    if match is None:
        if not command[0].isalpha() or not command[-1].isdigit():
            raise InvalidMoveError(
                gettext_noop(
                    "Unknown command %(command)s: type a move (f5, or row and "
                    "column: 5 6), pass or quit"
                ),
                command=repr(command),
            )
        return position.parse_point(command)
    try:
        return _one_based(position, match[1], match[2])
    except InvalidMoveError as error:
        raise InvalidMoveError(
            gettext_noop("No square %(command)s: %(error)s"), command=repr(command), error=error
        ) from None


def _prompt(position: OthelloPosition) -> str:
    legal = sorted(position.legal_moves(), key=lambda point: (point[1], point[0]))
    listed = " ".join(position.format_point(point) for point in legal) or "none"
    return f"{_name(position.to_move)} to move (legal: {listed}) > "


def _write_console_board(stdout: TextIO, position: OthelloPosition) -> None:
    header = " ".join(position.format_point((0, col))[0] for col in range(position.size))
    stdout.write(f"  {header}\n")
    for number, row in enumerate(position.rows(), start=1):
        stdout.write(f"{number} {' '.join(row)}\n")
