"""The computer as an opponent, through the websocket (a benchmark, not a test).

    .venv/bin/python bench/computer.py            # the three parts below, about 10 minutes
    .venv/bin/python bench/computer.py --quick    # fewer games

One daphne process on the embedded default (SQLite), as the README's serve command runs
it; every game is created over HTTP against the computer and played over a websocket by
a scripted player:

1. strength: a player choosing uniformly among the legal moves (in Go: passing when the
   computer passed, or after 150 moves; accepting the computer's count) against level
   10, 10 games of 8x8 Othello and 10 of 9x9 Go: the computer's wins;
2. level 1's answer time: the same random player against level 1: the longest answer;
3. load: 20 games at once (half 8x8 Othello, half 9x9 Go) at level 5: every game must
   finish with every move of the person answered; the computer's answer times p50, p95
   and max (from the person's move stored to the computer's move received);
4. load beside reviews (``--reviews N``, 2 by default; 0 skips it): the same 20 games
   again while N finished 8x8 Othello games (imported, random moves) are being reviewed
   by the same worker processes: the answer times beside part 3's, and how far the
   reviews got meanwhile (the review gives way to the turns the computer owes).

Needs the test extras (the websocket client): `sh scripts/test.sh` installs them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gamerules import Color, Move, new_position
from gamerules.sgf import GameRecord, export_sgf
from tests.support.clients import Browser, Follower
from tests.support.daphne import Daphne, environment, running

GO_MOVE_CAP = 150  # the random player passes from here on
GAME_TIMEOUT = 900  # seconds a game may take at most


@dataclass
class Played:
    """One game as the scripted player saw it."""

    kind: str
    result: str
    person: str
    answers: list[float] = field(default_factory=list)  # the computer's answer times

    @property
    def computer_won(self) -> bool:
        computer = "W" if self.person == "black" else "B"
        return self.result.startswith(f"{computer}+")


async def play_one(base: str, kind: str, level: int, seed: int) -> Played:
    """A random player's game against the computer at ``level``."""
    chooser = random.Random(seed)
    person = chooser.choice(["black", "white"])
    browser = Browser(base)
    game_id = await asyncio.to_thread(
        browser.create,
        kind=kind,
        size=8 if kind == "othello" else 9,
        color=person,
        name="Random",
        opponent="computer",
        level=level,
        **({"komi": 6.5} if kind == "go" else {}),
    )
    player = await Follower.open(browser, game_id)
    played = Played(kind, "", person)
    waited_from: float | None = None
    try:
        async with asyncio.timeout(GAME_TIMEOUT):
            while player.game["status"] in ("active", "scoring"):
                game = player.game
                if game["status"] == "scoring":
                    await answer_count(player)
                    continue
                if game["to_move"] != person:
                    ply = game["ply"]
                    if waited_from is None:
                        waited_from = time.monotonic()
                    await player.until(
                        lambda p, at=ply: p.game["ply"] > at or p.game["status"] != "active"
                    )
                    played.answers.append(time.monotonic() - waited_from)
                    waited_from = None
                    continue
                await player.socket.send(random_move(game, chooser))
                await player.until(lambda p, at=game["ply"]: p.game["ply"] > at or p.errors)
                waited_from = time.monotonic()
    finally:
        await player.close()
    played.result = player.game["result"] or ""
    return played


def random_move(game: dict[str, Any], chooser: random.Random) -> dict[str, Any]:
    last = game["last_move"]
    computer_passed = last is not None and last["action"] == "pass" and last["color"] != game["you"]
    if game["kind"] == "go" and (
        computer_passed or game["ply"] >= GO_MOVE_CAP or not game["legal"]
    ):
        return {"type": "pass", "ply": game["ply"]}
    return {"type": "play", "ply": game["ply"], "point": chooser.choice(game["legal"])}


async def answer_count(player: Follower) -> None:
    """Accept the count once the computer has (it marks and accepts its own)."""
    game = player.game
    computer = game["computer"]
    if game["accepted"][computer] and not game["accepted"][game["you"]]:
        await player.socket.send({"type": "accept", "marking": game["marking"]})
    marking = game["marking"]
    await player.until(
        lambda p: (
            p.game["status"] != "scoring"
            or p.game["marking"] != marking
            or p.game["accepted"] != game["accepted"]
        )
    )


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def strength(base: str, games: int) -> None:
    for kind in ("othello", "go"):
        played = await asyncio.gather(*(play_one(base, kind, 10, seed) for seed in range(games)))
        won = sum(game.computer_won for game in played)
        results = ", ".join(game.result for game in played)
        print(f"  level 10, {kind}: the computer won {won} of {games} ({results})")


