"""What trying moves on a replay (``POST /games/<id>/explore.json``) costs the other
requests of the same daphne process (a benchmark, not a test).

    .venv/bin/python bench/explore.py                   # about two minutes
    .venv/bin/python bench/explore.py --compare HEAD~1  # that commit's code too: about four
    .venv/bin/python bench/explore.py --probes 200 --explorers 6 --seconds 30
    .venv/bin/python bench/explore.py --reply --compare HEAD~1  # the computer's reply only

One daphne process on the embedded default (SQLite, ``RATE_LIMITS=off``), as the
README's serve command runs it, with two finished games imported as SGF: an 8x8 Othello
game and a 9x9 Go game of random moves. Then, in four phases:

1. quiet: a probe fetches a static file (``/static/css/base.css``) and a page (the
   replay page of the Othello game) in turn, one request at a time, ``--probes`` times
   each;
2. while ``--explorers`` clients (6) each ask ``explore.json`` about 8x8 Othello
   midgame positions (ply 16 to 31: the engine's 0.3 s search) in a loop, the same
   probes for ``--seconds`` (20);
3. the same with 9x9 Go explores with the engine (``"engine": true``: GNU Go, level 5);
4. quiet again.

With ``--compare REF`` a second daphne process serves that commit's code (``git
archive`` into a temporary folder, the same interpreter), and each phase runs on it and
then on this checkout: both see the same machine at nearly the same time, which matters
on a machine shared with other work.

Printed: the machine, the date, and for each phase and code the static file's median
and p90 (ms) and its median over the quiet one, the page's, the server process's CPU
(user + system over the phase's time: 100% is one core) and the most threads it had,
the machine's load average at the end of the phase (other work on a shared machine),
how many explores were answered meanwhile and their median time; and, before the
phases, one Othello explore alone and six at once (a wall time under six times one's
says the requests overlap).
Everything is bounded: each phase stops after its probes and time, the explorers after
the explore they are in (each request times out after a minute).

With ``--reply``, instead, what one player's explores cost the computer's replies in
another game: a person plays random moves over the websocket against the computer (9x9
Go, GNU Go at ``--level``, 5), ``--replies`` (20) of the computer's replies quiet (from
the person's move stored to the computer's received), then as many as come while one
guest session asks ``--twelve`` (12) ``explore.json`` about positions of a 19x19 Go game
of random moves (plies 12 to 34: GNU Go's explore takes 2.5 to 7 s there, within its 8 s
on a quiet machine; later positions of such a game take it over 8 s) with the engine,
all at once, until every one is answered. Printed for each code: the replies' median
and longest, quiet and meanwhile, and the explores' answers (a verdict,
``engine_error`` with its words, or an error status), their longest time and the wall
time of them all.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import os
import platform
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gamerules import Color, Move, new_position
from gamerules.sgf import GameRecord, export_sgf
from tests.support.clients import Browser, Follower
from tests.support.daphne import ROOT, Daphne, environment, running

STATIC = "/static/css/base.css"
TIMEOUT = 60  # one request
GAP = 0.02  # seconds between two probes
MIN_PROBES = 20  # of each path, in a phase under load
OTHELLO_PLIES = range(16, 32)  # midgame: 33 to 48 empties, the 0.3 s search
GO_PLIES = range(10, 40)
REPLY_GO_PLIES = range(12, 36, 2)  # the 19x19 explores' positions: GNU Go's 2.5 to 7 s
REPLY_MOVES = 60  # a new game against the computer after this many moves


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores ({model}), Python {platform.python_version()}"


def random_sgf(kind: str, size: int, seed: int, moves: int) -> str:
    """A game of random legal moves, as SGF: Othello to its end; Go ``moves`` moves and
    then two passes, with a result so that it imports as finished."""
    chooser = random.Random(seed)
    position = new_position(kind, size)
    played: list[tuple[Color, Move]] = []
    while not position.is_over and len(played) < moves:
        legal = position.legal_moves()
        move = Move.place(chooser.choice(legal)) if legal else Move.pass_turn()
        played.append((position.to_move, move))
        position = position.play(move)[0]
    if kind == "go":
        for _ in range(2):
            played.append((position.to_move, Move.pass_turn()))
            position = position.play(Move.pass_turn())[0]
    record = GameRecord(
        kind=kind,  # type: ignore[arg-type]
        size=size,
        moves=tuple(played),
        black_name="A",
        white_name="B",
        komi=6.5 if kind == "go" else None,
        result="B+R" if kind == "go" else None,
    )
    return export_sgf(record)


def explore(browser: Browser, game_id: str, ply: int, engine: bool) -> dict[str, object]:
    """One ``explore.json`` answer (raises for an error status)."""
    body = {"ply": ply, "moves": [], "engine": engine}
    answer: dict[str, object] = browser.post_json(f"/games/{game_id}/explore.json", body)
    return answer


def timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def fetch(base: str, path: str) -> None:
    with urllib.request.urlopen(base + path, timeout=TIMEOUT) as response:
        response.read()


def probe(base: str, paths: tuple[str, str], count: int, seconds: float) -> list[list[float]]:
    """Fetches of each of ``paths`` in turn, one request at a time: ``count`` of each, or
    with ``seconds``, as many as fit in them (``MIN_PROBES`` at least). Their times, in
    seconds."""
    times: list[list[float]] = [[] for _ in paths]
    deadline = time.monotonic() + seconds

    def more() -> bool:
        if not seconds:
            return len(times[0]) < count
        return time.monotonic() < deadline or len(times[0]) < MIN_PROBES

    while more():
        for path, measured in zip(paths, times, strict=True):
            measured.append(timed(lambda path=path: fetch(base, path)))  # type: ignore[misc]
            time.sleep(GAP)
    return times


class Watch:
    """The server process's threads (the most seen, sampled every 50 ms) and CPU time
    (user + system, from /proc) over a phase."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.threads = 0
        self.stop = threading.Event()
        self.sampler = threading.Thread(target=self.sample, daemon=True)
        self.cpu = 0.0
        self.seconds = 0.0

    def cpu_time(self) -> float:
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def sample(self) -> None:
        while not self.stop.wait(0.05):
            self.threads = max(self.threads, len(os.listdir(f"/proc/{self.pid}/task")))

    def __enter__(self) -> Watch:
        self.started, self.cpu = time.monotonic(), self.cpu_time()
        self.sampler.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.sampler.join()
        self.cpu = self.cpu_time() - self.cpu
        self.seconds = time.monotonic() - self.started


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def ms(value: float) -> str:
    return f"{value * 1000:.1f}"


