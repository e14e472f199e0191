"""KataGo on this machine (a benchmark): review speed, strength against GNU Go, and how far
GNU Go's review eval is from KataGo's.

    .venv/bin/python bench/katago.py review --size 9 --moves 100 --visits 1
    .venv/bin/python bench/katago.py review --size 19 --moves 250 --visits 8 --positions 30
    .venv/bin/python bench/katago.py match --games 20 --visits 16
    .venv/bin/python bench/katago.py evals --size 9 --games 20 --every 4
    .venv/bin/python bench/katago.py levels --games 10
    .venv/bin/python bench/katago.py levels --levels 5 --gap 4 --games 10

KataGo from ``scripts/katago.sh`` (``KATAGO_DIR``, default .katago), GNU Go Debian's.

``review`` plays a game of ``--moves`` moves (GNU Go level 0, a fifth of its moves at
random, so that it lasts) and times KataGo's review of its positions as the server asks
it (``KataGoAnalyser.review``: one query for the game, each position taken as it comes):
all of them, or the first ``--positions`` (the total then extrapolated, printed as such).

``match``: KataGo at ``--visits`` (the computer's strongest level) against GNU Go level 10
on 9x9, komi 7, Chinese rules, colours alternating; each game to two passes or a
resignation, counted with GNU Go's ``final_score``.

``levels``: the computer's levels with KataGo (level 10 at ``--visits``, the levels below
``gameengine.katago_levels``' choice from the network's policy), each of ``--levels``
against the one ``--gap`` below (default 1) on 9x9, as the server plays them
(``gameengine.answer``), counted with GNU Go's ``final_score``; a new ``--seed`` for
more games of the same pairs (the same seed replays the same games).

``evals``: games of GNU Go (``--level``, default 10, a share of random moves drawn per game,
0 to 30%) on ``--size``; every ``--every``th position is valued by GNU Go's review
(``GtpAnalyser``) and by KataGo's (``--visits``, default 8); prints the mean absolute
difference in points and the share within 3 points, and the same for GNU Go's eval as it
was before the saw was fixed (the estimate after the best move alone).
"""

from __future__ import annotations

import argparse
import math
import os
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from gameengine.gnugo import GnuGo, GoGame, Strength, gnugo_command, replay
from gameengine.go_review import GtpAnalyser, parse_score
from gameengine.gtp import GtpEngine
from gameengine.katago import KataGoAnalyser, KataGoPlayer, KataGoSettings
from gamerules.base import Color, Move, Point
from gamerules.go import GoPosition
from tests.support.go_turns import go_turn

KOMI = 7.0
ROOT = pathlib.Path(__file__).resolve().parent.parent
DIR = pathlib.Path(os.environ.get("KATAGO_DIR") or ROOT / ".katago")


def settings(visits: int) -> KataGoSettings:
    return KataGoSettings(
        command=(str(DIR / "katago"),),
        model=str(DIR / "model.bin.gz"),
        analysis_config=str(DIR / "analysis.cfg"),
        gtp_config=str(DIR / "gtp.cfg"),
        review_visits=visits,
    )


def gnugo_game(size: int, moves: int, rng: random.Random, level: int, share: float) -> GoGame:
    """A game of GNU Go at ``level`` against itself, ``share`` of its moves random."""
    position = GoPosition.start(size)
    played: list[tuple[Color, Point | None]] = []
    with GnuGo(rng=rng) as gnugo:
        while len(played) < moves and not position.is_over:
            game = GoGame.of(size=size, komi=KOMI, moves=played)
            answer = gnugo.genmove(game, position.to_move, Strength(level, share))
            point = None if answer in (None, "resign") else answer
            move = Move.pass_turn() if point is None else Move.place(point)  # type: ignore[arg-type]
            try:
                position = position.play(move)[0]
            except Exception:
                position = position.play(Move.pass_turn())[0]
                point = None
            played.append((position.to_move.opponent, point))  # type: ignore[arg-type]
    return GoGame.of(size=size, komi=KOMI, moves=played)


