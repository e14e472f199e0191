"""SGF's property values this package reads and writes itself: the point letters and
a node's properties (sgfmill's ``sgf_properties`` does the same for its own games).
"""

from __future__ import annotations

from gamerules.base import InvalidMoveError, Point, gettext_noop

__all__ = ["LETTERS", "PropertyMap", "parse_sgf_point", "sgf_point"]

LETTERS = "abcdefghijklmnopqrstuvwxyz"
"""SGF's point letters: a board has at most 26 lines."""

PropertyMap = dict[str, list[bytes]]
"""One node of a file as sgfmill's grammar parses it: identifier to raw values."""


def sgf_point(point: Point, size: int) -> str:
    """The SGF letters of ``point`` on a ``size`` board: column, then row from the top.

    ``(0, 0)`` is ``aa``, the top-left corner. Raises ``InvalidMoveError`` for a
    point off the board (or a board wider than SGF's 26 letters).

    >>> sgf_point((2, 3), 9)
    'dc'
    """
    row, col = point
    if not (size <= len(LETTERS) and 0 <= row < size and 0 <= col < size):
        raise InvalidMoveError(
            gettext_noop("%(point)s is not a point of the %(size)sx%(size)s board"),
            point=repr(point),
            size=size,
        )
    return LETTERS[col] + LETTERS[row]


def parse_sgf_point(text: str, size: int) -> Point:
    """The point written in SGF letters on a ``size`` board: ``dc`` is ``(2, 3)``.

    A pass (``""``, or ``tt`` in old Go files) is not a point. Raises
    ``InvalidMoveError`` for anything but two lowercase letters on the board.

    >>> parse_sgf_point("dc", 9)
    (2, 3)
    """
    letters = LETTERS[:size]
    if len(text) != 2 or text[0] not in letters or text[1] not in letters:
        raise InvalidMoveError(
            gettext_noop("%(text)s is not a point of the %(size)sx%(size)s board in SGF"),
            text=repr(text),
            size=size,
        )
    return letters.index(text[1]), letters.index(text[0])