async def level_one(base: str, games: int) -> None:
    for kind in ("othello", "go"):
        played = await asyncio.gather(
            *(play_one(base, kind, 1, 100 + seed) for seed in range(games))
        )
        answers = [answer for game in played for answer in game.answers]
        won = sum(game.computer_won for game in played)
        print(
            f"  level 1, {kind}: {len(answers)} answers, longest {max(answers):.2f} s, "
            f"median {statistics.median(answers):.2f} s; the computer won {won} of {games}"
        )


async def load(base: str, games: int) -> None:
    kinds = ["othello", "go"] * (games // 2)
    began = time.monotonic()
    played = await asyncio.gather(
        *(play_one(base, kind, 5, 200 + seed) for seed, kind in enumerate(kinds))
    )
    answers = [answer for game in played for answer in game.answers]
    finished = sum(bool(game.result) for game in played)
    print(
        f"  {games} games at once at level 5: {finished} finished in "
        f"{time.monotonic() - began:.0f} s, {len(answers)} computer moves"
    )
    print(
        f"  the computer's answer: p50 {percentile(answers, 0.5):.2f} s, "
        f"p95 {percentile(answers, 0.95):.2f} s, max {max(answers):.2f} s"
    )


def random_othello_sgf(seed: int) -> str:
    """A finished 8x8 Othello game of random legal moves, as SGF."""
    chooser = random.Random(seed)
    position = new_position("othello", 8)
    moves: list[tuple[Color, Move]] = []
    while not position.is_over:
        legal = position.legal_moves()
        move = Move.place(chooser.choice(legal)) if legal else Move.pass_turn()
        moves.append((position.to_move, move))
        position = position.play(move)[0]
    record = GameRecord(kind="othello", size=8, moves=tuple(moves), black_name="A", white_name="B")
    return export_sgf(record)


def review_progress(browser: Browser, game_ids: list[str]) -> str:
    """Each review's status and progress, as words."""
    found = [json.loads(browser.get(f"/games/{game_id}/analysis.json")) for game_id in game_ids]
    return ", ".join(f"{review['status']} {review['progress']:.0%}" for review in found)


async def load_beside_reviews(base: str, games: int, reviews: int) -> None:
    browser = Browser(base)
    game_ids = [browser.import_sgf(random_othello_sgf(500 + seed)) for seed in range(reviews)]
    for game_id in game_ids:
        browser.post(f"/games/{game_id}/analysis/", {})
    await asyncio.sleep(2)
    print(f"  {reviews} reviews asked for: {review_progress(browser, game_ids)}")
    await load(base, games)
    print(f"  the reviews meanwhile: {review_progress(browser, game_ids)}")


async def run(base: str, quick: bool, reviews: int) -> None:
    print("strength against a random player")
    await strength(base, 3 if quick else 10)
    print("level 1")
    await level_one(base, 2 if quick else 5)
    print("load")
    await load(base, 6 if quick else 20)
    if reviews:
        print(f"load beside {reviews} reviews")
        await load_beside_reviews(base, 6 if quick else 20, reviews)


async def load_only(base: str, quick: bool, reviews: int) -> None:
    print("load")
    await load(base, 6 if quick else 20)
    print(f"load beside {reviews} reviews")
    await load_beside_reviews(base, 6 if quick else 20, reviews)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--reviews", type=int, default=2, help="reviews beside part 4's load")
    parser.add_argument("--load-only", action="store_true", help="parts 3 and 4 only")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-computer-"))
    env = environment(
        {
            "DATABASE_URL": f"sqlite:///{work / 'db.sqlite3'}",
            "REDIS_URL": None,
            "SECRET_KEY": secrets.token_urlsafe(40),
            "DEBUG": "0",
            "PYTEST_VERSION": None,
            "RATE_LIMITS": "off",
        }
    )
    server = Daphne(env, work / "daphne.log")
    server.migrate()
    with running([server]):
        print(f"one daphne process, embedded default ({server.url})")
        if args.load_only:
            asyncio.run(load_only(server.url, args.quick, args.reviews))
        else:
            asyncio.run(run(server.url, args.quick, args.reviews))


if __name__ == "__main__":
    main()
