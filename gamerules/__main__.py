"""``python -m gamerules FORMAT``: see ``gamerules.cli``."""

from .cli import run

run()
