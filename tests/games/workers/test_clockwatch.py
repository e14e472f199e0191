"""games.workers.clockwatch in real daphne processes: a game flags within a second of its deadline
with nobody connected, on the embedded default and on two processes (PostgreSQL and
Redis) with one of them killed, whose sockets then go offline; a game nobody moves in is
aborted within a second of its first move's deadline (FIRST_MOVE_SECONDS).

These use short real clocks (a few seconds): the watch runs in daphne's own loop.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Servers
from tests.support.clients import Browser, Follower
from tests.support.daphne import Daphne, embedded, running

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


def ended_at(browser: Browser, game_id: str, timeout: float) -> tuple[dict[str, Any], float]:
    """Poll state.json until the game is over (finished or aborted): G then, and when it
    was first seen over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = browser.state(game_id)
        if state["status"] in ("finished", "aborted"):
            return state, time.monotonic()
        time.sleep(0.05)
    raise AssertionError(f"{game_id} still {state['status']} after {timeout} s")


async def first_moves(black: Follower, white: Follower) -> float:
    """Each side's first move (free); when White's was seen stored (time.monotonic): the
    clocks run from about then."""
    for mover in (black, white):
        ply = await mover.play_first_legal()
        await black.at_ply(ply + 1)
        await white.at_ply(ply + 1)
    return time.monotonic()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Daphne]:
    """One daphne process on the embedded default."""
    daphne = embedded(tmp_path)
    with running([daphne]):
        yield daphne


async def test_an_abandoned_game_flags_with_nobody_connected(server: Daphne) -> None:
    game_id, black, white, _ = await asyncio.to_thread(seat, server.url, server.url, ABSOLUTE)
    ann, bob = await Follower.open(black, game_id), await Follower.open(white, game_id)
    try:
        running = await first_moves(ann, bob)
    finally:
        await ann.close()
        await bob.close()

    state, seen = await asyncio.to_thread(ended_at, black, game_id, ABSOLUTE["main_time"] + 10)

    assert (state["result"], state["last_move"]["action"]) == ("W+T", "timeout")
    assert state["clock"]["black"]["remaining_ms"] == 0
    assert seen - running < ABSOLUTE["main_time"] + LATE


FIRST_MOVE_SECONDS = 3


@pytest.fixture
def quick_first_moves(tmp_path: Path) -> Iterator[Daphne]:
    """One daphne process on the embedded default, a first move due within 3 s."""
    daphne = embedded(tmp_path, FIRST_MOVE_SECONDS=str(FIRST_MOVE_SECONDS))
    with running([daphne]):
        yield daphne


def test_a_game_nobody_moves_in_is_aborted_with_nobody_connected(
    quick_first_moves: Daphne,
) -> None:
    url = quick_first_moves.url
    game_id, black, _, active = seat(
        url, url, {"clock": "fischer", "main_time": 60, "increment": 0}
    )
    state = black.state(game_id)
    assert (state["status"], state["clock"]["running"]) == ("active", None)
    assert state["clock"]["first_move_by"] is not None

    state, seen = ended_at(black, game_id, timeout=FIRST_MOVE_SECONDS + 10)

    assert (state["status"], state["result"], state["ply"]) == ("aborted", None, 0)
    assert state["aborted"] == {"reason": "first_move", "color": "black"}
    assert state["clock"]["black"]["remaining_ms"] == 60_000  # nothing charged
    assert seen - active < FIRST_MOVE_SECONDS + LATE


@pytest.mark.services
async def test_a_killed_process_neither_stops_the_flag_nor_keeps_its_sockets_online(
    database_url: str, daphnes: Servers
) -> None:
    overrides = {"DATABASE_URL": database_url, "PROCESS_TIMEOUT": "2"}
    with daphnes(overrides) as servers:
        first, second = (server.url for server in servers)
        clock = {"clock": "absolute", "main_time": 4}
        game_id, black, white, _ = await asyncio.to_thread(seat, first, second, clock)
        ann = await Follower.open(black, game_id)  # on the first process
        bob = await Follower.open(white, game_id)  # on the second
        try:
            await bob.until(lambda bob: bob.game["online"] == {"black": True, "white": True})
            active = await first_moves(ann, bob)
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