class Explorers:
    """``count`` clients asking ``explore.json`` in a loop until stopped, each with its
    own session (threads: urllib blocks)."""

    def __init__(self, base: str, game_id: str, plies: range, engine: bool, count: int) -> None:
        self.base, self.game_id, self.plies, self.engine = base, game_id, plies, engine
        self.count = count
        self.stop = threading.Event()
        self.times: list[float] = []
        self.errors: list[str] = []
        self.threads = [
            threading.Thread(target=self.run, args=(seed,), daemon=True) for seed in range(count)
        ]

    def run(self, seed: int) -> None:
        browser = Browser(self.base)
        browser.get(f"/games/{self.game_id}/")
        chooser = random.Random(seed)
        while not self.stop.is_set():
            ply = chooser.choice(self.plies)
            try:
                started = time.perf_counter()
                answer = explore(browser, self.game_id, ply, self.engine)
                self.times.append(time.perf_counter() - started)
                if "engine_error" in answer:
                    self.errors.append(str(answer["engine_error"]))
            except OSError as error:
                self.errors.append(str(error))

    def __enter__(self) -> Explorers:
        for thread in self.threads:
            thread.start()
        time.sleep(1.0)  # every client has an explore in flight
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(TIMEOUT)


@dataclass
class Site:
    """One daphne process serving one checkout, with its two imported games."""

    label: str
    server: Daphne
    othello: str = ""
    go: str = ""
    go19: str = ""
    quiet: float = 0.0  # the static file's quiet median, in seconds

    @property
    def page(self) -> str:
        return f"/games/{self.othello}/"


def site(label: str, work: Path, cwd: Path) -> Site:
    """A daphne process (not started) serving ``cwd`` on a fresh SQLite file; migrated."""
    work.mkdir()
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
    server = Daphne(env, work / "daphne.log", cwd=cwd)
    server.migrate()
    return Site(label, server)


