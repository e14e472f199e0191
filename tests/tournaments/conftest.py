"""The tournaments' tests start with nothing noted for the loop's next turn (a test
database reuses tournaments' ids)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tournaments import services


@pytest.fixture(autouse=True)
def nothing_noted() -> Iterator[None]:
    services._later.clear()
    yield
    services._later.clear()
