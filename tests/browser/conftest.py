"""Browser tests: a real daphne process, Debian's Chromium driven by Playwright.

The server runs as it does in production (daphne, HTTP and websockets on one
port) against a fresh SQLite file; every test opens its own browser contexts,
each with its own cookies, so each context is a different person.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext

from tests.support.daphne import Daphne, environment

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class DaphneServer(Daphne):
    """A daphne process on a fresh SQLite file of its own (no Redis), DEBUG on."""

    def __init__(self, *, database: Path, log: Path) -> None:
        env = environment(
            {"DATABASE_URL": f"sqlite:///{database}", "DEBUG": "1", "REDIS_URL": None}
        )
        super().__init__(env, log)
        self.database = database

    def remove_database(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.database}{suffix}").unlink(missing_ok=True)


def _new_server(tmp_path_factory: pytest.TempPathFactory) -> DaphneServer:
    database = Path(tempfile.gettempdir()) / f"othello-browser-{uuid.uuid4().hex}.sqlite3"
    log = tmp_path_factory.mktemp("daphne") / "daphne.log"
    server = DaphneServer(database=database, log=log)
    server.migrate()
    return server


@pytest.fixture(scope="session")
def live_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a daphne process shared by the whole session."""
    server = _new_server(tmp_path_factory)
    server.start()
    yield server.url
    server.stop()
    server.remove_database()


@pytest.fixture
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaphneServer]:
    """A daphne process of this test's own, which the test may stop and start again."""
    server = _new_server(tmp_path_factory)
    server.start()
    yield server
    server.stop()
    server.remove_database()


@pytest.fixture(scope="session")
def base_url(live_server_url: str) -> str:
    """pytest-playwright opens relative URLs against the session's daphne."""
    return live_server_url


@pytest.fixture(autouse=True)
def no_content_security_violations(
    browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """Every page of every context the test opens breaks no rule of the site's
    Content-Security-Policy (an inline script or style, a foreign source): the browser
    reports each refusal on the console."""
    refused: list[str] = []
    new_context = browser.new_context

    def watched(**options: Any) -> BrowserContext:
        context = new_context(**options)
        context.on(
            "console",
            lambda message: (
                refused.append(message.text) if "Content Security Policy" in message.text else None
            ),
        )
        return context

    monkeypatch.setattr(browser, "new_context", watched)
    yield
    assert refused == []


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium (Playwright cannot download its own build here)."""
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing: install Debian's package (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "headless": True,
        "args": CHROMIUM_ARGS,
    }
