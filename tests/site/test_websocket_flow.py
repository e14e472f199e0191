"""othello_site.websocket_flow in a real daphne process: the message limit, the close of a
flooding socket, bounded memory, and RATE_LIMITS=off.

The limit lives where daphne reads the frames, so these tests need daphne itself
(channels' WebsocketCommunicator bypasses it): one process on the embedded default (a
SQLite file of its own, the in-memory channel layer), as the README's serve command runs.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import suppress
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

from games.limits import CLOSE_FLOODING, SOCKET_MESSAGES
from tests.support.clients import Browser, Follower, Socket, flood_process, open_socket, seat_two
from tests.support.daphne import Daphne, embedded

# Bounds the waits of a broken test; no assertion depends on it.
TIMEOUT = 20
# Between two moves of the game played during a flood: as a person plays, well under the
# message limit (a bot answering at once would be limited too).
PACE = 0.1


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Daphne]:
    with embedded(tmp_path) as daphne:
        yield daphne


@pytest.fixture
def unlimited(tmp_path: Path) -> Iterator[Daphne]:
    with embedded(tmp_path, RATE_LIMITS="off") as daphne:
        yield daphne


def rss_kb(server: Daphne) -> int:
    assert server.process is not None
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS"))


async def send_syncs(socket: Socket) -> None:
    """`sync` as fast as the socket takes it, until it closes."""
    while True:
        for _ in range(100):
            await socket.send({"type": "sync"})
        # websockets' send does not yield while its buffer has room: let its reader (and
        # the other flooding sockets) run.
        await asyncio.sleep(0)


async def test_beyond_20_messages_a_second_messages_are_dropped_and_answered_rate_limited(
    server: Daphne,
) -> None:
    game_id = await asyncio.to_thread(Browser(server.url).create, kind="go", size=9, name="Ann")
    spectator = await open_socket(server.url, game_id)
    try:
        assert [(await spectator.receive())["type"] for _ in range(2)] == ["state", "chat_history"]
        for _ in range(SOCKET_MESSAGES + 5):
            await spectator.send({"type": "sync"})
        answers = []
        with suppress(TimeoutError):
            while True:
                message = await spectator.receive(timeout=1.5)
                answers.append(message.get("code") or message["type"])
        # The 5 beyond the limit were dropped, each answered rate_limited, never served.
        assert sorted(answers) == ["rate_limited"] * 5 + ["state"] * SOCKET_MESSAGES

        # Once the rate has fallen, the same socket is served again.
        await spectator.send({"type": "sync"})
        assert (await spectator.receive())["type"] == "state"
    finally:
        await spectator.close()


async def test_a_socket_that_keeps_flooding_is_closed_with_4429(server: Daphne) -> None:
    game_id = await asyncio.to_thread(Browser(server.url).create, kind="go", size=9, name="Ann")
    # max_queue=None: the client keeps reading what it is sent (the close frame included)
    # however much it leaves unread.
    socket = await open_socket(server.url, game_id, max_queue=None)
    with pytest.raises(ConnectionClosed) as closed:
        async with asyncio.timeout(TIMEOUT):
            await send_syncs(socket)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == CLOSE_FLOODING


async def test_a_flood_from_several_sockets_neither_grows_memory_nor_stops_a_game(
    server: Daphne,
) -> None:
    game_id, black, white = await asyncio.to_thread(seat_two, server.url, server.url)
    players = [await Follower.open(browser, game_id) for browser in (black, white)]
    try:
        before = rss_kb(server)
        # The flood comes from a process of its own, like a visitor's.
        pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        flooding = asyncio.get_running_loop().run_in_executor(
            pool, flood_process, server.url, game_id, 4, 4.0
        )
        # The players go on: every move reaches both while the flood lasts.
        moves = 0
        while not flooding.done():
            game = players[0].game
            if game["status"] != "active":
                await asyncio.sleep(0.1)
                continue
            mover = next(p for p in players if p.game["you"] == game["to_move"])
            ply = await mover.play_first_legal()
            await asyncio.gather(*(p.at_ply(ply + 1, TIMEOUT) for p in players))
            moves += 1
            await asyncio.sleep(PACE)
        flood = await flooding
        pool.shutdown()
        grown_mb = (rss_kb(server) - before) / 1024
    finally:
        for player in players:
            await player.close()
    assert moves >= 4
    assert flood["closes"]["4429"] >= 4  # each flooding socket was closed at least once
    assert grown_mb < 32, f"the process grew by {grown_mb:.0f} MB"
    assert all(p.errors == [] for p in players)


async def test_with_rate_limits_off_every_message_is_answered(unlimited: Daphne) -> None:
    game_id = await asyncio.to_thread(Browser(unlimited.url).create, kind="go", size=9, name="A")
    spectator = await open_socket(unlimited.url, game_id)
    try:
        assert [(await spectator.receive())["type"] for _ in range(2)] == ["state", "chat_history"]
        for _ in range(3 * SOCKET_MESSAGES):
            await spectator.send({"type": "sync"})
        kinds = [(await spectator.receive())["type"] for _ in range(3 * SOCKET_MESSAGES)]
        assert kinds == ["state"] * (3 * SOCKET_MESSAGES)
    finally:
        await spectator.close()


async def test_a_clients_own_forwarded_port_names_no_origin(server: Daphne) -> None:
    # This daphne trusts no proxy (no --proxy-headers): the port is the client's say, not
    # a proxy's report (othello_site.origins would accept it from a proxy).
    with pytest.raises(InvalidStatus) as refused:
        await connect(
            server.url.replace("http://", "ws://") + "/ws/lobby/",
            origin=Origin("http://127.0.0.1:1"),
            additional_headers={"X-Forwarded-Port": "1"},
        )
    assert refused.value.response.status_code == 403