def counted_winner(played: list[tuple[Color, Point | None]]) -> Color:
    """The winner of a 9x9 game played to its end, by GNU Go's ``final_score``."""
    with GtpEngine(gnugo_command(), timeout=120) as counter:
        replay(counter, GoGame.of(size=9, komi=KOMI, moves=played))
        score = parse_score(counter.send("final_score"))
    return Color.BLACK if score > 0 else Color.WHITE


def review(options: argparse.Namespace) -> None:
    rng = random.Random(options.seed)
    game = gnugo_game(options.size, options.moves, rng, 0, 0.2)
    total = len(game.moves) + 1
    asked = min(total, options.positions or total)
    analyser = KataGoAnalyser(settings(options.visits).analysis_command(), visits=options.visits)
    started = time.monotonic()
    first = None
    for turn in range(asked):
        analyser.review(game, turn, to_move=Color.BLACK if turn % 2 == 0 else Color.WHITE)
        if first is None:
            first = time.monotonic() - started
    took = time.monotonic() - started
    analyser.close()
    assert first is not None
    per = (took - first) / max(1, asked - 1)
    whole = first + per * (total - 1)
    kind = "measured" if asked == total else f"extrapolated from {asked}"
    print(
        f"{options.size}x{options.size}, {total - 1} moves, {options.visits} visit(s): "
        f"start and first position {first:.1f} s, then {per:.2f} s a position; "
        f"whole review {whole:.0f} s ({kind})"
    )


def match(options: argparse.Namespace) -> None:
    wins = 0
    player = KataGoPlayer(settings(1).gtp_command())
    for index in range(options.games):
        katago = Color.BLACK if index % 2 == 0 else Color.WHITE
        position = GoPosition.start(9)
        played: list[tuple[Color, Point | None]] = []
        winner = None
        with GnuGo() as gnugo:
            while not position.is_over and len(played) < 300:
                game = GoGame.of(size=9, komi=KOMI, moves=played)
                if position.to_move is katago:
                    answer = player.choose_move(game, katago, visits=options.visits)
                else:
                    answer = gnugo.genmove(game, position.to_move, Strength(10))
                if answer == "resign":
                    winner = position.to_move.opponent
                    break
                point = answer
                move = Move.pass_turn() if point is None else Move.place(point)
                position = position.play(move)[0]
                played.append((position.to_move.opponent, point))
            if winner is None:
                winner = counted_winner(played)
        wins += winner is katago
        print(f"game {index + 1}: KataGo {katago.value}, {len(played)} moves, {winner.value} won")
    player.close()
    print(
        f"KataGo at {options.visits} visits won {wins} of {options.games} against GNU Go level 10 "
        f"({_chance(wins, options.games)})"
    )


def _chance(wins: int, games: int) -> str:
    """How often two equal players would give the stronger-looking one at least ``wins``
    of ``games`` (a one-sided sign test): small when the result is more than luck."""
    tail = sum(math.comb(games, k) for k in range(wins, games + 1)) / 2**games
    return f"{tail:.3f} by chance between equals"


