"""The examples in tournaments.systems' docstrings hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "records",
    "ranks",
    "matching",
    "ranking",
    "arena",
    "swiss",
    "mcmahon",
    "roundrobin",
    "sheets",
]


@pytest.mark.parametrize("name", MODULES)
def test_the_doctests_hold(name: str) -> None:
    module = importlib.import_module(f"tournaments.systems.{name}")
    assert doctest.testmod(module).failed == 0
