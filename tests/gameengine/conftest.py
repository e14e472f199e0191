"""Fixtures of the engine tests: the real GNU Go or KataGo, or a fake engine that misbehaves.

Tests that need GNU Go take the ``gnugo_path`` fixture: without it installed they
are skipped with the reason, unless the environment variable CI is set (the CI
machine installs it), where they fail instead.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gameengine.gnugo import GNUGO_PATH, available
from tests.support.katago import real_katago  # noqa: F401  (the fixture, for these tests)

FAKE_GTP = Path(__file__).with_name("fake_gtp.py")


@pytest.fixture(scope="session")
def gnugo_path() -> str:
    """The path of GNU Go; skips the test (fails it under CI) when it is not installed."""
    if not available(GNUGO_PATH):
        reason = f"GNU Go is not installed at {GNUGO_PATH} (apt-get install gnugo)"
        if os.environ.get("CI"):
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    return GNUGO_PATH


def fake_command(*options: str) -> list[str]:
    """The command line of the fake engine (``fake_gtp.py``) with ``options``."""
    return [sys.executable, str(FAKE_GTP), *options]


@pytest.fixture
def fake_program(tmp_path: Path) -> Callable[..., str]:
    """Makes an executable that runs the fake engine with the given options, for code that
    takes a program's path (as ``GnuGo`` does); returns its path."""

    def make(*options: str) -> str:
        program = tmp_path / "fake-gnugo"
        words = " ".join(f"'{word}'" for word in fake_command(*options))
        program.write_text(f'#!/bin/sh\nexec {words} "$@"\n')
        program.chmod(program.stat().st_mode | stat.S_IXUSR)
        return str(program)

    return make
