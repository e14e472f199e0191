"""Finding puzzles: Othello's positions where exactly one move keeps the best result, Go's
where KataGo's best move beats every other by ``GO_MARGIN`` points.

Pure Python over the rules, the engine's exact solver and KataGo (no Django), so that the
engine workers run it and tests check it on table positions.

An Othello position is a puzzle (docs/api/http.md, "Puzzles") when:

- it has ``MIN_EMPTIES`` to ``MAX_EMPTIES`` empty squares, the side to move has at
  least two moves (a forced move or a pass asks nothing);
- perfect play wins for the side to move, or else draws (a lost position is no
  puzzle: every move loses);
- exactly one move keeps that result: one winning move, or, where nothing wins,
  one drawing move.

The proof is the exact solver's (``gameengine.othello.endgame``). A null window
at the root says whether a win (else a draw) is there; a null window on each move
says whether it keeps the result, fewest replies first, stopping at the second
keeper (no puzzle then); the one keeper is solved exactly for its ``value``.
Margins count empty squares for nobody, as the review's ``eval`` does.

A Go position is a puzzle (where KataGo is installed: GNU Go alone mines none) when:

- the game's review is KataGo's and says the move played there lost ``GO_LOSS`` points or
  more (``go_turns``: at most ``GO_MOST`` positions a game, the costliest moves first);
- asked of KataGo again at ``GO_VISITS`` visits, its best candidate (``moveInfos``' first)
  is a point whose score lead beats every other candidate's by ``GO_MARGIN`` points or
  more for the side to move, and there is another candidate (``go_solution``). Its value
  is the best's score lead from Black's side, komi included, to a tenth.

>>> from gamerules.base import Color
>>> position = OthelloPosition.from_rows(["....", ".WB.", ".BW.", "...."], Color.BLACK)
>>> othello_puzzle(position) is None  # 16 squares: 12 empty, but every move loses
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gameengine import katago
from gameengine.analysis import go_game
from gameengine.katago import Candidate, KataGoSettings
from gameengine.othello import choose_move
from gameengine.othello.endgame import INFINITY, Solver
from gamerules import setup_position
from gamerules.base import Color, Move, Point
from gamerules.othello import OthelloPosition

__all__ = [
    "GO_LOSS",
    "GO_MARGIN",
    "GO_MOST",
    "GO_VISITS",
    "MAX_EMPTIES",
    "MIN_EMPTIES",
    "Found",
    "Miner",
    "OthelloPuzzle",
    "go_parts",
    "go_solution",
    "go_turns",
    "mine_go_job",
    "mine_job",
    "mine_othello_game",
    "othello_puzzle",
    "self_play",
]

MIN_EMPTIES = 10
"""The fewest empty squares a puzzle leaves."""
MAX_EMPTIES = 14
"""The most empty squares a puzzle leaves: the review's exact solve starts there."""
GO_LOSS = 5.0
"""The fewest points the move played must have lost (by the review) to ask KataGo again."""
GO_MARGIN = 3.0
"""The fewest points by which KataGo's best move must beat every other candidate."""
GO_VISITS = 32
"""KataGo's visits on each position asked (the review's are fewer)."""
GO_MOST = 5
"""The most positions of one game asked of KataGo: each takes it about a minute at 32 visits
on a 9x9 board on two busy cores (docs/engines/katago.md), a 19x19 one longer."""


@dataclass(frozen=True, slots=True)
class OthelloPuzzle:
    """The one move (``solution``) that keeps ``result`` (``"win"`` or ``"draw"`` for the
    side to move) and the exact final disc difference after it with perfect play, from
    Black's side (``value``)."""

    solution: Point
    value: int
    result: str


@dataclass(frozen=True, slots=True)
class Found:
    """A puzzle of a game: the position after the move of ``ply`` (0: the start)."""

    ply: int
    position: OthelloPosition
    puzzle: OthelloPuzzle

    def json(self) -> dict[str, Any]:
        """The puzzle as plain data: ``{"ply", "rows", "to_play", "solution", "value"}``."""
        return {
            "ply": self.ply,
            "rows": self.position.rows(),
            "to_play": self.position.to_move.value,
            "solution": list(self.puzzle.solution),
            "value": self.puzzle.value,
        }


def _never() -> None:
    """The solver's clock: a puzzle is proven however long it takes."""


