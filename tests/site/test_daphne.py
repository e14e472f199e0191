"""Real daphne processes: two on PostgreSQL and Redis serve one game; one restarted
keeps the chat.

Each player takes a seat over HTTP on a different daphne and plays over a real websocket;
each sees the other's moves live, relayed by Redis, and either server can serve either
player. The test builds a fresh database, migrates it, starts both servers, and stops and
drops everything at the end. It needs DATABASE_URL and REDIS_URL (skipped, with the reason
printed, when either is unset).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import Servers
from tests.support.clients import open_socket, play, seat_two
from tests.support.daphne import embedded, running

# 4x4 Othello; after White's a1 Black has no move and the server passes for Black.
LINE = [[0, 1], [0, 2], [2, 3], [0, 0]]


@pytest.fixture
def two_servers(database_url: str, daphnes: Servers) -> Iterator[tuple[str, str]]:
    """Two daphne processes on one database and one Redis: their base URLs."""
    with daphnes({"DATABASE_URL": database_url}) as servers:
        yield servers[0].url, servers[1].url


@pytest.mark.services
async def test_two_daphne_processes_serve_one_game_live(two_servers: tuple[str, str]) -> None:
    game_id, ann, bob = await asyncio.to_thread(seat_two, *two_servers, size=4)
    ann_ws, bob_ws = await open_socket(ann, game_id), await open_socket(bob, game_id)
    try:
        firsts = []
        for ws, you in ((ann_ws, "black"), (bob_ws, "white")):
            first = await ws.receive()
            assert (first["type"], first["game"]["you"], first["game"]["status"]) == (
                "state",
                you,
                "active",
            )
            firsts.append(first["game"])
            assert (await ws.receive())["type"] == "chat_history"
        # Bob's arrival reaches Ann, on the other process, as state, unless her own state
        # came after it (both sockets connect at once; the older one is then dropped:
        # tests/live/test_consumers.py).
        if not firsts[0]["online"]["white"]:
            arrival = await ann_ws.receive()
            assert arrival["game"]["online"] == {"black": True, "white": True}

        # (A presence state may come before a move: Black's arrival, sent from the other
        # process, can reach White after White's own state.)
        await play(ann_ws, bob_ws, LINE)
        for ws in (ann_ws, bob_ws):
            event = await ws.receive()
            assert (event["move"]["ply"], event["move"]["action"]) == (5, "pass")

        # Errors stay with their sender on its own server.
        await ann_ws.send({"type": "play", "ply": 4, "point": [3, 3]})
        assert (await ann_ws.receive())["code"] == "stale"

        await ann_ws.send({"type": "resign"})
        for ws in (ann_ws, bob_ws):
            event = await ws.receive()
            assert event["move"]["action"] == "resign"
            assert (event["game"]["status"], event["game"]["result"]) == ("finished", "W+R")
    finally:
        await ann_ws.close()
        await bob_ws.close()

    # The database is the truth: each server shows the same game, and a player who
    # moves to the other server keeps the seat.
    ann_state, bob_state = await asyncio.gather(
        asyncio.to_thread(ann.state, game_id), asyncio.to_thread(bob.state, game_id)
    )
    # (Presence aside: the sockets just closed may still be going offline.)
    for state in (ann_state, bob_state):
        del state["online"], state["away_ms"]
    assert ann_state == {**bob_state, "you": "black"}
    ws = await open_socket(ann.on(bob.base), game_id)
    try:
        state = (await ws.receive())["game"]
        assert (state["you"], state["ply"], state["result"]) == ("black", 6, "W+R")
        assert (await ws.receive())["type"] == "chat_history"
    finally:
        await ws.close()


async def test_the_chat_survives_a_restart_of_the_server(tmp_path: Path) -> None:
    server = embedded(tmp_path)
    with running([server]):
        game_id, ann, bob = await asyncio.to_thread(seat_two, server.url, server.url, size=8)
        ws = await open_socket(ann, game_id)
        try:
            await ws.send({"type": "chat", "text": "good game <3"})
            said = await ws.receive_until("chat")
            assert (said["message"]["name"], said["message"]["text"]) == ("Black", "good game <3")
        finally:
            await ws.close()
        server.kill()  # no goodbye: what was said was stored when it was said
        server.start()
        ws = await open_socket(bob, game_id)
        try:
            assert (await ws.receive())["type"] == "state"
            history = await ws.receive()
            assert history["type"] == "chat_history"
            assert [(m["name"], m["color"], m["text"]) for m in history["messages"]] == [
                ("Black", "black", "good game <3")
            ]
        finally:
            await ws.close()
