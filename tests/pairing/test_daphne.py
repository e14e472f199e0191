"""Two real daphne processes on PostgreSQL and Redis pair seekers on both of them: every
seeker paired exactly once, into a game where its browser holds a seat."""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from collections.abc import Iterator

import psycopg
import pytest

from pairing.pools import POOLS
from tests.conftest import Servers
from tests.support.clients import Browser, open_lobby

SEEKERS = 24
BLITZ = POOLS[1].seek(rated=False)  # Othello 8x8, 3+2 Fischer


@pytest.fixture
def two_servers(database_url: str, daphnes: Servers) -> Iterator[tuple[str, str]]:
    # A Redis database of its own (11), which no other test here flushes.
    redis_url = os.environ["REDIS_URL"].rsplit("/", 1)[0] + "/11"
    with daphnes({"DATABASE_URL": database_url, "REDIS_URL": redis_url}) as servers:
        yield servers[0].url, servers[1].url


async def seek_until_paired(browser: Browser) -> str:
    """Open the lobby on the browser's server, seek, and wait for `paired`: the game id."""
    socket = await open_lobby(browser)
    try:
        assert (await socket.receive())["type"] == "lobby"
        await socket.send(BLITZ)
        assert (await socket.receive_until("seeking"))["seek"]["pool"] == (
            "othello8-fischer-180+2-casual"
        )
        game_id: str = (await socket.receive_until("paired"))["game_id"]
        return game_id
    finally:
        await socket.close()


def seeks_stored(database_url: str) -> bool:
    with psycopg.connect(database_url) as connection:
        return connection.execute("SELECT count(*) FROM pairing_seek").fetchone() == (1,)


@pytest.mark.services
async def test_seekers_on_two_processes_are_each_paired_once(
    two_servers: tuple[str, str], database_url: str
) -> None:
    # First one seeker on each process, the second once the first seeks: the two can only
    # play each other, whichever process runs the wave, and each process's socket hears it.
    pair = [Browser(server) for server in two_servers]
    await asyncio.gather(*(asyncio.to_thread(browser.get, "/") for browser in pair))
    first = asyncio.create_task(seek_until_paired(pair[0]))
    while not await asyncio.to_thread(seeks_stored, database_url):
        await asyncio.sleep(0.05)
    crossed_game = await seek_until_paired(pair[1])
    assert await first == crossed_game

    # Then many at once, half on each process.
    browsers = [Browser(two_servers[number % 2]) for number in range(SEEKERS)]
    await asyncio.gather(*(asyncio.to_thread(browser.get, "/") for browser in browsers))
    game_ids = await asyncio.gather(*(seek_until_paired(browser) for browser in browsers))

    # Two seekers a game, and the games the database holds are exactly these.
    assert set(Counter(game_ids).values()) == {2}
    with psycopg.connect(database_url) as connection:
        stored = connection.execute("SELECT public_id, status FROM games_game").fetchall()
        assert connection.execute("SELECT count(*) FROM pairing_seek").fetchone() == (0,)
    assert sorted(stored) == sorted((game_id, "active") for game_id in {*game_ids, crossed_game})
    # Each browser holds a seat of its game, whichever process it asks.
    seats = await asyncio.gather(
        *(
            asyncio.to_thread(browser.on(two_servers[0]).state, game_id)
            for browser, game_id in zip(browsers, game_ids, strict=True)
        )
    )
    assert all(state["you"] in ("black", "white") for state in seats)
    for browser in pair:
        state = await asyncio.to_thread(browser.on(two_servers[0]).state, crossed_game)
        assert state["you"] in ("black", "white")
