"""The old name of ``gamerules``, kept only so that ``python -m games.rules`` still runs
the rules' command line: import ``gamerules``."""
