"""Go ranks as whole numbers, for McMahon's bar: 30k = 0 .. 1k = 29, 1d = 30 .. 9d = 38.

The numbers are OGS's rank number ``R = ln(rating / 525) x 23.15`` rounded down and kept
within 30k..9d, so a rank shown as OGS shows it (docs/guide.md#ratings) reads back as the
number it came from.

>>> parse_rank("30k"), parse_rank("1k"), parse_rank("1d"), parse_rank("9d")
(0, 29, 30, 38)
>>> format_rank(32)
'3d'
>>> rank_from_number(31.7), rank_from_number(-3.2), rank_from_number(40.0)
(31, 0, 38)
"""

from __future__ import annotations

import math
import re

LOWEST = 0
"""30k."""
FIRST_DAN = 30
"""1d."""
HIGHEST = 38
"""9d."""

RANK = re.compile(r"(?P<count>[1-9][0-9]?)(?P<grade>[kd])")


def parse_rank(text: str) -> int:
    """The number of a rank written ``<n>k`` (30k..1k) or ``<n>d`` (1d..9d).

    Raises ValueError for anything else (``0k``, ``31k``, ``10d``, ``3p``, ``""``).
    """
    found = RANK.fullmatch(text.strip().lower())
    if found is None:
        raise ValueError(f"not a rank: {text!r}")
    count = int(found["count"])
    if found["grade"] == "k" and count <= FIRST_DAN:
        return FIRST_DAN - count
    if found["grade"] == "d" and count <= HIGHEST - FIRST_DAN + 1:
        return FIRST_DAN + count - 1
    raise ValueError(f"not a rank within 30k..9d: {text!r}")


def format_rank(number: int) -> str:
    """The rank written as OGS shows it (``30k`` .. ``1k``, ``1d`` .. ``9d``); raises
    ValueError outside 0..38."""
    if not LOWEST <= number <= HIGHEST:
        raise ValueError(f"not a rank number within 0..38: {number}")
    if number >= FIRST_DAN:
        return f"{number - FIRST_DAN + 1}d"
    return f"{FIRST_DAN - number}k"


def rank_from_number(rank_number: float) -> int:
    """The rank of OGS's (fractional) rank number: rounded down, kept within 0..38."""
    return min(HIGHEST, max(LOWEST, math.floor(rank_number)))
