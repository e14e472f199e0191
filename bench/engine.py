"""Strength and speed of the Othello engine (a benchmark, not a test).

    nice -n 19 .venv/bin/python bench/engine.py --quick     # a few minutes
    nice -n 19 .venv/bin/python bench/engine.py             # hours: see --levels, --games, --skip

Strength: each level plays 8x8 games against a random player (a uniform
choice among the legal moves) and a greedy one (the move that flips the most
discs, ties broken at random), colours alternating; the table shows wins,
draws and losses from the engine's side and its average time per move (moves
with a single legal choice included, as in a real game). ``--time-limit``
caps every level's thinking time per move (the levels' own budgets otherwise).

Endgame: positions with 10 to 14 empty squares reached by random play are
solved by the exact solver (``gameengine.othello.endgame``) and by a
reference that tries every line of play: plain alpha-beta minimax with the
full window (it returns exactly the minimax value), moves in bit order, no
move ordering, no table, no shortcut near the end; it shares only the rules
module's move generation (``_legal_bits``, ``_flipped_bits``, tested against
a naive board walk in tests/rules). Pure minimax, without alpha-beta, does not
finish at 14 empties in Python (memoized, on the rules module's positions, it
takes about a second at 10 empties and ten at 11). The table shows how many
final margins agree, and the CPU time of each side (wall time would count
whatever else the machine runs).

Sizes: each level answers on three half-full positions of every even size from
4 to 16; the table shows the longest wall time per move, to compare with the
levels' budgets.

Ladder (``--ladder``): each level listed plays the next one up, from openings
of a few random moves, each opening once with each colour (the stronger
levels are deterministic: from the start position they would play one game
over and over); the table shows the upper level's wins, draws and losses.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameengine.othello import LEVELS, choose_move
from gameengine.othello.endgame import Solver
from gamerules.base import Color, Move, Point
from gamerules.othello import OthelloPosition, _flipped_bits, _geometry, _legal_bits

Player = Callable[[OthelloPosition], Point]
LADDER_OPENING = 4
"""Random moves before a ladder game: the levels above 4 play the same game from the same start."""


def random_player(rng: random.Random) -> Player:
    """A player that picks uniformly among the legal moves."""
    return lambda position: rng.choice(position.legal_moves())


def greedy_player(rng: random.Random) -> Player:
    """A player that flips the most discs, ties broken at random."""

    def play(position: OthelloPosition) -> Point:
        flips = {
            point: len(position.play(Move.place(point))[1].flipped)
            for point in position.legal_moves()
        }
        most = max(flips.values())
        return rng.choice([point for point, count in flips.items() if count == most])

    return play


class Engine:
    """The engine as a player at ``level``: it counts its moves and its thinking time."""

    def __init__(self, level: int, seed: int, time_limit: float | None) -> None:
        self.level, self.seed, self.time_limit = level, seed, time_limit
        self.moves, self.thinking = 0, 0.0

    def __call__(self, position: OthelloPosition) -> Point:
        start = time.perf_counter()
        point = choose_move(
            position, level=self.level, seed=self.seed + self.moves, time_limit=self.time_limit
        )
        self.thinking += time.perf_counter() - start
        self.moves += 1
        assert point is not None, "play_game passes for the players"
        return point


def play_game(start: OthelloPosition, players: dict[Color, Player]) -> int:
    """The game from ``start`` between ``players``; returns Black's final margin."""
    position = start
    while not position.is_over:
        if position.must_pass:
            position = position.passed()
            continue
        point = players[position.to_move](position)
        position = position.play(Move.place(point))[0]
    counts = position.disc_counts()
    return counts[Color.BLACK] - counts[Color.WHITE]


def tally(margins: list[int]) -> str:
    """Wins, draws and losses of the side whose ``margins`` these are, in columns."""
    win = sum(margin > 0 for margin in margins)
    draw = margins.count(0)
    return f"{win:>5} {draw:>5} {len(margins) - win - draw:>5}"


def bench_strength(levels: list[int], games: int, time_limit: float | None, seed: int) -> None:
    print(f"Strength on 8x8: {games} games per pair, colours alternating")
    print(f"{'level':>5} {'opponent':>8} {'win':>5} {'draw':>5} {'loss':>5} {'s/move':>8}")
    for level in levels:
        for name, make in (("random", random_player), ("greedy", greedy_player)):
            opponent = make(random.Random(seed * 1000 + level))
            margins, moves, thinking = [], 0, 0.0
            for game in range(games):
                engine = Engine(level, seed + 100 * game, time_limit)
                color = Color.BLACK if game % 2 == 0 else Color.WHITE
                margin = play_game(
                    OthelloPosition.start(8), {color: engine, color.opponent: opponent}
                )
                margins.append(margin if color is Color.BLACK else -margin)
                moves += engine.moves
                thinking += engine.thinking
            print(f"{level:>5} {name:>8} {tally(margins)} {thinking / moves:>8.3f}", flush=True)


