"""games.clockwatch in real daphne processes: a game flags within a second of its deadline
with nobody connected, on the embedded default and on two processes (PostgreSQL and
Redis) with one of them killed, whose sockets then go offline.

These use short real clocks (a few seconds): the watch runs in daphne's own loop.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.clients import Browser, Follower
from tests.daphne import Daphne, embedded, running
from tests.server.conftest import Servers

# The contract: a game ends within 1 s of its deadline.
LATE = 1.0
ABSOLUTE = {"clock": "absolute", "main_time": 2}


def seat(first: str, second: str, clock: dict[str, Any]) -> tuple[str, Browser, Browser, float]:
    """An 8x8 Othello game with ``clock``, created on ``first`` and joined on ``second``:
    its id, both browsers, and when it became active (time.monotonic)."""
    black, white = Browser(first), Browser(second)
    game_id = black.create(kind="othello", size=8, color="black", name="Ann", **clock)
    white.get(f"/games/{game_id}/")
    white.post(f"/games/{game_id}/join/", {"name": "Bob"})
    return game_id, black, white, time.monotonic()


def finished_at(browser: Browser, game_id: str, timeout: float) -> tuple[dict[str, Any], float]:
    """Poll state.json until the game is over: G then, and when it was first seen over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = browser.state(game_id)
        if state["status"] == "finished":
            return state, time.monotonic()
        time.sleep(0.05)
    raise AssertionError(f"{game_id} still {state['status']} after {timeout} s")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Daphne]:
    """One daphne process on the embedded default."""
    daphne = embedded(tmp_path)
    with running([daphne]):
        yield daphne


def test_an_abandoned_game_flags_with_nobody_connected(server: Daphne) -> None:
    game_id, black, _, active = seat(server.url, server.url, ABSOLUTE)

    state, seen = finished_at(black, game_id, timeout=ABSOLUTE["main_time"] + 10)

    assert (state["result"], state["last_move"]["action"]) == ("W+T", "timeout")
    assert state["clock"]["black"]["remaining_ms"] == 0
    assert seen - active < ABSOLUTE["main_time"] + LATE


@pytest.mark.services
async def test_a_killed_process_neither_stops_the_flag_nor_keeps_its_sockets_online(
    database_url: str, daphnes: Servers
) -> None:
    overrides = {"DATABASE_URL": database_url, "PROCESS_TIMEOUT": "2"}
    with daphnes(overrides) as servers:
        first, second = (server.url for server in servers)
        clock = {"clock": "absolute", "main_time": 4}
        game_id, black, white, active = await asyncio.to_thread(seat, first, second, clock)
        ann = await Follower.open(black, game_id)  # on the first process
        bob = await Follower.open(white, game_id)  # on the second
        try:
            await bob.until(lambda bob: bob.game["online"] == {"black": True, "white": True})
            servers[0].kill()

            # The second process forgets the killed one's socket: Black is offline.
            await bob.until(lambda bob: not bob.game["online"]["black"], timeout=10)
            # ... and its watch flags Black, whose clock ran.
            await bob.until(lambda bob: bob.game["status"] == "finished", timeout=10)
            assert time.monotonic() - active < clock["main_time"] + LATE
            assert (bob.game["result"], bob.game["last_move"]["action"]) == ("W+T", "timeout")
            assert bob.closed is None
        finally:
            await ann.close()
            await bob.close()