def checkout(ref: str, into: Path) -> Path:
    """The files of ``ref`` (a commit of this repository) in ``into`` (``git archive``)."""
    into.mkdir()
    archive = subprocess.run(
        ["git", "archive", "--format=tar", ref], cwd=ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def prepare(target: Site, explorers: int) -> None:
    """Import the games, warm the engines up, and time explores alone and at once."""
    browser = Browser(target.server.url)
    target.othello = browser.import_sgf(random_sgf("othello", 8, seed=11, moves=100))
    target.go = browser.import_sgf(random_sgf("go", 9, seed=12, moves=50))
    # Warm up: the first explores import the engine, or start the engines' processes.
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda p: explore(browser, target.othello, p, False), (20, 24)))
    explore(browser, target.go, 20, True)
    alone = [
        timed(lambda p=ply: explore(browser, target.othello, p, False)) for ply in (18, 22, 26)
    ]
    with ThreadPoolExecutor(explorers) as pool:
        started = time.perf_counter()
        plies = [16 + 2 * n for n in range(explorers)]
        list(pool.map(lambda p: explore(browser, target.othello, p, False), plies))
        together = time.perf_counter() - started
    print(
        f"{target.label}: one Othello explore alone, median {statistics.median(alone):.2f} s; "
        f"{explorers} at once, {together:.2f} s wall"
    )


def phase(name: str, target: Site, arguments: argparse.Namespace, load: str | None) -> None:
    """Probe ``target`` quiet (``load`` None) or while explorers ask about ``load``'s
    game (``"othello"`` or ``"go"``); print the table's row."""
    base = target.server.url
    explorers: Explorers | None = None
    if load is not None:
        game = target.othello if load == "othello" else target.go
        plies = OTHELLO_PLIES if load == "othello" else GO_PLIES
        explorers = Explorers(base, game, plies, load == "go", arguments.explorers)
    assert target.server.process is not None
    with explorers or contextlib.nullcontext(), Watch(target.server.process.pid) as watch:
        seconds = 0.0 if explorers is None else arguments.seconds
        static, pages = probe(base, (STATIC, target.page), arguments.probes, seconds)
    median = statistics.median(static)
    if name == "quiet":
        target.quiet = median
    words = [
        f"| {name} | {target.label}",
        f"{ms(median)} / {ms(percentile(static, 0.9))}",
        f"{median / target.quiet:.1f}x" if target.quiet else "",
        f"{ms(statistics.median(pages))} / {ms(percentile(pages, 0.9))}",
        f"{watch.cpu / watch.seconds:.0%}, {watch.threads}",
        f"{os.getloadavg()[0]:.1f}",
    ]
    if explorers is None:
        words.append("")
    else:
        times = explorers.times
        answered = f"{statistics.median(times):.2f} s" if times else "-"
        errors = f", {len(explorers.errors)} errors" if explorers.errors else ""
        words.append(f"{len(times)} answered, median {answered}{errors}")
    print(" | ".join(words) + " |", flush=True)
    if explorers is not None and explorers.errors:
        print(f"  first error: {explorers.errors[0]}", flush=True)


class Opponent:
    """A person playing random moves against the computer (9x9 Go at ``level``) over the
    websocket, a new game every ``REPLY_MOVES`` moves: the computer's reply times, each
    from the person's move stored to the computer's move received."""

    def __init__(self, base: str, level: int) -> None:
        self.base, self.level = base, level
        self.chooser = random.Random(7)
        self.replies: list[float] = []

    async def game(self) -> Follower:
        browser = Browser(self.base)
        game_id = await asyncio.to_thread(
            browser.create,
            kind="go", size=9, komi=6.5, color="black", name="Random",
            opponent="computer", level=self.level,
        )  # fmt: skip
        return await Follower.open(browser, game_id)

    async def play(self, done: Callable[[], bool]) -> None:
        """Play until ``done()`` holds after a reply."""
        player = await self.game()
        try:
            while not done():
                game = player.game
                if game["status"] != "active" or game["ply"] >= REPLY_MOVES:
                    await player.close()
                    player = await self.game()
                    continue
                ply = game["ply"]
                point = self.chooser.choice(game["legal"]) if game["legal"] else None
                move = {"type": "play", "ply": ply, "point": point}
                await player.socket.send(move if point else {"type": "pass", "ply": ply})
                await player.until(lambda p, at=ply: p.game["ply"] > at or p.errors)
                stored = time.perf_counter()
                await player.until(
                    lambda p, at=ply + 1: p.game["ply"] > at or p.game["status"] != "active",
                    timeout=TIMEOUT,
                )
                if player.game["status"] == "active":
                    self.replies.append(time.perf_counter() - stored)
        finally:
            await player.close()


