"""The Go review's eval against the results of finished games, and its speed (a benchmark).

    .venv/bin/python bench/go_review.py measure --games 10        # 9x9 self-play games
    .venv/bin/python bench/go_review.py measure --games 2 --size 19 --level 1 --every 40
    .venv/bin/python bench/go_review.py speed --size 9 --moves 100
    .venv/bin/python bench/go_review.py speed --size 19 --moves 250 --positions 30

``measure`` plays games of GNU Go (level 10) against itself on 9x9, komi 7, where each
move is instead a random legal point (not filling an own eye) with a share drawn per game
(0 to 30%), to the end (two passes), and counts them with GNU Go's ``final_score``
(the truth here). Then it asks the review's analyser (gameengine.go_review) for the
verdict on every position and prints, by stage of the game:

- how often the sign of each candidate eval agrees with the result, and its mean
  absolute error in points: ``eval`` (``estimate_score`` after the best move, what the
  review stores) and ``static`` (``estimate_score`` of the position as it stands),
  against the game's result (which the random moves after the position change) and,
  every ``CONTINUE_EVERY`` plies, against the result of GNU Go playing the game on
  from there at level 10 with no random move (what "the engine's eval" claims);
- the losses the review gives GNU Go's own moves and the random ones, and how many of
  each it judges an inaccuracy, a mistake or a blunder.

``speed`` plays a game of ``--moves`` moves (GNU Go at level 0 with a fifth of the
moves random, so that it lasts) and times the verdict on its positions: all of them,
or ``--positions`` spread evenly over the game, the total then extrapolated to every
position (printed as such). Targets (README, "Review"): 60 s for 100 moves on 9x9,
10 minutes for 250 on 19x19.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from gameengine.gnugo import GoGame, gnugo_command, point_of, replay, vertex
from gameengine.go_review import GtpAnalyser, parse_score
from gameengine.gtp import GtpEngine
from gameengine.review import judgement, move_loss
from gamerules.base import Color, Move, Point
from gamerules.go import GoPosition

KOMI = 7.0
CONTINUE_EVERY = 8
"""Every this many plies of a measured game, GNU Go also plays the game on from there."""


def random_point(position: GoPosition, rng: random.Random) -> Point | None:
    """A legal point that does not fill one of the mover's own eyes, or None."""
    size = position.size
    own = position.to_move

    def eye(point: Point) -> bool:
        row, col = point
        around = [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]
        return all(position.stone_at(p) is own for p in around if min(p) >= 0 and max(p) < size)

    candidates = [p for p in position.legal_moves() if not eye(p)]
    return rng.choice(candidates) if candidates else None


def self_play(
    size: int,
    *,
    level: int,
    share: float,
    rng: random.Random,
    limit: int,
    start: list[tuple[Color, Point | None]] | None = None,
) -> tuple[list[tuple[Color, Point | None]], list[bool]]:
    """A game of GNU Go at ``level`` against itself, ``share`` of the moves random, from
    the moves ``start``: the moves and, for each, whether it was random. Ends at two
    passes, a resignation or ``limit`` moves."""
    moves: list[tuple[Color, Point | None]] = list(start or [])
    wild: list[bool] = [False] * len(moves)
    position = GoPosition.start(size)
    for _, point in moves:
        position = position.play(Move.pass_turn() if point is None else Move.place(point))[0]
    with GtpEngine(gnugo_command(), timeout=120) as engine:
        replay(engine, GoGame(size, KOMI, tuple(moves)))
        engine.send(f"level {level}")
        while not position.is_over and len(moves) < limit:
            color = position.to_move
            point = random_point(position, rng) if rng.random() < share else None
            if point is not None:
                engine.send(f"play {color.value} {vertex(point, size)}")
                random_move = True
            else:
                answer = engine.send(f"genmove {color.value}")
                if answer.lower() == "resign":
                    break
                point = point_of(answer, size)
                random_move = False
            position = position.play(Move.pass_turn() if point is None else Move.place(point))[0]
            moves.append((color, point))
            wild.append(random_move)
    return moves, wild


def final_score(game: GoGame, level: int) -> float:
    """GNU Go's count of ``game`` at ``level`` (playing it out first if it is not over)."""
    with GtpEngine(gnugo_command(), timeout=600) as engine:
        replay(engine, game)
        engine.send(f"level {level}")
        return parse_score(engine.send("final_score"))


def verdicts(
    analyser: GtpAnalyser, size: int, moves: list[tuple[Color, Point | None]], plies: list[int]
) -> dict[int, tuple[float, float, float]]:
    """(eval, played, seconds) of the positions after each of ``plies`` moves."""
    found = {}
    position = GoPosition.start(size)
    for ply in range(max(plies) + 1):
        if ply:
            point = moves[ply - 1][1]
            position = position.play(Move.pass_turn() if point is None else Move.place(point))[0]
        if ply not in plies:
            continue
        started = time.monotonic()
        verdict = analyser.verdict(
            GoGame(size, KOMI, tuple(moves[:ply])), position.to_move, over=position.is_over
        )
        found[ply] = (verdict.eval, verdict.played, time.monotonic() - started)
    return found


