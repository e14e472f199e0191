"""The real KataGo that ``scripts/katago.sh`` installed, as a fixture: the engine's own
tests (tests/gameengine/) and the server's pool (tests/games/workers/) take it from their
conftest."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

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
