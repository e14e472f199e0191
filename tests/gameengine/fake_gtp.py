"""A fake GTP engine for the tests: it misbehaves on request, and fast.

    python tests/gameengine/fake_gtp.py [--genmove ANSWER] [--slow-above LEVEL]
                                    [--crash-once MARKER] [--ignore-quit] [other arguments]

Every command is answered ``=`` with nothing, except:

- ``genmove ...``: ANSWER (default ``C3``); it sleeps a minute instead when the
  last ``level`` was above ``--slow-above``; it exits (code 3, a message on
  stderr) when the file MARKER does not exist yet, creating it first, so only
  the first engine of a test crashes.
- ``sleep``: sleeps a minute. ``exit``: exits at once (code 3, a message on stderr).
- ``echo WORDS``: WORDS. ``fail``: ``? fake failure``.
- ``multi``: two lines, ``one`` and ``two``. ``noise``: a line that is not GTP, then ``= ok``.
- ``quit``: answered, then the engine exits (keeps running with ``--ignore-quit``).

Unknown arguments (the GNU Go options the bridge adds) are ignored.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def crash() -> None:
    sys.stderr.write("fake engine crashed\n")
    sys.exit(3)


def answer(line: str, options: argparse.Namespace, state: dict[str, int]) -> str:
    """The whole answer to one command line, closing empty line included."""
    name, _, rest = line.strip().partition(" ")
    if name == "level":
        state["level"] = int(rest)
    elif name == "genmove":
        if options.crash_once and not Path(options.crash_once).exists():
            Path(options.crash_once).touch()
            crash()
        if options.slow_above is not None and state["level"] > options.slow_above:
            time.sleep(60)
        return f"= {options.genmove}\n\n"
    elif name == "sleep":
        time.sleep(60)
    elif name == "exit":
        crash()
    elif name == "echo":
        return f"= {rest}\n\n"
    elif name == "fail":
        return "? fake failure\n\n"
    elif name == "multi":
        return "= one\ntwo\n\n"
    elif name == "noise":
        return "not an answer\n= ok\n\n"
    return "= \n\n"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--genmove", default="C3")
    parser.add_argument("--slow-above", type=int)
    parser.add_argument("--crash-once")
    parser.add_argument("--ignore-quit", action="store_true")
    options, _ = parser.parse_known_args()
    state = {"level": 10}
    for line in sys.stdin:
        sys.stdout.write(answer(line, options, state))
        sys.stdout.flush()
        if line.strip() == "quit" and not options.ignore_quit:
            return


if __name__ == "__main__":
    main()
