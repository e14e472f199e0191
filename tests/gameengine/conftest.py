"""Fixtures of the engine tests: the real GNU Go, or a fake engine that misbehaves on request.

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
from typing import Any

import pytest

from gameengine.gnugo import GNUGO_PATH, available

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


KATAGO_DIR = Path(os.environ.get("KATAGO_DIR") or Path(__file__).parents[2] / ".katago")


@pytest.fixture(scope="session")
def real_katago() -> dict[str, Any]:
    """The settings of the KataGo that ``scripts/katago.sh`` installed (``KATAGO_DIR``,
    default .katago); skips the test when it is not installed, with the reason, unless
    the run opted in (``WITH_KATAGO=1``, as ``.ci/run`` does) or CI is set: then it fails."""
    program = KATAGO_DIR / "katago"
    if not program.exists():
        reason = f"KataGo is not installed in {KATAGO_DIR} (sh scripts/katago.sh)"
        if os.environ.get("WITH_KATAGO") == "1" or os.environ.get("CI"):
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    return {
        "command": [str(program)],
        "model": str(KATAGO_DIR / "model.bin.gz"),
        "analysis_config": str(KATAGO_DIR / "analysis.cfg"),
        "gtp_config": str(KATAGO_DIR / "gtp.cfg"),
        "review_visits": 1,
        "top_visits": 8,
    }
