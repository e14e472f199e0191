"""The midgame search: negascout with iterative deepening under a time budget.

Scores are ints for the side to move. A position the search does not finish
gets the static evaluation (``evaluate``); a decided one gets its exact final
margin times ``EXACT``, above any evaluation, so that a won game always beats
a promising one and a lost game is the last resort. Whenever the depth left
reaches the number of empty squares, the exact solver (``endgame``) takes over
the node: it is exact and much faster than searching with an evaluation.

- negascout (principal variation search): the first move with the full window,
  the others with a null window, searched again only when they beat it;
- a transposition table keyed by the two bitboards, holding a bound on the
  score and the best move; cleared whenever it reaches ``TABLE_SIZE`` entries;
- move ordering: the table's move first, then the corners, then the moves that
  leave the opponent the fewest replies, and the X squares last;
- iterative deepening: each depth starts from the previous one's best move,
  and when time runs out the last completed depth answers (or the move of the
  depth in progress that already beat it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from gamerules.othello import _flipped_bits, _geometry, _legal_bits

from .endgame import Solver
from .evaluate import MAX_SCORE, evaluator
from .negascout import Child, negascout

__all__ = ["EXACT", "Budget", "OutOfTime", "ScoredMove", "Search"]

EXACT = MAX_SCORE
"""The search score of a decided game won by one disc (lost: the negative)."""
INFINITY = EXACT * 1_000
TABLE_SIZE = 1 << 17
"""The most positions the transposition table holds before it starts again."""


class OutOfTime(Exception):
    """Raised inside the search when the budget is spent: the search unwinds."""


class Budget:
    """A deadline read from ``clock``; ``check`` raises ``OutOfTime`` once it has passed.

    It stays unarmed (``check`` never raises) until ``arm()``: the first depth
    always completes, so that there is always a move to answer.
    """

    def __init__(self, clock: Callable[[], float], seconds: float) -> None:
        self._clock = clock
        self._deadline = clock() + seconds
        self._armed = False

    def arm(self) -> None:
        """From now on, ``check`` raises once the deadline has passed."""
        self._armed = True

    def check(self) -> None:
        """Raises ``OutOfTime`` if armed and past the deadline."""
        if self._armed and self._clock() >= self._deadline:
            raise OutOfTime


@dataclass(frozen=True, slots=True)
class ScoredMove:
    """A move at the root (a one-bit bitboard) and its search score."""

    move: int
    score: int


class Search:
    """The search on one board size within one ``budget``; ``nodes`` counts positions."""

    def __init__(self, size: int, budget: Budget) -> None:
        self._geometry = _geometry(size)
        self._evaluator = evaluator(size)
        self._budget = budget
        self._solver = Solver(size, budget.check)
        self._table: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        self._corners = self._evaluator.corners
        self._x_squares = sum(x for _, x in self._evaluator.x_squares)
        self._partial: ScoredMove | None = None
        self.nodes = 0

    @property
    def solver_nodes(self) -> int:
        """The positions the exact solver has visited."""
        return self._solver.nodes

    def iterate(
        self, own: int, other: int, depths: Iterable[int], *, every_score: bool
    ) -> list[ScoredMove]:
        """The moves of ``own`` (to move, with at least one move), best first.

        Searches each of ``depths`` in turn (each one deeper than the last) until
        they are done or the budget runs out, and scores the moves of the last
        depth completed. With ``every_score`` each move gets its exact score at
        that depth; without, only the first one does (the others are bounds) but
        the search is faster.
        """
        moves = _legal_bits(self._geometry, own, other)
        scored = [ScoredMove(child[0], 0) for child in self._ordered(own, other, moves, 0)]
        empties = (self._geometry.board & ~(own | other)).bit_count()
        for depth in depths:
            try:
                scored = self._root(own, other, empties, depth, scored, every_score)
            except OutOfTime:
                return self._improved(scored, every_score)
            finally:
                self._budget.arm()
        return scored

    def line(self, own: int, other: int, first: int, length: int) -> list[int]:
        """The expected line of up to ``length`` moves from ``own`` to move, ``first`` first.

        Read from the transposition table after a search: each position's
        best move as far as it was searched; passes appear as 0.
        """
        geometry = self._geometry
        line: list[int] = []
        move = first
        while move and len(line) < length:
            line.append(move)
            flipped = _flipped_bits(geometry, move, own, other)
            own, other = other ^ flipped, own | move | flipped
            if not _legal_bits(geometry, own, other):
                if not _legal_bits(geometry, other, own) or len(line) >= length:
                    break
                line.append(0)
                own, other = other, own
            entry = self._table.get((own, other))
            move = 0 if entry is None else entry[3]
        return line

    def _root(
        self,
        own: int,
        other: int,
        empties: int,
        depth: int,
        previous: list[ScoredMove],
        every_score: bool,
    ) -> list[ScoredMove]:
        """The moves of the previous depth scored again at ``depth``, best first."""
        self._partial = None
        alpha = -INFINITY
        scored = []
        for index, entry in enumerate(previous):
            move = entry.move
            flipped = _flipped_bits(self._geometry, move, own, other)
            theirs, mine = other ^ flipped, own | move | flipped
            if index == 0 or every_score:
                score = -self._negamax(theirs, mine, empties - 1, depth - 1, -INFINITY, INFINITY)
            else:
                score = -self._negamax(theirs, mine, empties - 1, depth - 1, -alpha - 1, -alpha)
                if score > alpha:
                    score = -self._negamax(theirs, mine, empties - 1, depth - 1, -INFINITY, -alpha)
            scored.append(ScoredMove(move, score))
            if score > alpha:
                alpha = score
                self._partial = ScoredMove(move, score)
        # A stable sort: moves that only got a bound keep the previous order.
        scored.sort(key=lambda entry: -entry.score)
        return scored

    def _improved(self, previous: list[ScoredMove], every_score: bool) -> list[ScoredMove]:
        """``previous``, with the interrupted depth's best move first if it has one.

        A move the interrupted depth completed and found best is better informed
        than the previous depth's choice; with ``every_score`` the other moves
        would lack scores of the same depth, so the previous depth stands.
        """
        partial = self._partial
        if partial is None or every_score:
            return previous
        rest = [entry for entry in previous if entry.move != partial.move]
        return [partial, *rest]

    def _negamax(
        self, own: int, other: int, empties: int, depth: int, alpha: int, beta: int
    ) -> int:
        """The score of ``own`` to move, searched ``depth`` moves deep (fail-soft)."""
        if depth >= empties:
            return self._exact(own, other, alpha, beta)
        self.nodes += 1
        self._budget.check()
        geometry = self._geometry
        moves = _legal_bits(geometry, own, other)
        if not moves:
            if not _legal_bits(geometry, other, own):
                return (own.bit_count() - other.bit_count()) * EXACT
            # A pass costs no depth: the side that passed has nothing to choose.
            return -self._negamax(other, own, empties, depth, -beta, -alpha)
        if depth == 0:
            return self._evaluator.evaluate(own, other, moves, _legal_bits(geometry, other, own))
        key = (own, other)
        entry = self._table.get(key)
        table_move = 0
        if entry is not None:
            stored_depth, lower, upper, table_move = entry
            if stored_depth >= depth:
                if lower >= beta or lower == upper:
                    return lower
                if upper <= alpha:
                    return upper
        # Ordering costs a move generation per move: worth it above the last depth.
        children = (
            self._ordered(own, other, moves, table_move)
            if depth > 1
            else self._children(own, other, moves)
        )
        best, best_move = negascout(
            children,
            lambda child, low, high: (
                -self._negamax(child[1], child[2], empties - 1, depth - 1, -high, -low)
            ),
            alpha,
            beta,
        )
        self._store(key, depth, alpha, beta, best, best_move)
        return best

    def _store(
        self, key: tuple[int, int], depth: int, alpha: int, beta: int, score: int, move: int
    ) -> None:
        """Keeps what a search of ``key`` in the window ``alpha``..``beta`` proved."""
        table = self._table
        if len(table) >= TABLE_SIZE:
            table.clear()
        lower = score if score > alpha else -INFINITY
        upper = score if score < beta else INFINITY
        table[key] = (depth, lower, upper, move)

    def _exact(self, own: int, other: int, alpha: int, beta: int) -> int:
        """The exact score of ``own`` to move, from the solver, in search units (fail-soft)."""
        # The solver counts discs: the window shrinks to the margins that can
        # fall inside it (alpha rounded down, beta rounded up).
        low, high = alpha // EXACT, -(-beta // EXACT)
        return self._solver.solve(own, other, low, high) * EXACT

    def _ordered(self, own: int, other: int, moves: int, first: int) -> list[Child]:
        """``moves`` of ``own`` and the positions after them, best-looking first.

        ``first`` (if one of them), then the corners, then the moves that leave
        the opponent the fewest replies, the X squares last.
        """
        corners, x_squares = self._corners, self._x_squares
        ranked = []
        for child in self._children(own, other, moves):
            move, theirs, mine = child
            replies = _legal_bits(self._geometry, theirs, mine).bit_count()
            rank = replies - 100 * bool(move & corners) + 100 * bool(move & x_squares)
            ranked.append((-1000 if move == first else rank, child))
        ranked.sort()
        return [child for _, child in ranked]

    def _children(self, own: int, other: int, moves: int) -> Iterator[Child]:
        """Each of ``moves`` of ``own`` and the position after it, as they are asked for."""
        geometry = self._geometry
        while moves:
            move = moves & -moves
            moves ^= move
            flipped = _flipped_bits(geometry, move, own, other)
            yield move, other ^ flipped, own | move | flipped
