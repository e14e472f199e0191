"""Engine processes die with the process that started them, however it dies.

The server thinks in worker processes (``games.workers.engines``), and a worker may start GNU
Go. A daphne stopped with SIGTERM takes its workers with it, but one killed with SIGKILL
(or by the kernel's OOM killer) cannot: its workers would wait for work forever, each
holding its memory (and the resource tracker that multiprocessing started for the pool
would wait with them, for them), and a GNU Go thinking for one of them would go on
thinking. So:

- a worker watches its parent (``watch_parent``, the pool's initializer): a thread asks
  ``os.getppid()`` every ``WATCH_INTERVAL`` seconds and ends the worker the moment its
  parent has changed (a dead process's children pass to init or to a subreaper);
  then the tracker, whose pipe nobody holds any more, ends by itself;
- an engine process started through ``GtpEngine`` asks Linux, between fork and exec,
  to kill it when its parent dies (``prctl(PR_SET_PDEATHSIG, SIGKILL)``,
  ``die_with_parent``). Elsewhere an engine ends at the end of its current command,
  when it reads the end of its input.

Why not PR_SET_PDEATHSIG for the workers too: the signal follows the *thread* that
started the child, and a pool may start a worker from a thread that ends long before the
server does, which would kill a healthy worker. An engine is started by the worker's own
main thread, which lives as long as the worker. Pure: no Django.
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
import ctypes.util
import functools
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO

__all__ = [
    "ORPHANED",
    "STDERR_LINES",
    "WATCH_INTERVAL",
    "Piped",
    "die_with_parent",
    "engine_worker",
    "piped",
    "until_orphaned",
    "watch_parent",
]

WATCH_INTERVAL = 0.2
"""Seconds between two looks of a worker at its parent."""

ORPHANED = 70
"""A worker's exit code when it ended because its parent had died."""

_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def until_orphaned(
    parent: int,
    *,
    interval: float = WATCH_INTERVAL,
    getppid: Callable[[], int] = os.getppid,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Return once this process's parent is no longer ``parent`` (looking every
    ``interval`` seconds): the process that started it has died."""
    while getppid() == parent:
        sleep(interval)


def watch_parent(parent: int, interval: float = WATCH_INTERVAL) -> None:
    """End this process (exit code ``ORPHANED``, at once, no clean-up) as soon as its
    parent is no longer ``parent``, the pid of the process that started it: now if it
    died already, else from a daemon thread that keeps looking. The initializer of the
    server's engine processes (``initializer=watch_parent, initargs=(os.getpid(),)``)."""
    if os.getppid() != parent:
        os._exit(ORPHANED)

    def watch() -> None:
        until_orphaned(parent, interval=interval)
        os._exit(ORPHANED)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def engine_worker(parent: int, niceness: int = 0) -> None:
    """The initializer of the server's engine processes (``initializer=engine_worker,
    initargs=(os.getpid(), niceness)``): this process (and the engines it starts, GNU Go)
    runs ``niceness`` steps below its parent's priority, so that the web process that
    started it gets the CPU first when both want it; and it ends with its parent
    (``watch_parent``).

    Where Linux shares the CPU between sessions first (autogroup, on by default: a nice
    value then weighs only against the processes of the same session, and a busy session
    has no more share than an idle one that wakes), a niced worker also leaves the
    server's session for one of its own: the engines' thinking then takes nothing from
    the server's session, whose requests get the CPU as soon as they want it
    (``bench/explore.py`` on a machine shared with other work: a static file's median
    under six explores went from 1.2x to 3.7x its quiet time to 1.0x to 1.3x)."""
    if niceness:
        os.nice(niceness)
        with contextlib.suppress(OSError):  # a session leader already: nice alone
            os.setsid()
    watch_parent(parent)


STDERR_LINES = 20
"""How many of an engine's last lines of error output ``Piped`` keeps (for the message
that says why it died)."""


@dataclass
class Piped:
    """An engine process started by ``piped``: its three pipes, the last lines of its
    error output (read by a thread of its own) and its two reader threads."""

    process: subprocess.Popen[str]
    stderr: collections.deque[str]
    readers: list[threading.Thread]


def piped(command: Sequence[str], *, encoding: str, read: Callable[[IO[str]], None]) -> Piped:
    """``command`` started with its stdin, stdout and stderr piped, dying with the thread
    that starts it (``die_with_parent``); a thread runs ``read`` over its output, another
    keeps its last ``STDERR_LINES`` lines of error output. Reader threads turn the
    blocking pipes into something a caller can wait on with a timeout (``read`` fills a
    queue). Raises ``OSError`` when the program cannot be started."""
    process = subprocess.Popen(
        list(command),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        encoding=encoding,
        errors="replace",
        # Dies with the thread that started it (Linux), even in a process killed with
        # SIGKILL: start an engine from a thread that lives as long as it should.
        preexec_fn=die_with_parent(),
    )
    assert process.stdout is not None and process.stderr is not None
    stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)

    def keep_errors(stream: IO[str]) -> None:
        for line in stream:
            stderr.append(line.rstrip())

    readers = [
        threading.Thread(target=read, args=(process.stdout,), daemon=True),
        threading.Thread(target=keep_errors, args=(process.stderr,), daemon=True),
    ]
    for reader in readers:
        reader.start()
    return Piped(process, stderr, readers)


def die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` for ``subprocess.Popen`` that makes the child die (SIGKILL) with
    the thread that starts it (with its process, when that is the main thread or one
    that lives as long); None where Linux's ``prctl`` is not there."""
    prctl = _prctl()
    if prctl is None:
        return None
    parent = os.getpid()

    def in_child() -> None:
        # Runs in the child between fork and exec: nothing but two system calls.
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before the line above
            os._exit(ORPHANED)

    return in_child


@functools.cache
def _prctl() -> Callable[..., int] | None:
    """Linux's ``prctl`` from the C library, None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl: Callable[..., int] = ctypes.CDLL(ctypes.util.find_library("c")).prctl
    except (OSError, AttributeError):
        return None
    return prctl
