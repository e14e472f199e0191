"""Services of a test's own, which the test may break: a Redis server, a TCP proxy; and
the processes a test started, found again wherever they went.

For tests/site/test_faults.py: a Redis on a free port that the test kills and starts
again (without persistence, as the CI's Redis runs: a restarted Redis has forgotten
everything), and a proxy in front of PostgreSQL that the test cuts (every connection
closed, new ones refused) and restores, which is how a briefly unreachable database
looks to the servers. And for every test and benchmark on PostgreSQL, a fresh database
of its own. Standard library only (psycopg for the database), like tests/support/daphne.py.

``carrying`` finds processes by a variable in the environment they were started with,
which every process they start inherits: a server's engine workers, the GNU Go those
start, multiprocessing's resource tracker, even after their parent died (their parent is
init then, so they are nobody's descendants any more). Linux's /proc only.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import secrets
import shutil
import socket
import subprocess
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.support.daphne import HOST, free_port

NO_PERSISTENCE = ["--save", "", "--appendonly", "no"]


class RedisServer:
    """``redis-server`` on a free loopback port, keeping nothing on disk."""

    def __init__(self, log: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed")
        self.binary = binary
        self.log = log
        self.port = free_port()
        self.url = f"redis://{HOST}:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10) -> None:
        """Start it and return once it accepts connections."""
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    self.binary,
                    "--port",
                    str(self.port),
                    "--bind",
                    HOST,
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((HOST, self.port), timeout=1) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def kill(self) -> None:
        """Kill it at once (SIGKILL: no goodbye to its clients)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


class TcpProxy:
    """Forwards 127.0.0.1:<port> to ``target``, until ``cut``; ``restore`` opens it again."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self.listener: socket.socket | None = None
        self.connections: set[socket.socket] = set()
        self.lock = threading.Lock()

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((HOST, self.port))
        listener.listen(64)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """Close every connection and refuse new ones."""
        with self.lock:
            if self.listener is not None:
                self.listener.close()
                self.listener = None
            for connection in self.connections:
                _shut(connection)
            self.connections.clear()

    restore = start

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                if self.listener is not listener:  # cut meanwhile
                    _shut(client)
                    _shut(server)
                    return
                self.connections |= {client, server}
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            _shut(end)
        with self.lock:
            self.connections -= {source, sink}


def _shut(connection: socket.socket) -> None:
    with contextlib.suppress(OSError):
        connection.shutdown(socket.SHUT_RDWR)
    connection.close()


@contextmanager
def fresh_database(server: str, prefix: str) -> Iterator[str]:
    """A new, migrated PostgreSQL database on ``server`` (a URL), named ``<prefix>_<random>``;
    its URL. Dropped at the end, whatever happens.

    A copy (``CREATE DATABASE ... TEMPLATE``) of one this process migrated once for
    ``server`` (``_template``, dropped when the process exits): PostgreSQL copies it in a
    fraction of a second, where each migration from nothing takes seconds."""
    import psycopg

    name = f"{prefix}_{secrets.token_hex(4)}"
    template = _template(server)
    with psycopg.connect(server, dbname="postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    try:
        yield _on(server, name)
    finally:
        _drop(server, name)


def _on(server: str, name: str) -> str:
    """The URL of the database ``name`` on ``server``."""
    return urllib.parse.urlsplit(server)._replace(path=f"/{name}").geturl()


def _drop(server: str, name: str) -> None:
    import psycopg

    with psycopg.connect(server, dbname="postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


_templates: dict[str, str] = {}
"""The migrated database of each PostgreSQL server, made by this process's first
``fresh_database`` on it."""


def _template(server: str) -> str:
    import psycopg

    from tests.support.daphne import environment, migrate

    if server not in _templates:
        name = f"othello_migrated_{secrets.token_hex(4)}"
        with psycopg.connect(server, dbname="postgres", autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        atexit.register(_drop, server, name)
        migrate(environment({"DATABASE_URL": _on(server, name), "SECRET_KEY": "migrate"}))
        _templates[server] = name
    return _templates[server]


def django_on(url: str) -> None:
    """Django set up in this process on the database at ``url`` (a benchmark's own, as
    ``fresh_database`` makes), without Redis: the in-memory channel layer."""
    os.environ.update(
        {
            "DATABASE_URL": url,
            "SECRET_KEY": "bench",
            "DJANGO_SETTINGS_MODULE": "othello_site.settings",
        }
    )
    os.environ.pop("REDIS_URL", None)
    import django  # type: ignore[import-untyped]  # (this module is typed without Django's stubs)

    django.setup()


@dataclass(frozen=True)
class Process:
    """A running process: its id, its name (``comm``) and its command line."""

    pid: int
    name: str
    command: str


def carrying(variable: str, value: str) -> list[Process]:
    """The running processes (not this one; no zombies) started with ``variable=value`` in
    their environment, on Linux; [] where there is no /proc."""
    wanted = f"{variable}={value}".encode()
    found = []
    with contextlib.suppress(OSError):
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                # A zombie's environment reads empty: it runs no more.
                if wanted not in (entry / "environ").read_bytes().split(b"\0"):
                    continue
                name = (entry / "comm").read_text().strip()
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:  # gone meanwhile, or another user's
                continue
            found.append(Process(int(entry.name), name, command.strip()))
    return found


def until_none_carry(
    variable: str, value: str, timeout: float, *ignored: int | None
) -> list[Process]:
    """Wait up to ``timeout`` seconds until no process ``carrying(variable, value)`` is
    left but the ``ignored`` ones; those left then ([] once none is)."""
    deadline = time.monotonic() + timeout
    while True:
        left = [process for process in carrying(variable, value) if process.pid not in ignored]
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.1)