def bench_ladder(levels: list[int], games: int, time_limit: float | None, seed: int) -> None:
    print(
        f"Ladder on 8x8: each level against the next one listed, {games} games,"
        f" openings of {LADDER_OPENING} random moves, each played with both colours"
    )
    print(f"{'level':>5} {'against':>8} {'win':>5} {'draw':>5} {'loss':>5}")
    rng = random.Random(seed)
    for lower, upper in itertools.pairwise(levels):
        margins = []
        for game in range(games):
            if game % 2 == 0:
                opening = random_position(rng, 8, 60 - LADDER_OPENING)
            ours = Engine(upper, seed + 100 * game, time_limit)
            theirs = Engine(lower, seed + 100 * game + 50, time_limit)
            color = Color.BLACK if game % 2 == 0 else Color.WHITE
            margin = play_game(opening, {color: ours, color.opponent: theirs})
            margins.append(margin if color is Color.BLACK else -margin)
        print(f"{upper:>5} {lower:>8} {tally(margins)}", flush=True)


def random_position(rng: random.Random, size: int, empties: int) -> OthelloPosition:
    """A position with ``empties`` empty squares reached by random play, with a move to make."""
    while True:
        position = OthelloPosition.start(size)
        while not position.is_over:
            black, white = position.bitboards()
            if size * size - (black | white).bit_count() == empties and not position.must_pass:
                return position
            legal = position.legal_moves()
            position = position.play(Move.place(rng.choice(legal)) if legal else Move.pass_turn())[
                0
            ]


def reference(own: int, other: int, alpha: int, beta: int, passed: bool = False) -> int:
    """The final 8x8 margin of ``own`` (to move) with best play, by plain alpha-beta.

    ``passed`` when the other side has just passed: a second pass ends the game.
    """
    geometry = _geometry(8)
    moves = _legal_bits(geometry, own, other)
    if not moves:
        if passed:
            return own.bit_count() - other.bit_count()
        return -reference(other, own, -beta, -alpha, True)
    while moves:
        move = moves & -moves
        moves ^= move
        flipped = _flipped_bits(geometry, move, own, other)
        alpha = max(alpha, -reference(other ^ flipped, own | move | flipped, -beta, -alpha))
        if alpha >= beta:
            break
    return alpha


def bench_endgame(empties_range: range, positions: int, seed: int) -> None:
    print(f"Endgame on 8x8: {positions} positions per number of empties, reached by random play")
    print(
        f"{'empties':>7} {'agree':>7} {'solver s':>9} {'max s':>7} {'nodes':>8}"
        f" {'reference s':>12} {'max s':>7}   (CPU seconds per position)"
    )
    rng = random.Random(seed)
    for empties in empties_range:
        agree, solver_times, reference_times, nodes = 0, [], [], 0
        for _ in range(positions):
            position = random_position(rng, 8, empties)
            black, white = position.bitboards()
            own, other = (black, white) if position.to_move is Color.BLACK else (white, black)
            solver = Solver(8, lambda: None)
            start = time.process_time()
            exact = solver.solve(own, other, -65, 65)
            solver_times.append(time.process_time() - start)
            nodes += solver.nodes
            start = time.process_time()
            agree += exact == reference(own, other, -65, 65)
            reference_times.append(time.process_time() - start)
        print(
            f"{empties:>7} {agree:>3}/{positions:<3} {sum(solver_times) / positions:>9.3f}"
            f" {max(solver_times):>7.3f} {nodes // positions:>8}"
            f" {sum(reference_times) / positions:>12.2f} {max(reference_times):>7.2f}",
            flush=True,
        )


def bench_sizes(levels: list[int], seed: int) -> None:
    print("Board sizes: the longest time per move (s) over 3 positions half full")
    print(f"{'size':>4} " + " ".join(f"{f'L{level}':>6}" for level in levels))
    rng = random.Random(seed)
    for size in range(4, 17, 2):
        positions = [random_position(rng, size, size * size // 2) for _ in range(3)]
        longest = []
        for level in levels:
            times = []
            for position in positions:
                start = time.perf_counter()
                choose_move(position, level=level, seed=seed)
                times.append(time.perf_counter() - start)
            longest.append(max(times))
        print(f"{size:>4} " + " ".join(f"{seconds:>6.3f}" for seconds in longest), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (a few minutes)")
    parser.add_argument("--levels", help="levels to play, e.g. 1,5,10 (default all)")
    parser.add_argument("--games", type=int, help="games per level and opponent (default 100)")
    parser.add_argument("--time-limit", type=float, help="seconds per engine move, at most")
    parser.add_argument("--positions", type=int, help="endgame positions per empties (default 5)")
    parser.add_argument(
        "--skip",
        choices=("strength", "endgame", "sizes"),
        action="append",
        default=[],
        help="leave a part out (may be repeated)",
    )
    parser.add_argument(
        "--ladder", action="store_true", help="also play each level against the next one"
    )
    parser.add_argument("--seed", type=int, default=2024, help="random seed (default 2024)")
    args = parser.parse_args()
    levels = sorted(LEVELS) if args.levels is None else [int(x) for x in args.levels.split(",")]
    games = args.games or (4 if args.quick else 100)
    positions = args.positions or (2 if args.quick else 5)
    empties = range(10, 13) if args.quick else range(10, 15)
    if args.quick and args.levels is None:
        levels = [1, 5, 10]
    print(f"Python {sys.version.split()[0]}, seed {args.seed}, time limit {args.time_limit}")
    if "strength" not in args.skip:
        bench_strength(levels, games, args.time_limit, args.seed)
    if "endgame" not in args.skip:
        bench_endgame(empties, positions, args.seed)
    if "sizes" not in args.skip:
        bench_sizes(levels, args.seed)
    if args.ladder:
        bench_ladder(levels, games, args.time_limit, args.seed)


if __name__ == "__main__":
    main()
