"""A real daphne process serving the project, for the tests and the benchmarks.

Three places start the project as production runs it (daphne, HTTP and websockets on
one port): the browser tests (tests/browser/conftest.py), the two-process test on
PostgreSQL and Redis (tests/site/test_daphne.py) and the load benchmark
(bench/load.py). They share this module: a free loopback port, the environment, a log
file, waiting until the server answers ``GET /`` with 200, stopping with a timeout and
then a kill, and ``manage.py migrate`` under the same environment (a SQLite file copied
from one migrated once a process: ``migrate``).

Why here: it is test tooling, not part of the project, so it stays out of the packages
``pyproject.toml`` installs (``games``, ``othello_site``); ``tests`` is already a
package that pytest imports from the repository root (``tests.support.helpers`` is
imported that way), and the benchmarks already put the repository root on
``sys.path`` to import the project (bench/rules.py), so ``from tests.support.daphne import
Daphne`` works in both without a new package or path hack. It imports nothing but the
standard library (no pytest, no Django), so the benchmark can use it outside pytest.
"""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parents[2]
APPLICATION = "othello_site.asgi:application"
HOST = "127.0.0.1"


class DaphneError(RuntimeError):
    """Daphne exited or did not serve in time; the message ends with its log."""


def free_port() -> int:
    """A TCP port on the loopback that nothing listens on (now)."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def environment(overrides: Mapping[str, str | None] | None = None) -> dict[str, str]:
    """``os.environ`` with ``overrides`` applied: a value sets, None removes."""
    env = dict(os.environ)
    for name, value in (overrides or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def terminate(process: subprocess.Popen[bytes], timeout: float) -> None:
    """SIGTERM ``process``, and SIGKILL it if it has not exited within ``timeout`` s."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def migrate(env: Mapping[str, str], *, cwd: Path = ROOT) -> None:
    """``manage.py migrate`` under ``env`` (its output captured; fails on an error), of the
    checkout ``cwd`` (this one by default).

    A new SQLite file (``DATABASE_URL`` names one that is not there yet) is a copy of one
    this process migrated once for ``cwd`` (``sqlite3``'s backup): the same tables and
    rows in a few milliseconds, where each migration from nothing takes seconds (a dozen
    tests and every browser test's own server start from one). Any other database is
    migrated as it is."""
    target = _new_sqlite_file(env.get("DATABASE_URL", ""), cwd)
    if target is None:
        _run_migrate(env, cwd)
        return
    template = _sqlite_template(env, cwd)
    with closing(sqlite3.connect(template)) as source, closing(sqlite3.connect(target)) as copy:
        source.backup(copy)


def _run_migrate(env: Mapping[str, str], cwd: Path) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=cwd,
        env=dict(env),
        check=True,
        capture_output=True,
    )


def _new_sqlite_file(url: str, cwd: Path) -> Path | None:
    """The file a ``sqlite:///`` URL names, when nothing is there yet; else None."""
    if not url.startswith("sqlite:///") or ":memory:" in url:
        return None
    path = cwd / url.removeprefix("sqlite:///")  # an absolute path stays as it is
    return None if path.exists() else path


_templates: dict[Path, Path] = {}
"""The migrated SQLite file of each checkout, made by this process's first ``migrate``."""


def _sqlite_template(env: Mapping[str, str], cwd: Path) -> Path:
    if cwd not in _templates:
        folder = Path(tempfile.mkdtemp(prefix="othello-migrated-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        template = folder / "db.sqlite3"
        _run_migrate({**env, "DATABASE_URL": f"sqlite:///{template}"}, cwd)
        _templates[cwd] = template
    return _templates[cwd]


class Daphne:
    """One daphne process serving the project on 127.0.0.1:<port>; stop and start again.

    The port is chosen once, so a restarted server keeps its URL. The log file is
    appended to, so it keeps every run's output. As a context manager it starts on
    entry and stops on exit. ``cwd``: the checkout to serve (this one by default; a
    benchmark may compare another); ``application``: the ASGI application's path (the
    project's by default; a benchmark serves its floor); ``options``: more of daphne's
    options (``--proxy-headers`` behind a proxy).
    """

    def __init__(
        self,
        env: Mapping[str, str],
        log: Path,
        *,
        start_timeout: float = 30,
        stop_timeout: float = 10,
        cwd: Path = ROOT,
        application: str = APPLICATION,
        options: Sequence[str] = (),
    ) -> None:
        self.env = dict(env)
        self.options = list(options)
        self.cwd = cwd
        self.application = application
        self.log = log
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def migrate(self) -> None:
        """``manage.py migrate`` on this server's database (its environment)."""
        migrate(self.env, cwd=self.cwd)

    def launch(self) -> None:
        """Start the process without waiting for it (see ``wait_until_serving``)."""
        if self.process is not None:
            raise DaphneError(f"daphne on port {self.port} is already running")
        command = [sys.executable, "-m", "daphne", *self.options, "-b", HOST, "-p", str(self.port)]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [*command, self.application],
                cwd=self.cwd,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def wait_until_serving(self) -> None:
        """Return once ``GET /`` answers 200; else stop it and raise DaphneError."""
        assert self.process is not None, "launch() first"
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.1)
        code = self.process.poll()
        self.stop()
        why = f"exited with {code}" if code is not None else "did not serve in time"
        raise DaphneError(f"daphne on port {self.port} {why}:\n{self.log.read_text()}")

    def start(self) -> None:
        """Start daphne and return once it serves (or raise DaphneError with its log)."""
        self.launch()
        self.wait_until_serving()

    def stop(self) -> None:
        """Terminate the process; kill it if it has not exited within ``stop_timeout``."""
        if self.process is None:
            return
        terminate(self.process, self.stop_timeout)
        self.process = None

    def kill(self) -> None:
        """Kill the process at once (SIGKILL: no goodbye to its clients), as a crash does."""
        if self.process is None:
            return
        self.process.kill()
        self.process.wait()
        self.process = None

    def __enter__(self) -> Daphne:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


def embedded(work: Path, *, options: Sequence[str] = (), **overrides: str | None) -> Daphne:
    """A daphne process (not started) on the embedded default, as the README's serve
    command runs: a fresh SQLite file in ``work``, the in-memory channel layer, DEBUG off,
    a key of its own; migrated. ``options``: more of daphne's options; ``overrides``
    change the environment further."""
    env = environment(
        {
            "DATABASE_URL": f"sqlite:///{work / 'db.sqlite3'}",
            "REDIS_URL": None,
            "SECRET_KEY": secrets.token_urlsafe(40),
            "DEBUG": "0",
            **overrides,
        }
    )
    server = Daphne(env, work / "daphne.log", options=options)
    server.migrate()
    return server


@contextmanager
def running(servers: Sequence[Daphne]) -> Iterator[None]:
    """Every server started at once (all launched, then each waited for); all stopped after."""
    try:
        for server in servers:
            server.launch()
        for server in servers:
            server.wait_until_serving()
        yield
    finally:
        for server in servers:
            server.stop()
