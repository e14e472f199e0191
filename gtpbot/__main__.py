"""``python -m gtpbot --url URL --token T [--kinds ...] -- ENGINE ARGS...``"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os

from gtpbot.bridge import Bridge, Config


def _words(text: str) -> list[str]:
    return [word.strip() for word in text.split(",") if word.strip()]


def parse(argv: list[str] | None = None) -> Config:
    """The bridge's configuration from its command line."""
    parser = argparse.ArgumentParser(
        prog="python -m gtpbot",
        description="Run a GTP engine as a bot of an Othello and Go server.",
    )
    parser.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument(
        "--token", default=os.environ.get("BOT_TOKEN"), help="the bot's token (or BOT_TOKEN)"
    )
    parser.add_argument("--kinds", default="othello,go", help="games played: othello,go")
    parser.add_argument("--sizes", default="", help="board sizes played, e.g. 8,9,19 (any)")
    parser.add_argument(
        "--clocks", default="", help="clock systems played, e.g. none,fischer,byoyomi (any)"
    )
    parser.add_argument(
        "--othello-rows",
        choices=("top", "bottom"),
        default="top",
        help="where an Othello engine's row 1 is (Othello's notation: top)",
    )
    parser.add_argument("engine", nargs="+", help="the engine's command, after --")
    options = parser.parse_args(argv)
    if not options.token:
        parser.error("--token (or BOT_TOKEN) is required")
    sizes = [int(size) for size in _words(options.sizes)]
    return Config(
        url=options.url,
        token=options.token,
        engine=options.engine,
        kinds=_words(options.kinds),
        sizes=sizes,
        clocks=_words(options.clocks),
        othello_top_row_one=options.othello_rows == "top",
    )


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    config = parse()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(Bridge(config).run())


if __name__ == "__main__":
    main()
