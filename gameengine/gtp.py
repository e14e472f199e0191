"""A small synchronous client for the Go Text Protocol (GTP 2) over a process's pipes.

GTP is a line protocol: the controller writes one command a line; the engine
answers ``= text`` (success) or ``? message`` (failure), the text possibly on
several lines, and ends every answer with an empty line.

>>> with GtpEngine(["/usr/games/gnugo", "--mode", "gtp"]) as engine:  # doctest: +SKIP
...     engine.send("boardsize 9")
...     engine.send("genmove black", timeout=5)
''
'E5'

The model is python-chess's ``chess/engine.py``, made synchronous because the
server asks from worker threads: one command in flight at a time (a lock
serialises callers), every call with a timeout, clean shutdown, and on Linux the
engine dies with the thread that started it, even in a process killed with SIGKILL
(``lifeline.die_with_parent``). An engine that does not answer in time is
killed (``EngineTimeout``); one that exits is reported (``EngineDied``), and so
is every later call: the owner starts a new ``GtpEngine``. Pure: no Django.
"""

from __future__ import annotations

import contextlib
import queue
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Self

from .lifeline import piped

__all__ = [
    "EngineDied",
    "EngineError",
    "EngineTimeout",
    "GtpEngine",
    "GtpError",
    "RestartingEngine",
]

DEFAULT_TIMEOUT = 10.0
"""Seconds a command may take when its caller names no timeout."""


class GtpError(Exception):
    """The engine answered ``? message``: it refused the command but is still usable."""

    def __init__(self, command: str, message: str) -> None:
        super().__init__(f"{command!r} failed: {message}")
        self.command = command
        self.message = message


class EngineError(Exception):
    """The engine process failed: it will answer nothing more."""


class EngineDied(EngineError):
    """The engine process exited, or had already been stopped."""


class EngineTimeout(EngineError):
    """The engine did not answer within the timeout, so it was killed."""


class Closing:
    """A context manager whose exit is ``close()``: an engine, stopped however the block
    ends."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class GtpEngine(Closing):
    """One engine process spoken to over GTP; a context manager that shuts it down.

    ``command`` starts the engine (program and arguments); ``timeout`` is the
    default number of seconds a command may take. Raises ``OSError`` when the
    program cannot be started (missing, not executable).
    """

    def __init__(self, command: Sequence[str], *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.name = Path(command[0]).name
        self.timeout = timeout
        self._lock = threading.Lock()
        self._stopped = False
        self._lines: queue.Queue[str | None] = queue.Queue()
        started = piped(command, encoding="ascii", read=self._read_stdout)
        self._process = started.process
        self._stderr = started.stderr
        self._readers = started.readers

    @property
    def pid(self) -> int:
        """The engine process's id."""
        return self._process.pid

    @property
    def returncode(self) -> int | None:
        """The process's exit code once it has ended (negative: killed by that signal),
        None while it runs."""
        return self._process.poll()

    @property
    def alive(self) -> bool:
        """True while the engine runs and has not failed: it can take commands."""
        return not self._stopped and self._process.poll() is None

    def send(self, command: str, *, timeout: float | None = None) -> str:
        """Sends one command and returns the engine's answer, without the ``=``.

        A multi-line answer comes back as its lines joined by ``\\n``. Waits at
        most ``timeout`` seconds (the engine's default when None). Raises
        ``GtpError`` when the engine answers ``?``, ``EngineTimeout`` when it
        does not answer in time (it is killed), ``EngineDied`` when it has
        exited, and ``ValueError`` for a command that is empty or not one line.
        """
        if not command.strip() or "\n" in command or "\r" in command:
            raise ValueError(f"a GTP command is one non-empty line, not {command!r}")
        with self._lock:
            return self._exchange(command, self.timeout if timeout is None else timeout)

    def close(self, *, timeout: float = 2.0) -> None:
        """Asks the engine to ``quit``, kills it if it has not exited after
        ``timeout`` seconds, and releases its pipes. Safe to call twice."""
        with self._lock:
            # Whether quit is answered or not, the process is stopped below.
            if self.alive:
                with contextlib.suppress(GtpError, EngineError):
                    self._exchange("quit", timeout)
            self._stop(wait=timeout)
            for reader in self._readers:
                reader.join(timeout)
            for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
                # A pipe to a dead process may fail to flush: there is nobody to read it.
                with contextlib.suppress(OSError):
                    if stream is not None:
                        stream.close()

    def __repr__(self) -> str:
        state = "running" if self.alive else "stopped"
        return f"<GtpEngine {self.name} pid={self.pid} {state}>"

    def _exchange(self, command: str, timeout: float) -> str:
        if not self.alive:
            raise self._died(command)
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(command + "\n")
            stdin.flush()
        except OSError:
            raise self._died(command) from None
        return self._answer(command, time.monotonic() + timeout, timeout)

    def _answer(self, command: str, deadline: float, timeout: float) -> str:
        """The answer to ``command``, read line by line until its closing empty line."""
        status, first = "", ""
        body: list[str] = []
        while True:
            line = self._next_line(command, deadline, timeout)
            if not status:
                # Anything before the answer's status character is not GTP: skip it.
                # No command carries an id, so no answer does either.
                if line[:1] in ("=", "?"):
                    status, first = line[0], line[1:].strip()
                continue
            if not line.strip():
                break
            body.append(line)
        text = "\n".join([first, *body] if first else body)
        if status == "?":
            raise GtpError(command, text)
        return text

    def _next_line(self, command: str, deadline: float, timeout: float) -> str:
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self._stop(wait=0)
            raise EngineTimeout(
                f"{self.name} did not answer {command!r} within {timeout:g} s; it was killed"
            ) from None
        if line is None:
            raise self._died(command)
        return line

    def _died(self, command: str) -> EngineDied:
        self._stop(wait=1.0)
        self._readers[1].join(0.5)  # so that the engine's last words are in the message
        code = self._process.returncode
        stderr = " | ".join(self._stderr)
        return EngineDied(
            f"{self.name} is not running (exit code {code}), so it cannot answer {command!r}"
            + (f"; its last error output: {stderr}" if stderr else "")
        )

    def _stop(self, *, wait: float) -> None:
        """Marks the engine failed or closed, giving it ``wait`` seconds to exit before
        killing it, and reaps the process."""
        self._stopped = True
        try:
            self._process.wait(wait)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()

    def _read_stdout(self, stream: IO[str]) -> None:
        for line in stream:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)


class RestartingEngine(Closing):
    """A ``GtpEngine`` started at the first use and again after it died or was killed;
    a context manager. What holds one engine for many requests (GNU Go as the
    computer, the Go review) builds on it: ``_ready()`` is the running engine."""

    def __init__(self, command: Sequence[str], *, timeout: float) -> None:
        self.command = list(command)
        self.timeout = timeout
        self._engine: GtpEngine | None = None

    @property
    def pid(self) -> int | None:
        """The id of the running engine process (for logs), None when none runs."""
        engine = self._engine
        return engine.pid if engine is not None and engine.alive else None

    def close(self) -> None:
        """Stops the engine process, if one runs; the next use starts another."""
        self._stop()

    def _ready(self) -> GtpEngine:
        """The running engine, started anew if there is none or it has failed."""
        if self._engine is None or not self._engine.alive:
            self._stop()
            self._engine = GtpEngine(self.command, timeout=self.timeout)
        return self._engine

    def _stop(self) -> None:
        # Not close(): a subclass may lock there, and _ready runs under its lock.
        if self._engine is not None:
            self._engine.close()
            self._engine = None
