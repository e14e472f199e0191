"""Where the server's CPU went, from py-spy's samples (a benchmark's helper, not a test).

    .venv/bin/pip install py-spy
    .venv/bin/python bench/speed.py --only embedded --no-extras --profile /tmp/prof
    .venv/bin/python bench/profile.py /tmp/prof/round-50x40-*.txt

Reads py-spy's collapsed stacks (``--format raw``: one line a stack, its frames from the
root down separated by ``;``, then its number of samples) and puts each sample in the
first of ``PARTS`` that one of its frames matches: what a move's CPU is spent on, as
shares of the samples (py-spy samples only threads that are running, not waiting).
"""

from __future__ import annotations

import argparse
import collections
from pathlib import Path

PARTS: list[tuple[str, tuple[str, ...]]] = [
    (
        "notifications (the rows, the seen marks, the outbox)",
        (
            "games/services/tell.py",
            "notifications/services.py",
            "notifications/outbox.py",
            "notifications/loop.py",
        ),
    ),
    ("G's assembly (live.state, games.selectors)", ("live/state.py", "_public_state")),
    ("JSON encoding and decoding", ("json/encoder.py", "json/decoder.py", "json/__init__.py")),
    ("queries (Django's ORM, the driver, transactions)", ("django/db/",)),
    ("the rules and the clock", ("gamerules/",)),
    ("the move's service, its own code", ("games/services/",)),
    ("the channel layer", ("channels/layers.py", "channels_redis/")),
    ("the consumers, routing, middleware", ("channels/", "live/", "othello_site/")),
    ("daphne, Twisted, autobahn (HTTP and websocket frames)", ("twisted/", "autobahn/", "daphne/")),
    ("asyncio and asgiref (the event loop, the thread hop)", ("asyncio/", "asgiref/")),
]
OTHER = "anything else (Django's settings, logging, ...)"


IDLE = (
    "_worker (concurrent/futures/thread.py",
    "Condition.wait (threading.py",
    "EpollSelector.select (selectors.py",
)
"""The leaves of a thread waiting (a pool's worker for work, a condition, the event loop
for its sockets): py-spy may count them as running (they wait in C), so they are left
out."""


def part_of(stack: str) -> str | None:
    """The part of ``stack`` (None: an idle worker's wait, not CPU)."""
    if stack.rpartition(";")[2].startswith(IDLE):
        return None
    for name, marks in PARTS:
        if any(mark in stack for mark in marks):
            return name
    return OTHER


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument(
        "--cpu-per-move", type=float, help="ms: also give each part in ms of a move"
    )
    args = parser.parse_args()
    samples: collections.Counter[str] = collections.Counter()
    for path in args.files:
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            part = part_of(stack) if stack and count.isdigit() else None
            if part is not None:
                samples[part] += int(count)
    total = sum(samples.values())
    print(f"{total:,} samples")
    for name, count in samples.most_common():
        share = count / total
        ms = f"  {share * args.cpu_per_move:5.2f} ms" if args.cpu_per_move else ""
        print(f"  {100 * share:5.1f}%{ms}  {name}")


if __name__ == "__main__":
    main()
