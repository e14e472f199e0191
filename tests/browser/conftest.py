"""Browser tests: a real daphne process, Debian's Chromium driven by Playwright.

The server runs as it does in production (daphne, HTTP and websockets on one
port) against a fresh SQLite file; every test opens its own browser contexts,
each with its own cookies, so each context is a different person.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
START_TIMEOUT_S = 30
DAPHNE = [sys.executable, "-m", "daphne"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class DaphneServer:
    """One daphne process serving the project on 127.0.0.1:<port>; stop and start again."""

    def __init__(self, *, database: Path, log: Path) -> None:
        self.database = database
        self.log = log
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{database}",
            "DEBUG": "1",
        }
        self.env.pop("REDIS_URL", None)
        self.process: subprocess.Popen[bytes] | None = None

    def migrate(self) -> None:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
        )

    def start(self) -> None:
        """Start daphne and return once it accepts connections (or fail with its log)."""
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [*DAPHNE, "-b", "127.0.0.1", "-p", str(self.port), "othello_site.asgi:application"],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        pytest.fail(f"daphne did not start on port {self.port}:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

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
