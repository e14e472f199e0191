"""games.workers.engines in real daphne processes: the computer moves first without anyone
asking, answers a person over the websocket, a move owed by a killed process is made
by another (PostgreSQL and Redis), and a killed process's engines (its worker processes,
their resource tracker, the GNU Go thinking for them) end with it."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.support.clients import Browser, Follower
from tests.support.daphne import Daphne, embedded, environment, running
from tests.support.processes import Process, carrying, until_none_carry

TIMEOUT = 30


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Daphne]:
    """One daphne process on the embedded default."""
    daphne = embedded(tmp_path)
    with running([daphne]):
        yield daphne


def until(check: Any, timeout: float = TIMEOUT) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout} s")


async def test_the_computer_moves_first_and_answers_each_move(server: Daphne) -> None:
    ann = Browser(server.url)
    game_id = await asyncio.to_thread(
        ann.create,
        kind="othello",
        size=6,
        color="white",
        name="Ann",
        opponent="computer",
        level=1,
    )
    # Nobody connected: the computer, Black, plays its first move by itself.
    state = await asyncio.to_thread(until, lambda: (s := ann.state(game_id))["ply"] >= 1 and s)
    assert state["last_move"]["color"] == "black"

    follower = await Follower.open(ann, game_id)
    try:
        for _ in range(4):
            if follower.game["status"] != "active":
                break
            assert follower.game["to_move"] == "white"
            answered = await follower.play_first_legal() + 2
            # The computer's answer (or the end of the game) reaches the page.
            await follower.until(
                lambda f, at=answered: f.game["ply"] >= at or f.game["status"] != "active",
                TIMEOUT,
            )
        assert follower.errors == []
    finally:
        await follower.close()


@pytest.mark.services
def test_a_move_owed_by_a_killed_process_is_made_by_another(
    database_url: str, tmp_path: Path
) -> None:
    env = environment({"DATABASE_URL": database_url, "PROCESS_TIMEOUT": "2"})
    first = Daphne(env, tmp_path / "first.log")
    second = Daphne(env, tmp_path / "second.log")
    with running([first]):
        ann = Browser(first.url)
        # The computer plays Black at level 10 on 16x16: a second or so a move.
        game_id = ann.create(
            kind="othello", size=16, color="white", name="Ann", opponent="computer", level=10
        )

        def thinking() -> Any:
            with psycopg.connect(database_url) as connection:
                return connection.execute(
                    "SELECT computer_thinker, ply FROM games_game WHERE public_id = %s",
                    [game_id],
                ).fetchone()

        _, ply = until(lambda: (row := thinking())[0] and row)
        first.kill()
    assert ply == 0  # the first process was thinking, and had not moved

    with running([second]):
        ann = ann.on(second.url)
        state = until(lambda: (s := ann.state(game_id))["ply"] >= 1 and s)
    assert state["last_move"]["color"] == "black"
    assert state["ply"] == 1  # made once


SERVER_MARK = "OTHELLO_GO_TEST_SERVER"
"""A variable in one server's environment: every process it starts carries it."""


def kill_while_gnugo_thinks(server: Daphne, mark: str) -> list[Process]:
    """Watch the server's processes; the moment a GNU Go runs among them, kill the server
    (SIGKILL). The processes it had then."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        processes = carrying(SERVER_MARK, mark)
        if any(process.name == "gnugo" for process in processes):
            server.kill()
            return processes
        time.sleep(0.01)
    raise AssertionError(f"GNU Go did not run within {TIMEOUT} s")


async def answer_each_move(follower: Follower, color: str) -> None:
    """Play as ``color`` (the first legal point) whenever it is that colour's turn."""
    while True:
        await follower.until(lambda follower: follower.game["to_move"] == color)
        ply = await follower.play_first_legal()
        await follower.at_ply(ply + 2)


async def test_a_killed_servers_engines_end_with_it(tmp_path: Path) -> None:
    mark = secrets.token_hex(8)
    server = embedded(tmp_path, COMPUTER_ENGINES="2", **{SERVER_MARK: mark})
    with running([server]):
        ann = Browser(server.url)
        # The computer at level 10: Othello on 16x16 keeps a worker busy in Python for a
        # second or more a move; Go on 19x19 starts a GNU Go for each of its moves.
        for kind, size in (("othello", 16), ("go", 19)):
            game_id = await asyncio.to_thread(
                ann.create,
                kind=kind,
                size=size,
                color="white",
                name="Ann",
                opponent="computer",
                level=10,
            )
        follower = await Follower.open(ann, game_id)
        killing = asyncio.create_task(asyncio.to_thread(kill_while_gnugo_thinks, server, mark))
        # GNU Go runs for a fraction of a second a move here: Ann answers each of its
        # moves until one of them is caught being thought.
        answering = asyncio.create_task(answer_each_move(follower, "white"))
        try:
            before = await killing
        finally:
            answering.cancel()
            await asyncio.gather(answering, return_exceptions=True)
            await follower.close()

    names = " ".join(f"{process.name} ({process.command})" for process in before)
    assert "multiprocessing.spawn" in names and "gnugo" in names
    left = await asyncio.to_thread(until_none_carry, SERVER_MARK, mark, 10)
    assert left == []


GO_RECORD = "(;GM[1]FF[4]SZ[9]KM[6.5]RE[B+R];B[ee];W[cc];B[gc];W[cg];B[];W[])"
"""A finished 9x9 Go game, to explore."""


def parent_of(pid: int) -> int:
    """The pid of the process that started ``pid`` (Linux's /proc)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def test_an_explore_is_answered_by_the_servers_engine_processes(tmp_path: Path) -> None:
    # The Go engine says who started it, then fails: the answer is the engine's "could
    # not answer", as with GNU Go failing, and the engine ran under a worker process.
    started_by = tmp_path / "started-by"
    command = f"sh -c 'echo $PPID > {started_by}; exit 3'"
    server = embedded(tmp_path, REVIEW_GO_COMMAND=command)
    with running([server]):
        assert server.process is not None
        browser = Browser(server.url)
        game_id = browser.import_sgf(GO_RECORD)
        path = f"/games/{game_id}/explore.json"
        answer = browser.post_json(path, {"ply": 2, "moves": [[4, 6]], "engine": True})
        assert "engine_error" in answer
        assert answer["diffs"][0]["point"] == [4, 6]
        worker = int(started_by.read_text())
        assert worker != server.process.pid
        assert parent_of(worker) == server.process.pid
        # The rules' part alone never asks the engine.
        started_by.unlink()
        answer = browser.post_json(path, {"ply": 2, "moves": []})
        assert "engine_error" not in answer and not started_by.exists()
