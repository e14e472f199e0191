"""A move's row as the rules' diff gives it, and the score shown while playing."""

from __future__ import annotations

import gamerules as rules
from games.models import Game, Move


def move_row(game: Game, ply: int, diff: rules.Diff) -> Move:
    """The Move row (unsaved) for ``diff``, played at ``ply``."""
    changed = diff.flipped if game.kind == Game.Kind.OTHELLO else diff.captured
    row, col = diff.point if diff.point is not None else (None, None)
    return Move(
        game=game,
        ply=ply,
        color=diff.color.value,
        action=diff.action,
        row=row,
        col=col,
        diff={changed_key(game): [list(point) for point in changed]},
    )


def changed_key(game: Game) -> str:
    """The diff's key of ``game``'s kind: ``flipped`` (Othello), ``captured`` (Go)."""
    return "flipped" if game.kind == Game.Kind.OTHELLO else "captured"


def running_score(game: Game, position: rules.Position) -> dict[str, float]:
    """Othello: the discs. Go while playing: the prisoners, plus komi for White."""
    if isinstance(position, rules.OthelloPosition):
        counts: dict[rules.Color, float] = dict(position.disc_counts())
    else:
        counts = dict(position.prisoners)
        counts[rules.Color.WHITE] += game.komi or 0.0
    return {color.value: counts[color] for color in rules.Color}