def ask_at_once(base: str, game_id: str, count: int) -> tuple[list[str], list[float], float]:
    """``count`` explores with the engine from one guest session, all at once, about
    19x19 positions: each one's outcome (``verdict``, ``engine_error``, or the error
    status and code) and time, and the wall time of them all."""
    browser = Browser(base)
    browser.get(f"/games/{game_id}/")
    plies = [REPLY_GO_PLIES[n % len(REPLY_GO_PLIES)] for n in range(count)]
    token = browser.cookie("csrftoken")

    def one(ply: int) -> tuple[str, float]:
        started = time.perf_counter()
        request = urllib.request.Request(
            f"{base}/games/{game_id}/explore.json",
            data=json.dumps({"ply": ply, "moves": [], "engine": True}).encode(),
            headers={"Content-Type": "application/json", "X-CSRFToken": token},
        )
        try:
            # Queued behind each other, the last waits for eleven: no minute's timeout.
            with browser.opener.open(request, timeout=10 * TIMEOUT) as response:
                answer = json.loads(response.read())
            outcome = (
                f"engine_error ({answer['engine_error']})"
                if "engine_error" in answer
                else "verdict"
            )
        except urllib.error.HTTPError as error:
            outcome = f"{error.code} {error.read().decode()[:60]}"
        except OSError as error:
            outcome = f"no answer ({error})"
        return outcome, time.perf_counter() - started

    started = time.perf_counter()
    with ThreadPoolExecutor(count) as pool:
        answers = list(pool.map(one, plies))
    wall = time.perf_counter() - started
    return [outcome for outcome, _ in answers], [seconds for _, seconds in answers], wall


def reply_phase(target: Site, arguments: argparse.Namespace) -> None:
    """The computer's replies quiet, then while one session's explores are answered."""
    opponent = Opponent(target.server.url, arguments.level)

    async def run() -> tuple[list[float], list[float], tuple[list[str], list[float], float]]:
        await opponent.play(lambda: len(opponent.replies) >= arguments.replies)
        quiet = list(opponent.replies)
        opponent.replies.clear()
        asked = asyncio.create_task(
            asyncio.to_thread(ask_at_once, target.server.url, target.go19, arguments.twelve)
        )
        await opponent.play(asked.done)
        return quiet, list(opponent.replies), await asked

    quiet, loaded, (outcomes, times, wall) = asyncio.run(run())
    counted = ", ".join(f"{n} {outcome}" for outcome, n in sorted(Counter(outcomes).items()))
    print(
        f"| {target.label} | {statistics.median(quiet):.2f} / {max(quiet):.2f} s "
        f"| {statistics.median(loaded):.2f} / {max(loaded):.2f} s ({len(loaded)}) "
        f"| {counted} | {max(times):.1f} s | {wall:.1f} s | {os.getloadavg()[0]:.1f} |",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--probes", type=int, default=100, help="fetches of each probe")
    parser.add_argument("--explorers", type=int, default=6, help="explores at once")
    parser.add_argument(
        "--seconds", type=float, default=20, help="the least time of a phase under load"
    )
    parser.add_argument(
        "--compare", metavar="REF", help="also serve this commit's code, each phase in turn"
    )
    parser.add_argument(
        "--reply", action="store_true", help="only the computer's reply beside one's explores"
    )
    parser.add_argument("--level", type=int, default=5, help="the computer's level (--reply)")
    parser.add_argument("--replies", type=int, default=20, help="quiet replies (--reply)")
    parser.add_argument("--twelve", type=int, default=12, help="explores at once (--reply)")
    arguments = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-explore-"))
    targets = []
    if arguments.compare:
        label = subprocess.run(
            ["git", "rev-parse", "--short", arguments.compare],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        targets.append(site(label, work / "before", checkout(arguments.compare, work / "code")))
    targets.append(site("this checkout", work / "this", ROOT))
    print(f"{datetime.date.today()}, {machine()}")
    with running([target.server for target in targets]):
        if arguments.reply:
            for target in targets:
                browser = Browser(target.server.url)
                target.go19 = browser.import_sgf(random_sgf("go", 19, seed=13, moves=170))
            print()
            print(
                "| code | the computer's reply quiet, median / longest "
                f"| meanwhile ({arguments.twelve} explores) | the explores' answers "
                "| the longest | all of them, wall | load average |"
            )
            print("| --- | --- | --- | --- | --- | --- | --- |")
            for target in targets:
                reply_phase(target, arguments)
            return
        for target in targets:
            prepare(target, arguments.explorers)
        print()
        print(
            "| phase | code | static file median / p90 (ms) | x quiet "
            "| replay page median / p90 (ms) | server CPU, threads | load average "
            "| explores meanwhile |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        n = arguments.explorers
        for name, load in (
            ("quiet", None),
            (f"{n} Othello 8x8 explores", "othello"),
            (f"{n} Go 9x9 explores (GNU Go)", "go"),
            ("quiet again", None),
        ):
            for target in targets:
                phase(name, target, arguments, load)


if __name__ == "__main__":
    main()
