"""Debian's nginx as a process of a test's own, serving the proxy recipe of
docs/operations.md in front of real daphne processes.

The recipe is the one ```nginx block of docs/operations.md, what an operator puts in
``/etc/nginx/sites-available/``, and it is a template: ``render`` changes its three
site-specific parts (the ``upstream``'s ``server`` lines, ``listen`` and
``server_name``), each of which must be there exactly as the page writes it, and nothing
else. ``Nginx`` runs it inside a main configuration of its own, with the pid file, the
logs and the temporary files in the test's directory: ``nginx -p <dir> -c nginx.conf -g
'daemon off;'``, in the foreground, never the system's service. One process
(``master_process off``): no workers, which under root would run as ``nobody`` and could
not reach the test's directory, and nothing left behind when it is stopped.

Standard library only, like tests/support/daphne.py.
"""

from __future__ import annotations

import re
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from tests.support.daphne import HOST, ROOT, free_port, terminate

NGINX = Path("/usr/sbin/nginx")
OPERATIONS = ROOT / "docs" / "operations.md"
EXAMPLE_HOST = "games.example.org"

MAIN = """\
master_process off;
pid nginx.pid;
error_log error.log notice;
events {{
    worker_connections 1024;
}}
http {{
    access_log access.log;
    client_body_temp_path temp/body;
    proxy_temp_path temp/proxy;
    fastcgi_temp_path temp/fastcgi;
    uwsgi_temp_path temp/uwsgi;
    scgi_temp_path temp/scgi;
    include {site};
}}
"""


class NginxError(RuntimeError):
    """nginx refused its configuration, exited, or did not listen in time; the message
    ends with its log."""


def recipe() -> str:
    """The proxy recipe: the one ```nginx block of docs/operations.md."""
    blocks = re.findall(r"^```nginx\n(.*?)^```$", OPERATIONS.read_text(), re.M | re.S)
    if len(blocks) != 1:
        raise ValueError(f"{OPERATIONS} holds {len(blocks)} nginx blocks, not one")
    return str(blocks[0])


def _once(pattern: str, replacement: str, text: str) -> str:
    result, count = re.subn(pattern, replacement, text, flags=re.M)
    if count != 1:
        raise ValueError(f"the recipe has {count} lines matching {pattern!r}, not one")
    return result


def render(template: str, *, port: int, host: str, upstreams: Sequence[int]) -> str:
    """The recipe serving ``host`` on 127.0.0.1:``port``, in front of the daphne
    processes listening on the loopback's ``upstreams`` ports."""
    servers = re.findall(r"^[ \t]*server 127\.0\.0\.1:\d+;\n", template, re.M)
    if not servers:
        raise ValueError("the recipe's upstream has no server 127.0.0.1:<port> line")
    indent = servers[0][: len(servers[0]) - len(servers[0].lstrip())]
    ours = "".join(f"{indent}server {HOST}:{upstream};\n" for upstream in upstreams)
    text = template.replace("".join(servers), ours, 1)
    if ours not in text:
        raise ValueError("the recipe's upstream server lines are not together")
    text = _once(r"^([ \t]*)listen 80;$", rf"\g<1>listen {HOST}:{port};", text)
    return _once(
        rf"^([ \t]*)server_name {re.escape(EXAMPLE_HOST)};$", rf"\g<1>server_name {host};", text
    )


class Nginx:
    """nginx on 127.0.0.1:<port> serving the recipe rendered for ``upstreams`` (ports of
    daphne processes on the loopback) and ``host``; its files in ``work``. As a context
    manager it starts on entry and stops on exit."""

    def __init__(
        self,
        work: Path,
        upstreams: Sequence[int],
        *,
        host: str = HOST,
        binary: Path = NGINX,
        start_timeout: float = 10,
        stop_timeout: float = 10,
    ) -> None:
        self.work = work
        self.binary = binary
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.site = render(recipe(), port=self.port, host=host, upstreams=upstreams)
        self.log = work / "nginx.out"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Write the configuration, start nginx and return once it listens (else raise
        NginxError with its log)."""
        for directory in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.work / "temp" / directory).mkdir(parents=True, exist_ok=True)
        (self.work / "site.conf").write_text(self.site)
        (self.work / "nginx.conf").write_text(MAIN.format(site="site.conf"))
        command = [str(self.binary), "-p", f"{self.work}/", "-c", "nginx.conf"]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [*command, "-g", "daemon off;"], stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                socket.create_connection((HOST, self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        code = self.process.poll()
        self.stop()
        why = f"exited with {code}" if code is not None else "did not listen in time"
        raise NginxError(f"nginx on port {self.port} {why}:\n{self.logs()}")

    def logs(self) -> str:
        """Its output and error log."""
        error_log = self.work / "error.log"
        texts = [path.read_text() for path in (self.log, error_log) if path.exists()]
        return "\n".join(texts)

    def stop(self) -> None:
        """Stop it (SIGTERM, nginx's fast shutdown); kill it if it has not exited within
        ``stop_timeout``."""
        if self.process is not None:
            terminate(self.process, self.stop_timeout)
            self.process = None

    def __enter__(self) -> Nginx:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
