"""Round robin: every pair meets once, the rounds made by the circle method.

One seat stays, the others turn one place a round; with an odd count the fixed seat is
empty and whoever faces it has the bye (as ``(player, None)``, docs/api/http.md's bye: the
player in black, white null). Colours: the fixed seat's game alternates round by round,
and the others' by board, so each player's colours alternate (with an even count, once
in the tournament a player has the same colour twice running) and nobody has more than
one black more than whites, or the reverse.

>>> round_robin([1, 2, 3, 4])
[[(1, 4), (2, 3)], [(3, 1), (4, 2)], [(1, 2), (3, 4)]]
>>> round_robin([1, 2, 3])
[[(3, None), (1, 2)], [(2, None), (3, 1)], [(1, None), (2, 3)]]
"""

from __future__ import annotations

from collections.abc import Sequence


def round_robin(ids: Sequence[int]) -> list[list[tuple[int, int | None]]]:
    """The rounds of a round robin among ``ids`` (in seeding order), each a list of
    ``(black, white)`` and, for an odd count, one ``(player, None)`` bye first. Fewer than
    two players: no rounds.

    Raises ValueError if an id is listed twice.
    """
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    if len(ids) < 2:
        return []
    # With an odd count the fixed seat is the empty one; its opponent has the bye.
    fixed: int | None = None if len(ids) % 2 else ids[0]
    ring = list(ids) if fixed is None else list(ids[1:])
    count = len(ring) + 1
    rounds: list[list[tuple[int, int | None]]] = []
    for number in range(count - 1):
        facing = ring[-1]
        if fixed is None:
            games: list[tuple[int, int | None]] = [(facing, None)]
        else:
            # The fixed seat's game alternates by round.
            games = [(fixed, facing) if number % 2 == 0 else (facing, fixed)]
        for board in range(1, count // 2):
            top, bottom = ring[board - 1], ring[count - 2 - board]
            # As the ring turns a player moves one board along, which flips its colour.
            games.append((top, bottom) if board % 2 == 1 else (bottom, top))
        rounds.append(games)
        ring = [ring[-1], *ring[:-1]]
    return rounds
