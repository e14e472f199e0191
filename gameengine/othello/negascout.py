"""The negascout loop over the moves of one position, shared by the search and the solver."""

from __future__ import annotations

from collections.abc import Callable, Iterable

__all__ = ["Child", "negascout"]

Child = tuple[int, int, int]
"""A move (a one-bit int) and the position after it: the opponent's discs, then the mover's."""


def negascout(
    children: Iterable[Child], score: Callable[[Child, int, int], int], alpha: int, beta: int
) -> tuple[int, int]:
    """The best score among ``children`` and its move, for the side choosing between them.

    ``score(child, alpha, beta)`` is the child's fail-soft score for that side
    within the window. The first child gets the whole window, the others a null
    window first, and the whole window again only if they beat the best so far:
    with good move ordering the first child is the best, and a null window is
    cheaper to refute. The result is fail-soft too: exact strictly inside the
    window, a bound outside it. Expects at least one child.
    """
    best, best_move = None, 0
    for child in children:
        if best is None:
            value = score(child, alpha, beta)
        else:
            value = score(child, alpha, alpha + 1)
            if alpha < value < beta:
                value = score(child, value, beta)
        if best is None or value > best:
            best, best_move = value, child[0]
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    assert best is not None, "negascout needs at least one child"
    return best, best_move
