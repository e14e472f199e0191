"""A computer's Go move as the server hands it to its engines (``games.services.Turn`` as
the plain mapping ``gameengine.answer`` reads), for the engines' tests and benchmarks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamerules.base import Color, Point
from gamerules.go import GoPosition


def go_turn(
    position: GoPosition,
    moves: Sequence[tuple[Color | str, Point | Sequence[int] | None]],
    *,
    level: int,
    komi: float = 7.0,
) -> dict[str, Any]:
    """The turn of the side to move in ``position``, reached by ``moves`` (each a colour
    and a point, None for a pass) from the empty board."""
    return {
        "game_id": "g1",
        "task": "move",
        "kind": "go",
        "size": position.size,
        "level": level,
        "color": position.to_move.value,
        "ply": len(moves),
        "marking": 0,
        "snapshot": position.to_snapshot(),
        "komi": komi,
        "setup": None,
        "moves": [(Color(c).value, None if p is None else list(p)) for c, p in moves],
    }
