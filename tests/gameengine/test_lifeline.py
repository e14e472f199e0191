"""gameengine/lifeline.py: a worker notices that its parent died; an engine dies with
the process that started it, even one killed with SIGKILL (Linux: these tests run where
the README's commands do).

The whole chain in a real server (a daphne killed while its engines think) is
tests/games/workers/test_engines_daphne.py's.
"""

from __future__ import annotations

import multiprocessing
import os
import secrets
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from gameengine.lifeline import engine_worker, until_orphaned
from tests.support.daphne import ROOT, environment
from tests.support.processes import carrying, until_none_carry

from .conftest import FAKE_GTP


@pytest.mark.parametrize(
    ("parents", "looks"),
    [
        ([7, 1], 1),  # died before the first look: passed to init
        ([7, 7, 7, 1], 3),
        ([7, 7, 4242], 2),  # passed to a subreaper, not to init
    ],
)
def test_a_worker_watches_until_its_parent_changes(parents: list[int], looks: int) -> None:
    ppids: Iterator[int] = iter(parents)
    waits: list[float] = []
    until_orphaned(7, interval=0.2, getppid=lambda: next(ppids), sleep=waits.append)
    assert waits == [0.2] * looks


# A process that starts the fake engine, sets it sleeping for a minute (it reads nothing
# meanwhile, so the end of its input would not stop it) and says so.
STARTER = textwrap.dedent(
    f"""
    import sys, threading, time
    from gameengine.gtp import GtpEngine
    engine = GtpEngine([sys.executable, {str(FAKE_GTP)!r}])
    engine.send("echo up")
    threading.Thread(target=engine.send, args=("sleep",), kwargs={{"timeout": 120}}).start()
    time.sleep(0.3)
    print(engine.pid, flush=True)
    time.sleep(120)
    """
)


def test_an_engine_dies_with_the_process_that_started_it_even_a_killed_one() -> None:
    mark = secrets.token_hex(8)
    starter = subprocess.Popen(
        [sys.executable, "-c", STARTER],
        cwd=ROOT,
        env=environment({"OTHELLO_GO_TEST_STARTER": mark}),
        stdout=subprocess.PIPE,
    )
    try:
        assert starter.stdout is not None
        engine = int(starter.stdout.readline())
        assert engine in {process.pid for process in carrying("OTHELLO_GO_TEST_STARTER", mark)}
        starter.kill()
        starter.wait()
        # The engine sleeps for a minute unless the kernel kills it with its parent.
        assert until_none_carry("OTHELLO_GO_TEST_STARTER", mark, 10) == []
    finally:
        starter.kill()
        starter.wait()
        for process in carrying("OTHELLO_GO_TEST_STARTER", mark):
            os.kill(process.pid, signal.SIGKILL)


def priority() -> tuple[int, str]:
    """This process's nice value and its autogroup ("" where Linux has none)."""
    autogroup = Path("/proc/self/autogroup")
    return os.nice(0), autogroup.read_text().strip() if autogroup.exists() else ""


def test_an_engine_worker_runs_below_its_servers_priority() -> None:
    # The server's engines (games.workers.engines) start as these: a page served by the
    # parent gets the CPU first, even where Linux shares the CPU by session (autogroup).
    spawn = multiprocessing.get_context("spawn")
    here, group = priority()
    with ProcessPoolExecutor(
        1, mp_context=spawn, initializer=engine_worker, initargs=(os.getpid(), 5)
    ) as workers:
        nice, its_group = workers.submit(priority).result(timeout=60)
    assert nice == min(19, here + 5)
    if group:  # a session of its own: an autogroup of its own
        assert its_group != group
    assert priority() == (here, group)