class Miner:
    """The puzzles of positions of one board size; the solver's table is kept from one
    position to the next, so a game's positions share what the first solve learnt."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._solver = Solver(size, _never)

    @property
    def nodes(self) -> int:
        """The positions the solver visited so far."""
        return self._solver.nodes

    def puzzle(self, position: OthelloPosition) -> OthelloPuzzle | None:
        """The puzzle ``position`` is, or None when it is none (see the module's rule).

        Raises ``ValueError`` for a position of another size.
        """
        if position.size != self.size:
            raise ValueError(f"a {self.size}x{self.size} miner, not {position.size}")
        moves = position.legal_moves()
        black, white = position.bitboards()
        empties = self.size * self.size - (black | white).bit_count()
        if len(moves) < 2 or not MIN_EMPTIES <= empties <= MAX_EMPTIES:
            return None
        own, other = (black, white) if position.to_move is Color.BLACK else (white, black)
        solve = self._solver.solve
        # The result to keep: a win needs a margin of 1 or more, a draw 0 or more.
        if solve(own, other, 0, 1) >= 1:
            needed, result = 1, "win"
        elif solve(own, other, -1, 0) >= 0:
            needed, result = 0, "draw"
        else:
            return None
        keepers = []
        for point, after in self._children(position, moves):
            mover_after = after[1]
            # The opponent, to move after it, gets at most -needed: the move keeps it.
            if solve(after[0], mover_after, -needed, -needed + 1) <= -needed:
                keepers.append((point, after))
                if len(keepers) > 1:
                    return None
        [(solution, (them, us))] = keepers
        margin = -solve(them, us, -INFINITY, INFINITY)
        value = margin if position.to_move is Color.BLACK else -margin
        return OthelloPuzzle(solution, value, result)

    def _children(
        self, position: OthelloPosition, moves: Sequence[Point]
    ) -> list[tuple[Point, tuple[int, int]]]:
        """Each move and the discs after it (the opponent's, then the mover's), the moves
        leaving the opponent fewest replies first: winning moves usually do, so a second
        keeper turns up early."""
        ranked = []
        for point in moves:
            after = position.play(Move.place(point))[0]
            black, white = after.bitboards()
            discs = (black, white) if after.to_move is Color.BLACK else (white, black)
            ranked.append((len(after.legal_moves()), point, discs))
        ranked.sort()
        return [(point, discs) for _, point, discs in ranked]


def othello_puzzle(position: OthelloPosition) -> OthelloPuzzle | None:
    """The puzzle ``position`` is, or None: ``Miner(position.size).puzzle(position)``."""
    return Miner(position.size).puzzle(position)


def mine_othello_game(
    start: OthelloPosition, moves: Iterable[tuple[int, Point | None]]
) -> list[Found]:
    """The puzzles among the positions of a game from ``start``: ``moves`` are its moves
    in order, each its ply and its point (None: a pass). Positions are tried from the
    fewest empties up (the larger solves then find the smaller ones in the table).

    Raises the rules' ``IllegalMoveError`` for a move the game could not have played.
    """
    candidates: list[tuple[int, OthelloPosition]] = []
    position, played = start, 0
    for ply, point in moves:
        if _empties(position) < MIN_EMPTIES:
            break
        if _empties(position) <= MAX_EMPTIES:
            candidates.append((played, position))
        position = position.play(Move.pass_turn() if point is None else Move.place(point))[0]
        played = ply
    else:
        if MIN_EMPTIES <= _empties(position) <= MAX_EMPTIES:
            candidates.append((played, position))
    miner = Miner(start.size)
    found = []
    for before, candidate in reversed(candidates):
        puzzle = miner.puzzle(candidate)
        if puzzle is not None:
            found.append(Found(before, candidate, puzzle))
    return sorted(found, key=lambda entry: entry.ply)


def mine_job(job: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The puzzles of a stored game sent as plain data, what an engine's worker process
    runs: ``job`` has the game's ``kind``, ``size``, ``start`` (its setup, or None) and
    ``moves`` (``[ply, [row, col] or None]`` each, the placements and passes in order; Go's
    as ``mine_go_job`` takes them). Each puzzle is ``{"ply", "rows", "to_play", "solution":
    [row, col], "value"}``. A Go game without KataGo's settings gives none.

    Raises the rules' errors (``ValueError``s) for a game they cannot replay.
    """
    if job["kind"] == "go":
        return mine_go_job(job) if job.get("katago") is not None else []
    if job["kind"] != "othello":
        return []
    start = setup_position("othello", job["size"], job["start"])
    assert isinstance(start, OthelloPosition)
    moves = [(ply, None if point is None else (point[0], point[1])) for ply, point in job["moves"]]
    return [found.json() for found in mine_othello_game(start, moves)]


def go_turns(plies: Sequence[Mapping[str, Any]]) -> list[int]:
    """The positions of a reviewed Go game to ask KataGo about, by the moves played before
    each, in order: those whose next move lost ``GO_LOSS`` points or more by the review
    (``plies``, its stored entries: entry ``n`` has the loss of move ``n``), the
    ``GO_MOST`` costliest.

    >>> go_turns([{"ply": 0}, {"ply": 1, "loss": 0.5}, {"ply": 2, "loss": 7.2}])
    [1]
    """
    lost = [
        (float(entry["loss"]), index - 1)
        for index, entry in enumerate(plies)
        if index >= 1 and float(entry.get("loss") or 0) >= GO_LOSS
    ]
    lost.sort(key=lambda each: (-each[0], each[1]))
    return sorted(turn for _, turn in lost[:GO_MOST])


def go_parts(job: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A game's mining job in parts, each asking KataGo one position (``mine_job`` on each
    gives that position's puzzle): an Othello game, or a Go game without KataGo's settings,
    is one part."""
    if job["kind"] != "go" or job.get("katago") is None:
        return [job]
    return [{**job, "turns": [turn]} for turn in sorted(set(job["turns"]))]


def go_solution(candidates: Sequence[Candidate], mover: Color) -> Candidate | None:
    """KataGo's best candidate (the first) when it makes a puzzle for ``mover``: a point,
    with another candidate, whose lead (Black's side) beats every other's for ``mover``
    by ``GO_MARGIN`` points or more; else None.

    >>> go_solution([Candidate((2, 2), 6.5, 20), Candidate((4, 4), 3.0, 9)], Color.BLACK)
    Candidate(move=(2, 2), lead=6.5, visits=20)
    """
    if len(candidates) < 2 or isinstance(candidates[0].move, str):
        return None
    sign = 1 if mover is Color.BLACK else -1
    best, *others = candidates
    if all(sign * (best.lead - other.lead) >= GO_MARGIN for other in others):
        return best
    return None


def mine_go_job(job: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The Go puzzles of a reviewed game (``mine_job``'s puzzles), asked of KataGo (its
    settings, ``job["katago"]``) at ``GO_VISITS`` visits at each of ``job["turns"]`` (the
    moves played before each position, ``go_turns``). ``job`` has the game's ``size``,
    ``komi``, ``start`` and ``moves`` (``[ply, colour, [row, col] or None]`` each).

    Raises the rules' errors for a game they cannot replay, ``ValueError`` when KataGo
    refuses it, ``EngineError`` when it fails (worth another try).
    """
    turns = sorted(set(job["turns"]))
    if not turns:
        return []
    played = {"moves": [[color, point] for _, color, point in job["moves"]]}
    game, _ = go_game({**job, **played}, len(job["moves"]))
    asked = katago.analyser(KataGoSettings.of(job["katago"])).candidates(
        game, turns, to_move=go_game({**job, **played}, 0)[1].to_move, visits=GO_VISITS
    )
    found = []
    for turn in turns:
        position = go_game({**job, **played}, turn)[1]
        best = go_solution(asked.get(turn, []), position.to_move)
        if best is None:
            continue
        assert not isinstance(best.move, str)
        found.append(
            {
                "ply": job["moves"][turn - 1][0] if turn else 0,
                "rows": position.rows(),
                "to_play": position.to_move.value,
                "solution": list(best.move),
                "value": round(best.lead, 1),
            }
        )
    return found


def self_play(
    size: int = 8, *, level: int = 10, opening: int = 8, seed: int | None = None
) -> tuple[OthelloPosition, list[tuple[int, Point | None]]]:
    """A game of the engine against itself at ``level``, its first ``opening`` moves drawn
    at random (so that games differ): the start and the moves as ``mine_othello_game``
    takes them."""
    rng = random.Random(seed)
    start = position = OthelloPosition.start(size)
    moves: list[tuple[int, Point | None]] = []
    while not position.is_over:
        ply = len(moves) + 1
        if position.must_pass:
            moves.append((ply, None))
            position = position.passed()
            continue
        if ply <= opening:
            point: Point | None = rng.choice(position.legal_moves())
        else:
            point = choose_move(position, level=level, seed=rng.randrange(1 << 30))
        assert point is not None
        moves.append((ply, point))
        position = position.play(Move.place(point))[0]
    return start, moves


def _empties(position: OthelloPosition) -> int:
    black, white = position.bitboards()
    return position.size * position.size - (black | white).bit_count()