def levels(options: argparse.Namespace) -> None:
    """The computer's KataGo levels, each against the one ``--gap`` below (default the next),
    as the server plays them (``answer``: the level's visits and share of random moves)."""
    from gameengine.answer import answer

    data = {
        "command": [str(DIR / "katago")],
        "model": str(DIR / "model.bin.gz"),
        "analysis_config": str(DIR / "analysis.cfg"),
        "gtp_config": str(DIR / "gtp.cfg"),
        "review_visits": 1,
        "top_visits": options.visits,
    }
    rng = random.Random(options.seed)
    for high in options.levels:
        wins = 0
        for index in range(options.games):
            strong = Color.BLACK if index % 2 == 0 else Color.WHITE
            position = GoPosition.start(9)
            played: list[tuple[Color, Point | None]] = []
            winner = None
            while not position.is_over and len(played) < 300:
                level = high if position.to_move is strong else high - options.gap
                turn = go_turn(position, played, level=level, komi=KOMI)
                point = answer(turn, katago_settings=data, rng=rng)["point"]
                if point == "resign":
                    winner = position.to_move.opponent
                    break
                where = None if point is None else (point[0], point[1])
                move = Move.pass_turn() if where is None else Move.place(where)
                position = position.play(move)[0]
                played.append((position.to_move.opponent, where))
            if winner is None:
                winner = counted_winner(played)
            wins += winner is strong
        print(
            f"level {high} against level {high - options.gap}: won {wins} of {options.games} "
            f"({_chance(wins, options.games)})"
        )


def evals(options: argparse.Namespace) -> None:
    rng = random.Random(options.seed)
    fixed: list[float] = []
    old: list[float] = []
    katago_analyser = KataGoAnalyser(
        settings(options.visits).analysis_command(), visits=options.visits
    )
    gnugo_analyser = GtpAnalyser(line=1)
    for index in range(options.games):
        share = rng.uniform(0, 0.3)
        game = gnugo_game(options.size, options.moves, rng, options.level, share)
        for turn in range(0, len(game.moves) + 1, options.every):
            partial = GoGame.of(size=game.size, komi=KOMI, moves=game.moves[:turn])
            to_move = Color.BLACK if turn % 2 == 0 else Color.WHITE
            # GNU Go's eval as the review takes it (half before, half after the best move),
            # and as it was (after the best move alone).
            engine = gnugo_analyser._ready()
            replay(engine, partial)
            now, _, after = gnugo_analyser._measure(engine.send, partial, to_move)
            truth = katago_analyser.review(game, turn, to_move=to_move, ahead=False).eval
            fixed.append(abs((now if after is None else (now + after) / 2) - truth))
            old.append(abs((now if after is None else after) - truth))
        print(f"game {index + 1}: {len(game.moves)} moves")
        _summary(options.size, fixed, old)
    katago_analyser.close()
    gnugo_analyser.close()


def _summary(size: int, fixed: list[float], old: list[float]) -> None:
    for name, found in (("GNU Go's eval (fixed)", fixed), ("GNU Go's eval as it was", old)):
        within = sum(1 for value in found if value <= 3) / len(found)
        print(
            f"{name}: mean absolute difference from KataGo's {statistics.mean(found):.1f} "
            f"points, within 3 points {within:.0%} ({len(found)} positions, {size}x{size})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("review")
    one.add_argument("--size", type=int, default=9)
    one.add_argument("--moves", type=int, default=100)
    one.add_argument("--visits", type=int, default=1)
    one.add_argument("--positions", type=int)
    one.add_argument("--seed", type=int, default=1)
    two = commands.add_parser("match")
    two.add_argument("--games", type=int, default=20)
    two.add_argument("--visits", type=int, default=16)
    three = commands.add_parser("evals")
    three.add_argument("--size", type=int, default=9)
    three.add_argument("--games", type=int, default=20)
    three.add_argument("--moves", type=int, default=60)
    three.add_argument("--every", type=int, default=4)
    three.add_argument("--visits", type=int, default=8)
    three.add_argument("--level", type=int, default=10)
    three.add_argument("--seed", type=int, default=1)
    four = commands.add_parser("levels")
    four.add_argument("--levels", type=int, nargs="+", default=list(range(2, 11)))
    four.add_argument("--games", type=int, default=10)
    four.add_argument("--gap", type=int, default=1)
    four.add_argument("--visits", type=int, default=16)
    four.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    commands_ = {"review": review, "match": match, "evals": evals, "levels": levels}
    commands_[options.command](options)


if __name__ == "__main__":
    main()
