"""Fixtures of the engines' pool tests: the real KataGo (tests/support/katago.py)."""

from tests.support.katago import real_katago  # noqa: F401  (the fixture, for these tests)
