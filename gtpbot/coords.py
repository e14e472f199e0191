"""Pure conversions between the contract's points ``[row, col]`` (row 0 at the top) and
GTP vertices, and what a bot accepts. No Django, no I/O.

Go's vertices are GTP's: letters A..T without I, row 1 at the bottom. Othello engines
that speak GTP (Edax, Egaroucid, GRhino) write Othello's own notation: letters a, b, c
... without a gap and, mostly, row 1 at the top; ``top_row_one`` chooses.

>>> to_vertex((0, 0), kind="go", size=9)
'A9'
>>> to_point("J1", kind="go", size=9)
(8, 8)
>>> to_vertex((2, 3), kind="othello", size=8)
'd3'
>>> to_point("D3", kind="othello", size=8, top_row_one=False)
(5, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

GO_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
OTHELLO_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def to_vertex(point: Sequence[int], *, kind: str, size: int, top_row_one: bool = True) -> str:
    """The GTP vertex of ``point`` on a ``kind`` board of ``size``."""
    row, col = point
    if kind == "go":
        return f"{GO_LETTERS[col]}{size - row}"
    number = row + 1 if top_row_one else size - row
    return f"{OTHELLO_LETTERS[col]}{number}"


def to_point(
    vertex: str, *, kind: str, size: int, top_row_one: bool = True
) -> tuple[int, int] | None:
    """The point of a GTP ``vertex`` (any case); None for ``pass`` or ``resign``.

    Raises ValueError for a vertex that is not on the board."""
    text = vertex.strip()
    if text.lower() in ("pass", "resign"):
        return None
    letters = GO_LETTERS if kind == "go" else OTHELLO_LETTERS.upper()
    col = letters.find(text[:1].upper())
    if col < 0 or not text[1:].isdigit():
        raise ValueError(f"not a vertex: {vertex!r}")
    number = int(text[1:])
    row = size - number if kind == "go" or not top_row_one else number - 1
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"{vertex!r} is off the {size}x{size} board")
    return row, col


def vertices(answer: str) -> list[str]:
    """The vertices of a GTP list answer (``final_status_list``: several per line)."""
    return answer.split()


def supported(
    challenge: dict[str, Any], *, kinds: Sequence[str], sizes: Sequence[int], clocks: Sequence[str]
) -> str | None:
    """None when the bot plays ``challenge``, else why not (empty ``sizes`` or ``clocks``:
    any).

    >>> supported({"kind": "go", "size": 19, "clock": None}, kinds=["go"], sizes=[9], clocks=[])
    'size 19 not played'
    """
    if challenge.get("kind") not in kinds:
        return f"kind {challenge.get('kind')} not played"
    if sizes and challenge.get("size") not in sizes:
        return f"size {challenge.get('size')} not played"
    clock = challenge.get("clock") or {}
    system = clock.get("system", "none") if isinstance(clock, dict) else "none"
    if clocks and system not in clocks:
        return f"clock {system} not played"
    return None


def time_settings(clock: dict[str, Any] | None) -> str | None:
    """GTP's ``time_settings`` for a game's clock (G's ``clock``), or None (no clock, or
    correspondence): Canadian as it is, byo-yomi as one stone a period, Fischer and
    absolute as main time only."""
    if not clock or clock.get("system") in (None, "correspondence"):
        return None
    main = int(clock.get("main_time") or 0)
    system = clock["system"]
    if system == "canadian":
        return f"time_settings {main} {int(clock['period_time'])} {int(clock['stones'])}"
    if system == "byoyomi":
        return f"time_settings {main} {int(clock['period_time'])} 1"
    return f"time_settings {main} 0 0"


def time_left(clock: dict[str, Any] | None, color: str) -> str | None:
    """GTP's ``time_left`` for ``color`` from G's ``clock``, or None."""
    if time_settings(clock) is None or clock is None:
        return None
    side = clock[color]
    seconds = max(0, side["remaining_ms"] // 1000)
    stones = 0
    if side.get("overtime"):
        # A byo-yomi period is one stone (time_settings above); Canadian counts its own.
        stones = side.get("stones") or 1 if clock["system"] == "canadian" else 1
    return f"time_left {color} {seconds} {stones}"
