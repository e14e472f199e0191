"""``python -m games.rules FORMAT``: see ``games.rules.cli``."""

from .cli import run

run()
