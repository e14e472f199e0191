"""The package (gamerules/__init__.py): its docstring's examples, and its command line
under its name and its old one (``python -m games.rules``)."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import gamerules

ROOT = Path(__file__).resolve().parents[2]


def test_the_examples_in_the_docstrings_hold() -> None:
    assert doctest.testmod(gamerules).failed == 0


@pytest.mark.parametrize("name", ["gamerules", "games.rules"])
def test_the_command_and_its_old_name_run(name: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", name],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("usage: python -m gamerules {othello-replay,")
