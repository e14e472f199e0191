"""The seed's Go command-line format, run by ``python -m gamerules go-score``.

The Waterloo format (seed 003): several cases, each a line ``n m`` (the board
size and the number of stones placed), then ``m`` lines ``B(x,y)`` or
``W(x,y)``; a line ``0 0`` ends the input (so does its end). For each case
one line: Black's score, a space, White's score, by the seed's territory
rules (``go.score`` with no dead stones and no komi).

Coordinates are centred: ``(0,0)`` is the middle point and each of ``x`` and
``y`` runs from ``-(n-1)/2`` to ``(n-1)/2``. Here ``x`` is the column, growing
to the right, and ``y`` the row, growing upwards as on a graph: on 7x7,
``B(-3,-3)`` is the bottom-left corner, A1. The seed does not say which way
its axes point, and need not: any other choice is one of the board's eight
rotations and reflections, which change neither captures nor territory.

Passes are not written: a colour that places twice in a row means the other
side passed in between (Black passed first if White places first). Every
move is checked by the rules of ``go.GoPosition`` as the seed states them:
an occupied point or a suicide is refused, and, as the seed has no ko rule,
a board may come back (``superko=False``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TextIO

from .base import Color, IllegalMoveError, InputFormatError, Move
from .go import SIZES, GoPosition, score

__all__ = ["go_score"]

_HEADER = re.compile(r"([+-]?\d+)\s+([+-]?\d+)")
_STONE = re.compile(r"([BW])\s*\(\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*\)")


def go_score(stdin: TextIO, stdout: TextIO) -> None:
    """Score each case of ``stdin``, one ``black white`` line per case on ``stdout``.

    Raises ``InputFormatError`` naming the line of malformed input (a bad
    header, a board size other than odd 3 to 19, a stone that is not
    ``B(x,y)``/``W(x,y)`` or is off the board, fewer stones than announced) or
    of an illegal move (the move and why: occupied, suicide).
    """
    lines = _lines(stdin)
    last = 0
    for number, text in lines:
        last = number
        header = _HEADER.fullmatch(text)
        if header is None:
            raise InputFormatError(
                number, f"expected a case 'n m' (board size, stones placed), not {text!r}"
            )
        size, count = int(header[1]), int(header[2])
        if size == 0 and count == 0:
            return
        if size not in SIZES:
            raise InputFormatError(number, f"a board size must be odd, from 3 to 19, not {size}")
        if count < 0:
            raise InputFormatError(number, f"the number of stones cannot be negative: {count}")
        position = GoPosition.start(size, superko=False)
        for stone in range(1, count + 1):
            line = next(lines, None)
            if line is None:
                raise InputFormatError(
                    last + 1, f"the input ends before stone {stone} of {count} of this case"
                )
            last, text = line
            position = _place(position, last, text)
        totals = score(position).total
        stdout.write(f"{int(totals[Color.BLACK])} {int(totals[Color.WHITE])}\n")


def _lines(stdin: TextIO) -> Iterator[tuple[int, str]]:
    """The non-blank lines of ``stdin``, stripped, with their 1-based numbers."""
    for number, line in enumerate(stdin, start=1):
        if line.strip():
            yield number, line.strip()


def _place(position: GoPosition, number: int, text: str) -> GoPosition:
    """``position`` after the stone written ``text`` on line ``number``."""
    stone = _STONE.fullmatch(text)
    if stone is None:
        raise InputFormatError(number, f"expected a stone like B(-1,2) or W(0,0), not {text!r}")
    color = Color.from_letter(stone[1])
    x, y = int(stone[2]), int(stone[3])
    half = position.size // 2
    if not (-half <= x <= half and -half <= y <= half):
        raise InputFormatError(
            number,
            f"{text} is off the {position.size}x{position.size} board: "
            f"x and y run from {-half} to {half}",
        )
    if position.to_move is not color:
        position, _ = position.play(Move.pass_turn())
    try:
        position, _ = position.play(Move.place((half - y, half + x)))
    except IllegalMoveError as error:
        raise InputFormatError(number, f"illegal move {text}: {error}") from None
    return position
