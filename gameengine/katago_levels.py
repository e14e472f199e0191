"""The computer's Go levels with KataGo: how much weaker than the network each level plays.

Level 10 is KataGo's own move at its visits (``KataGoSettings.top_visits``). Levels 1 to 9
weaken every move a little rather than some moves a lot (as KaTrain's calibrated bots do):
the network looks at the position once (its raw policy, ``katago.Policy``) and the level
plays the point the network likes best among a few legal points drawn at random, a share
of them (``CANDIDATE_SHARE``) growing with the level, up to level 9, which has them all
(the network's first choice, without search); level 1 plays at random. Random moves a
level plays outright, as GNU Go's weak levels do, were measured to make neighbours
indistinguishable: a level's few random moves more or fewer decided more than its
strength (docs/benchmarks.md#katago).

A level passes when the network's first choice is to pass, and never fills one of its
own eyes. Pure: no Django, no engine; ``rng`` draws the candidates.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from gamerules.base import Point
from gamerules.go import GoPosition

__all__ = ["CANDIDATE_SHARE", "candidates", "draw_size", "pick"]

CANDIDATE_SHARE: Mapping[int, float] = {
    1: 0.0,
    2: 0.06,
    3: 0.09,
    4: 0.135,
    5: 0.2,
    6: 0.3,
    7: 0.45,
    8: 0.67,
    9: 1.0,
}
"""The share of the playable points (``candidates``) level N draws and picks the best of:
from level 2 one and a half times the level below's, level 9 all of them; level 1 draws
one point, a random move (on 9x9, with about 50 points to choose from in the middle game,
level 2 draws 3 and level 5 10). Level 1 drawing 4% was measured too close to level 2
(13 of 20 games): the draws round up to whole points, 2 against 3, and differ little at
the bottom."""


def candidates(position: GoPosition) -> list[Point]:
    """The legal points for the side to move that do not fill one of its own eyes (every
    neighbour on the board its stone): what a level may play."""
    return [point for point in position.legal_moves() if not position.fills_own_eye(point)]


def draw_size(level: int, playable: int) -> int:
    """How many of ``playable`` points level ``level`` (1..9) draws: its share, rounded up,
    at least one (none when there is none)."""
    if level not in CANDIDATE_SHARE:
        raise ValueError(f"the levels below KataGo's own are 1 to 9, not {level!r}")
    return min(playable, max(1, math.ceil(CANDIDATE_SHARE[level] * playable)))


def pick(
    level: int,
    playable: Sequence[Point],
    prior: Mapping[Point, float],
    passing: float,
    rng: random.Random,
) -> Point | None:
    """Level ``level``'s move (1..9): the point of ``prior`` (the network's policy; a point
    it leaves out it rules out) highest among a draw of ``playable``, ``CANDIDATE_SHARE``
    of them and at least one; None (a pass) when nothing is left or when the network's
    first choice is to pass (``passing`` above every point's prior: the game is over for
    it). The pass is the network's call, not the draw's: a weak level whose few points
    are all worse than a pass plays one of them still, as the game is not over.
    """
    allowed = [point for point in playable if point in prior]
    drawn = rng.sample(allowed, draw_size(level, len(allowed)))
    if not drawn or passing > max(prior.values()):
        return None
    return max(drawn, key=lambda point: prior[point])
