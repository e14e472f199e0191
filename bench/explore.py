"""What trying moves on a replay (``POST /games/<id>/explore.json``) costs the other
requests of the same daphne process (a benchmark, not a test).

    .venv/bin/python bench/explore.py               # about a minute
    .venv/bin/python bench/explore.py --probes 200 --explorers 6

One daphne process on the embedded default (SQLite, ``RATE_LIMITS=off``), as the
README's serve command runs it, with two finished games imported as SGF: an 8x8 Othello
game and a 9x9 Go game of random moves. Then, in three phases:

1. quiet: a probe fetches a static file (``/static/css/base.css``) and a page (the
   replay page of the Othello game) one after the other, ``--probes`` times each;
2. while ``--explorers`` clients (6) each ask ``explore.json`` about 8x8 Othello
   midgame positions (ply 16 to 31: the engine's 0.3 s search) in a loop, the same
   probes;
3. the same with 9x9 Go explores with the engine (``"engine": true``: GNU Go, level 5).

Printed: the machine, the date, and for each phase the probes' median and p90 (ms), how
many explores were answered and their median time; and, before the phases, one Othello
explore alone and six at once (their wall time says whether the requests overlap).
Everything is bounded: each phase stops after its probes, the explorers after the
explore they are in.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import random
import secrets
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.rules import Color, Move, new_position
from games.rules.sgf import GameRecord, export_sgf
from tests.support.clients import Browser
from tests.support.daphne import Daphne, environment, running

STATIC = "/static/css/base.css"
TIMEOUT = 60  # one request
GAP = 0.02  # seconds between two probes
OTHELLO_PLIES = range(16, 32)  # midgame: 33 to 48 empties, the 0.3 s search
GO_PLIES = range(10, 40)


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import os

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


def upload_sgf(browser: Browser, text: str) -> str:
    """Import one SGF record through ``POST /games/import/`` (multipart): its game id."""
    browser.get("/games/import/")
    boundary = secrets.token_hex(16)
    body = "".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"{extra}\r\n\r\n{value}\r\n'
        for name, extra, value in (
            ("csrfmiddlewaretoken", "", browser.cookie("csrftoken")),
            ("sgf", '; filename="game.sgf"\r\nContent-Type: application/x-go-sgf', text),
        )
    )
    request = urllib.request.Request(
        browser.base + "/games/import/",
        data=(body + f"--{boundary}--\r\n").encode(),
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    with browser.opener.open(request, timeout=TIMEOUT) as response:
        return str(response.geturl()).rstrip("/").split("/")[-1]


def explore(browser: Browser, game_id: str, ply: int, engine: bool) -> dict[str, object]:
    """One ``explore.json`` answer (raises for an error status)."""
    request = urllib.request.Request(
        f"{browser.base}/games/{game_id}/explore.json",
        data=json.dumps({"ply": ply, "moves": [], "engine": engine}).encode(),
        headers={"Content-Type": "application/json", "X-CSRFToken": browser.cookie("csrftoken")},
    )
    with browser.opener.open(request, timeout=TIMEOUT) as response:
        answer: dict[str, object] = json.loads(response.read())
        return answer


def timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def fetch(base: str, path: str) -> None:
    with urllib.request.urlopen(base + path, timeout=TIMEOUT) as response:
        response.read()


def probe(base: str, path: str, count: int) -> list[float]:
    """``count`` fetches of ``path``, one after the other: their times in seconds."""
    times = []
    for _ in range(count):
        times.append(timed(lambda: fetch(base, path)))
        time.sleep(GAP)
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def ms(value: float) -> str:
    return f"{value * 1000:.0f}"


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


def phase(name: str, base: str, page: str, probes: int, explorers: Explorers | None) -> None:
    static = probe(base, STATIC, probes)
    pages = probe(base, page, probes)
    words = [
        f"| {name} | {ms(statistics.median(static))} / {ms(percentile(static, 0.9))}",
        f"{ms(statistics.median(pages))} / {ms(percentile(pages, 0.9))}",
    ]
    if explorers is None:
        words.append("")
    else:
        times = explorers.times
        median = f"{statistics.median(times):.2f} s" if times else "-"
        errors = f", {len(explorers.errors)} errors" if explorers.errors else ""
        words.append(f"{len(times)} answered, median {median}{errors}")
    print(" | ".join(words) + " |", flush=True)
    if explorers is not None and explorers.errors:
        print(f"  first error: {explorers.errors[0]}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--probes", type=int, default=100, help="fetches of each probe")
    parser.add_argument("--explorers", type=int, default=6, help="explores at once")
    arguments = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-explore-"))
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
    print(f"{datetime.date.today()}, {machine()}")
    with running([server]):
        base = server.url
        browser = Browser(base)
        othello = upload_sgf(browser, random_sgf("othello", 8, seed=11, moves=100))
        go = upload_sgf(browser, random_sgf("go", 9, seed=12, moves=50))
        page = f"/games/{othello}/"
        print(f"one daphne process ({base}); Othello game {othello}, Go game {go}")
        for ply in (20, 24):  # warm up: the first explore imports the engine
            explore(browser, othello, ply, False)
        explore(browser, go, 20, True)
        alone = [timed(lambda p=ply: explore(browser, othello, p, False)) for ply in (18, 22, 26)]
        with ThreadPoolExecutor(arguments.explorers) as pool:
            started = time.perf_counter()
            list(
                pool.map(
                    lambda p: explore(browser, othello, p, False),
                    [16 + 2 * n for n in range(arguments.explorers)],
                )
            )
            together = time.perf_counter() - started
        print(
            f"Othello explore alone: median {statistics.median(alone):.2f} s; "
            f"{arguments.explorers} at once: {together:.2f} s wall"
        )
        print()
        print(
            "| phase | static file median / p90 (ms) | replay page median / p90 (ms) "
            "| explores meanwhile |"
        )
        print("| --- | --- | --- | --- |")
        phase("quiet", base, page, arguments.probes, None)
        n = arguments.explorers
        with Explorers(base, othello, OTHELLO_PLIES, False, n) as explorers:
            phase(f"{n} Othello 8x8 explores", base, page, arguments.probes, explorers)
        with Explorers(base, go, GO_PLIES, True, n) as explorers:
            phase(f"{n} Go 9x9 explores (GNU Go)", base, page, arguments.probes, explorers)
        phase("quiet again", base, page, arguments.probes, None)


if __name__ == "__main__":
    main()
