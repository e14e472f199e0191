"""Fixtures of the puzzles' tests: the real KataGo (skipped where it is not installed)."""

from tests.support.katago import real_katago  # noqa: F401  (the fixture, for these tests)
