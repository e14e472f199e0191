"""The command-line formats of the seeds: ``python -m gamerules FORMAT``.

Each format reads standard input and writes standard output exactly as its
seed asks. Malformed input ends the run with one line on standard error that
names the line, and exit status 2; no traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from .base import InputFormatError
from .go_formats import go_score
from .othello_formats import othello_commands, othello_play, othello_replay

Format = Callable[[TextIO, TextIO], None]

FORMATS: dict[str, Format] = {
    "othello-replay": othello_replay,
    "othello-commands": othello_commands,
    "othello-play": othello_play,
    "go-score": go_score,
}


def main(argv: list[str], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Run the format named by ``argv[0]``; returns the exit status."""
    if len(argv) != 1 or argv[0] not in FORMATS:
        stderr.write(f"usage: python -m gamerules {{{','.join(FORMATS)}}}\n")
        return 2
    try:
        FORMATS[argv[0]](stdin, stdout)
    except InputFormatError as error:
        stdout.flush()
        stderr.write(f"error: {error}\n")
        return 2
    return 0


def run() -> None:
    """Entry point of ``python -m gamerules``."""
    sys.exit(main(sys.argv[1:], sys.stdin, sys.stdout, sys.stderr))
