"""The package (gameengine/__init__.py): its docstring's example."""

from __future__ import annotations

import doctest

import gameengine


def test_the_examples_in_the_docstrings_hold() -> None:
    assert doctest.testmod(gameengine).failed == 0
