"""The GTP client (gameengine/gtp.py): answers, refusals, timeouts, deaths and shutdown.

Most tests talk to the fake engine (tests/gameengine/fake_gtp.py), which misbehaves on
request in milliseconds; a few talk to the real GNU Go.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from gameengine.gnugo import gnugo_command
from gameengine.gtp import EngineDied, EngineTimeout, GtpEngine, GtpError

from .conftest import fake_command


@pytest.fixture
def fake() -> Iterator[GtpEngine]:
    with GtpEngine(fake_command(), timeout=5) as engine:
        yield engine


def test_an_answer_comes_back_without_its_status(fake: GtpEngine) -> None:
    assert fake.send("echo hello world") == "hello world"
    assert fake.send("boardsize 9") == ""


def test_a_multi_line_answer_keeps_its_lines(fake: GtpEngine) -> None:
    assert fake.send("multi") == "one\ntwo"


def test_lines_before_the_answer_are_skipped(fake: GtpEngine) -> None:
    assert fake.send("noise") == "ok"
    assert fake.send("echo next") == "next"


def test_a_refusal_raises_gtp_error_and_the_engine_goes_on(fake: GtpEngine) -> None:
    with pytest.raises(GtpError, match="fake failure") as refused:
        fake.send("fail")
    assert (refused.value.command, refused.value.message) == ("fail", "fake failure")
    assert fake.alive
    assert fake.send("echo still here") == "still here"


@pytest.mark.parametrize("command", ["", "  ", "play b C3\ngenmove w", "name\r"])
def test_a_command_is_one_non_empty_line(fake: GtpEngine, command: str) -> None:
    with pytest.raises(ValueError, match="one non-empty line"):
        fake.send(command)


def test_an_engine_that_does_not_answer_in_time_is_killed(fake: GtpEngine) -> None:
    start = time.monotonic()
    with pytest.raises(EngineTimeout, match=r"did not answer 'sleep' within 0\.3 s"):
        fake.send("sleep", timeout=0.3)
    assert time.monotonic() - start < 2
    assert not fake.alive
    assert fake.returncode == -9
    with pytest.raises(EngineDied, match="not running"):
        fake.send("echo anyone?")


def test_a_dead_engine_is_reported_with_its_last_words(fake: GtpEngine) -> None:
    with pytest.raises(EngineDied, match=r"exit code 3.*fake engine crashed"):
        fake.send("exit")
    assert not fake.alive
    with pytest.raises(EngineDied):
        fake.send("echo anyone?")


def test_the_default_timeout_applies_when_a_call_names_none() -> None:
    with GtpEngine(fake_command(), timeout=0.3) as engine, pytest.raises(EngineTimeout):
        engine.send("sleep")


def test_one_command_is_in_flight_at_a_time(fake: GtpEngine) -> None:
    answers: dict[int, list[str]] = {}

    def ask(worker: int) -> None:
        answers[worker] = [fake.send(f"echo {worker} {n}") for n in range(50)]

    workers = [threading.Thread(target=ask, args=(worker,)) for worker in range(4)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    assert answers == {w: [f"{w} {n}" for n in range(50)] for w in range(4)}


def test_close_quits_the_engine_and_may_be_called_twice() -> None:
    engine = GtpEngine(fake_command())
    engine.close()
    assert not engine.alive
    assert engine.returncode == 0
    engine.close()
    with pytest.raises(EngineDied):
        engine.send("echo anyone?")


def test_close_kills_an_engine_that_does_not_quit() -> None:
    engine = GtpEngine(fake_command("--ignore-quit"))
    start = time.monotonic()
    engine.close(timeout=0.3)
    assert time.monotonic() - start < 2
    assert engine.returncode == -9


def test_close_after_a_death_is_quiet(fake: GtpEngine) -> None:
    with pytest.raises(EngineDied):
        fake.send("exit")
    fake.close()


def test_a_program_that_cannot_start_raises_os_error() -> None:
    with pytest.raises(FileNotFoundError):
        GtpEngine(["/nonexistent/gnugo", "--mode", "gtp"])


def test_gnu_go_answers(gnugo_path: str) -> None:
    with GtpEngine(gnugo_command(gnugo_path)) as engine:
        assert engine.send("name") == "GNU Go"
        assert engine.send("protocol_version") == "2"
        engine.send("boardsize 9")
        assert engine.send("query_boardsize") == "9"
        board = engine.send("showboard").splitlines()
        assert board[0].split() == list("ABCDEFGHJ")
        assert len(board) == 11
        with pytest.raises(GtpError, match="invalid color or coordinate"):
            engine.send("play black Z1")
        assert engine.send("genmove black") != ""
        assert repr(engine).startswith("<GtpEngine gnugo pid=")
    assert repr(engine).endswith("stopped>")