def measure(
    games: int, seed: int, size: int = 9, level: int = 10, every: int = CONTINUE_EVERY
) -> None:
    """``games`` measured games on ``size`` (GNU Go at ``level``, its play on from every
    ``every``-th position the truth the eval is held against)."""
    limit = 200 if size <= 9 else 2 * size * size
    rng = random.Random(seed)
    rows: list[tuple[int, float, float, float, float | None]] = []
    # (stage of the game, eval, static, result, result of GNU Go's play from there or None)
    losses: dict[bool, list[float]] = {False: [], True: []}
    with GtpAnalyser() as analyser:
        for number in range(games):
            share = rng.uniform(0.0, 0.3)
            moves, wild = self_play(size, level=level, share=share, rng=rng, limit=limit)
            if len(moves) < 2 or moves[-1][1] is not None or moves[-2][1] is not None:
                print(f"game {number + 1}: resigned after {len(moves)} moves, left out", flush=True)
                continue
            result = final_score(GoGame(size, KOMI, tuple(moves)), level=level)
            found = verdicts(analyser, size, moves, list(range(len(moves) + 1)))
            for ply in range(1, len(moves) + 1):
                color = moves[ply - 1][0]
                loss = move_loss(best=found[ply - 1][0], played=found[ply][1], mover=color)
                losses[wild[ply - 1]].append(loss)
            for ply in range(0, len(moves) - 1):
                continued = None
                if ply % every == 0:
                    ended, _ = self_play(
                        size, level=level, share=0, rng=rng, limit=limit, start=moves[:ply]
                    )
                    if ended[-1][1] is None:  # not resigned
                        continued = final_score(GoGame(size, KOMI, tuple(ended)), level=level)
                stage = min(ply * 4 // len(moves), 3)
                rows.append((stage, found[ply][0], found[ply][1], result, continued))
            print(
                f"game {number + 1}: {len(moves)} moves, {share:.0%} random, result "
                f"{'B' if result > 0 else 'W'}+{abs(result)}",
                flush=True,
            )
            report(rows, losses, size)


def report(
    rows: list[tuple[int, float, float, float, float | None]],
    losses: dict[bool, list[float]],
    size: int,
) -> None:
    """Prints the figures of the games so far."""
    names = ["first quarter", "second quarter", "third quarter", "last quarter"]
    for stage, name in enumerate(names):
        chosen = [row for row in rows if row[0] == stage]
        if not chosen:
            continue
        parts = [f"{name}: {len(chosen)} positions"]
        for truth, name in ((3, "the game's result"), (4, "GNU Go's play from there")):
            for label, column in (("eval", 1), ("static", 2)):
                pairs = [(row[column], row[truth]) for row in chosen if row[truth] is not None]
                if not pairs:
                    continue
                agree = sum((value > 0) == (real > 0) for value, real in pairs) / len(pairs)
                error = statistics.mean(abs(value - real) for value, real in pairs)
                parts.append(
                    f"{label} vs {name} ({len(pairs)}): sign {agree:.0%}, error {error:.1f}"
                )
        print("; ".join(parts))
    for random_move, name in ((False, "GNU Go's moves"), (True, "random moves")):
        found_losses = losses[random_move]
        if not found_losses:
            continue
        named = [judgement(loss, kind="go", size=size) for loss in found_losses]
        counts = {word: named.count(word) for word in ("inaccuracy", "mistake", "blunder")}
        print(
            f"{name}: {len(found_losses)}, mean loss {statistics.mean(found_losses):.1f}, "
            f"median {statistics.median(found_losses):.1f}; "
            + ", ".join(f"{word} {count / len(named):.0%}" for word, count in counts.items())
        )


def speed(size: int, moves_wanted: int, positions: int | None, seed: int) -> None:
    rng = random.Random(seed)
    started = time.monotonic()
    moves: list[tuple[Color, Point | None]] = []
    while len(moves) < moves_wanted:
        moves, _ = self_play(size, level=0, share=0.2, rng=rng, limit=moves_wanted)
    print(f"played {len(moves)} moves on {size}x{size} in {time.monotonic() - started:.0f} s")
    count = len(moves) + 1
    step = 1 if positions is None else max(1, count // positions)
    plies = list(range(0, count, step))
    with GtpAnalyser() as analyser:
        found = verdicts(analyser, size, moves, plies)
    times = [seconds for _, _, seconds in found.values()]
    total = sum(times)
    slowest = max(found, key=lambda ply: found[ply][2])
    if step == 1:
        print(f"all {count} positions: {total:.1f} s (mean {total / count:.2f} s)", end="")
    else:
        print(
            f"{len(plies)} of {count} positions: {total:.1f} s, mean {statistics.mean(times):.2f} s"
            f": every position extrapolated {statistics.mean(times) * count:.0f} s",
            end="",
        )
    print(f"; slowest {found[slowest][2]:.2f} s at ply {slowest}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["measure", "speed"])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--positions", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", type=int, default=10, help="measure: GNU Go's level")
    parser.add_argument(
        "--every", type=int, default=CONTINUE_EVERY, help="measure: play on from every N plies"
    )
    arguments = parser.parse_args()
    if arguments.what == "measure":
        measure(arguments.games, arguments.seed, arguments.size, arguments.level, arguments.every)
    else:
        speed(arguments.size, arguments.moves, arguments.positions, arguments.seed)


if __name__ == "__main__":
    main()
