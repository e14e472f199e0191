"""``python -m games.rules FORMAT``: the old name of ``python -m gamerules FORMAT``."""

from gamerules.cli import run

run()
