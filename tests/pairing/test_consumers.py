"""pairing.consumers through the real ASGI application: the lobby's seeks (docs/api/websocket.md,
"The lobby"). Each socket presents a session cookie got as a browser gets it (a page)."""

from __future__ import annotations

import datetime
import json
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.models import Game
from othello_site.asgi import application
from pairing import services
from pairing.models import LobbySocket, Seek
from pairing.pools import POOLS

pytestmark = pytest.mark.django_db(transaction=True)

HEADERS = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
TIMEOUT = 10
BLITZ = POOLS[1].seek(rated=False)  # Othello 8x8, 3+2 Fischer
POOL = "othello8-fischer-180+2-casual"


def visit(username: str | None = None) -> str:
    """A browser's session cookie after loading the home page (logged in as ``username``)."""
    browser = Client()
    if username is not None:
        browser.force_login(User.objects.create_user(username))
    assert browser.get("/").status_code == 200
    return browser.cookies["sessionid"].value


class Lobby:
    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator

    async def send(self, message: dict[str, Any]) -> None:
        await self.communicator.send_to(text_data=json.dumps(message))

    async def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = await self.communicator.receive_json_from(timeout=TIMEOUT)
        return message

    async def receive_until(self, kind: str) -> dict[str, Any]:
        return await self.receive_until_one_of(kind)

    async def receive_until_one_of(self, *kinds: str) -> dict[str, Any]:
        while (message := await self.receive())["type"] not in kinds:
            pass
        return message


@asynccontextmanager
async def lobby(cookie: str | None) -> AsyncIterator[Lobby]:
    headers = [*HEADERS, (b"cookie", f"sessionid={cookie}".encode())] if cookie else HEADERS
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    try:
        yield Lobby(communicator)
    finally:
        await communicator.disconnect()


async def test_connect_sends_the_lobby_with_the_pools_counts() -> None:
    cookie = await database_sync_to_async(visit)()
    async with lobby(cookie) as ws:
        assert await ws.receive() == {"type": "lobby", "games": [], "playing": 0, "seeking": {}}
        await ws.send(BLITZ)
        seek = (await ws.receive())["seek"]
        assert {key: seek[key] for key in BLITZ if key != "type"} == {
            key: value for key, value in BLITZ.items() if key != "type"
        }
        assert (seek["pool"], seek["rating"], seek["window"]) == (POOL, 1500.0, [1300.0, 1700.0])
        assert (seek["periods"], seek["days"]) == (None, None)
        # Another page of the session: the lobby counts it, and it is told it seeks.
        async with lobby(cookie) as other:
            assert (await other.receive())["seeking"] == {POOL: 1}
            assert (await other.receive()) == {"type": "seeking", "seek": seek}


async def test_seek_cancel_and_seek_again() -> None:
    cookie = await database_sync_to_async(visit)()
    async with lobby(cookie) as ws, lobby(cookie) as tab:
        await ws.receive()
        await tab.receive()
        await ws.send(BLITZ)
        first = await ws.receive()
        assert first["type"] == "seeking"
        assert await tab.receive() == first  # the session's other tab is told
        await ws.send({**BLITZ, "main_time": 300, "increment": 3})
        assert (await ws.receive())["seek"]["pool"] == "othello8-fischer-300+3-casual"
        assert await database_sync_to_async(Seek.objects.count)() == 1
        await ws.send({"type": "cancel_seek"})
        assert await ws.receive() == {"type": "seek_cancelled"}
        await ws.send({"type": "cancel_seek"})  # nothing to cancel: answered the same
        assert await ws.receive() == {"type": "seek_cancelled"}
        assert not await database_sync_to_async(Seek.objects.exists)()


@pytest.mark.parametrize(
    ("message", "field"),
    [
        ({**BLITZ, "kind": "chess"}, "kind"),
        ({**BLITZ, "size": 9}, "size"),
        ({**BLITZ, "main_time": "180"}, "main_time"),
        ({**BLITZ, "increment": None}, "increment"),
        ({**BLITZ, "clock": "sundial"}, "clock"),
        ({**BLITZ, "rated": "no"}, "rated"),
        ({**BLITZ, "range": [1900, 1200]}, "range"),
    ],
)
async def test_a_bad_field_is_bad_request_naming_it(message: dict[str, Any], field: str) -> None:
    async with lobby(await database_sync_to_async(visit)()) as ws:
        await ws.receive()
        await ws.send(message)
        error = await ws.receive()
        assert (error["type"], error["code"], error["field"]) == ("error", "bad_request", field)
        # The field is named by `field`; the message is for a person, in the create form's
        # words: a sentence, no field's code in it.
        assert error["message"][0].isupper() and "_" not in error["message"]
    assert not await database_sync_to_async(Seek.objects.exists)()


@pytest.mark.parametrize(
    "text", ["not json", "[]", '{"type": "play"}', json.dumps({"type": "seek", "x": "y" * 5000})]
)
async def test_a_bad_message_is_bad_request(text: str) -> None:
    async with lobby(await database_sync_to_async(visit)()) as ws:
        await ws.receive()
        await ws.communicator.send_to(text_data=text)
        assert (await ws.receive())["code"] == "bad_request"
        await ws.communicator.send_to(bytes_data=b"{}")
        assert (await ws.receive())["code"] == "bad_request"


async def test_a_guests_rated_seek_is_login_required_an_accounts_is_not() -> None:
    async with lobby(await database_sync_to_async(visit)()) as ws:
        await ws.receive()
        await ws.send({**BLITZ, "rated": True})
        error = await ws.receive()
        assert (error["type"], error["code"]) == ("error", "login_required")
    async with lobby(await database_sync_to_async(visit)("carol")) as ws:
        await ws.receive()
        await ws.send({**BLITZ, "rated": True})
        seek = (await ws.receive())["seek"]
        assert (seek["rated"], seek["pool"]) == (True, "othello8-fischer-180+2-rated")


async def test_two_seekers_are_paired_and_each_socket_told() -> None:
    ann, bob = await database_sync_to_async(visit)(), await database_sync_to_async(visit)()
    async with lobby(ann) as ann_ws, lobby(ann) as ann_tab, lobby(bob) as bob_ws:
        for ws in (ann_ws, ann_tab, bob_ws):
            await ws.receive()
        await ann_ws.send(BLITZ)
        await bob_ws.send(BLITZ)
        await ann_ws.receive_until("seeking")
        await bob_ws.receive_until("seeking")
        [game] = await database_sync_to_async(services.wave)() or []
        told = {(await ws.receive_until("paired"))["game_id"] for ws in (ann_ws, ann_tab, bob_ws)}
        assert told == {game.public_id}
    stored = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert stored.status == Game.Status.ACTIVE
    assert {stored.black_session_key, stored.white_session_key} == {ann, bob}


async def test_a_socket_whose_session_is_not_paired_is_not_told() -> None:
    """``paired`` reaches every lobby socket as one event naming the sessions paired: each
    tells its client of its own session's game only."""
    ann, bob, carol = [await database_sync_to_async(visit)() for _ in range(3)]
    async with lobby(ann) as ann_ws, lobby(bob) as bob_ws, lobby(carol) as carol_ws:
        for ws in (ann_ws, bob_ws, carol_ws):
            await ws.receive()
        for ws in (ann_ws, bob_ws):
            await ws.send(BLITZ)
            await ws.receive_until("seeking")
        [game] = await database_sync_to_async(services.wave)() or []
        assert (await ann_ws.receive_until("paired"))["game_id"] == game.public_id
        assert (await bob_ws.receive_until("paired"))["game_id"] == game.public_id
        await carol_ws.send({"type": "cancel_seek"})
        heard = []
        while (message := await carol_ws.receive())["type"] != "seek_cancelled":
            heard.append(message["type"])
        assert "paired" not in heard


async def test_seeks_arriving_together_are_each_answered_and_stored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Many sockets seek at once: the seeks that arrive while others are stored go
    together (one transaction), each socket answered with its own seek or its own error;
    of one session's two tabs seeking at once, one seek is kept."""
    batches: list[int] = []
    seek_many = services.seek_many

    def counted(requests: list[services.SeekRequest]) -> list[Any]:
        batches.append(len(requests))
        return seek_many(requests)

    monkeypatch.setattr(services, "seek_many", counted)
    cookies = [await database_sync_to_async(visit)() for _ in range(10)]
    async with AsyncExitStack() as stack:
        sockets = [await stack.enter_async_context(lobby(cookie)) for cookie in cookies]
        tab = await stack.enter_async_context(lobby(cookies[0]))
        for ws in [*sockets, tab]:
            await ws.receive()
        for ws in sockets[:-1]:
            await ws.send(BLITZ)
        await sockets[-1].send({**BLITZ, "size": 9})
        await tab.send({**BLITZ, "main_time": 300, "increment": 3})
        answers = [await ws.receive_until_one_of("seeking", "error") for ws in sockets]
        assert [answer["type"] for answer in answers] == ["seeking"] * 9 + ["error"]
        assert answers[-1]["field"] == "size"
        assert len({answer["seek"]["id"] for answer in answers[:-1]}) == 9
        assert (await tab.receive_until("seeking"))["seek"]["pool"] == (
            "othello8-fischer-300+3-casual"
        )
        sessions = await database_sync_to_async(list)(
            Seek.objects.values_list("session_key", flat=True)
        )
        assert sorted(sessions) == sorted(cookies[:9])  # one seek for the two tabs' session
    assert sum(batches) == 11 and max(batches) > 1


async def test_a_seek_lives_while_its_session_has_a_lobby_socket() -> None:
    cookie = await database_sync_to_async(visit)()
    async with lobby(cookie) as ws:
        await ws.receive()
        async with lobby(cookie) as tab:
            await tab.receive()
            await tab.send(BLITZ)
            await tab.receive()
        # One socket of the session is still open: the seek stays.
        assert await database_sync_to_async(Seek.objects.count)() == 1
    assert not await database_sync_to_async(LobbySocket.objects.exists)()
    # Its last socket closed: it outlives it by SEEK_GRACE_SECONDS, then goes.
    assert await database_sync_to_async(forget_after)(4) == 0
    assert await database_sync_to_async(Seek.objects.count)() == 1
    assert await database_sync_to_async(forget_after)(6) == 1
    assert not await database_sync_to_async(Seek.objects.exists)()


def forget_after(seconds: float) -> int:
    """The wave's forgetting, ``seconds`` from now."""
    later = timezone.now() + datetime.timedelta(seconds=seconds)
    return services.forget_dead_sockets(now=later, timeout=4)


async def test_a_reloaded_page_finds_its_seek_waiting_with_the_time_waited() -> None:
    """docs/api/websocket.md, "The lobby": a seek outlives its session's last lobby socket by 5 s,
    and a socket that opens meanwhile is told ``seeking`` at once."""
    cookie = await database_sync_to_async(visit)()
    async with lobby(cookie) as ws:
        await ws.receive_until("lobby")
        await ws.send(BLITZ)
        first = (await ws.receive_until("seeking"))["seek"]
    # The page reloads: its socket closed, the new one opens two seconds later.
    assert await database_sync_to_async(forget_after)(2) == 0
    async with lobby(cookie) as reloaded:
        again = (await reloaded.receive_until("seeking"))["seek"]
        assert (again["id"], again["since"]) == (first["id"], first["since"])
        # Kept again: the grace no longer runs.
        assert await database_sync_to_async(forget_after)(30) == 0
        assert await database_sync_to_async(Seek.objects.count)() == 1


async def test_a_socket_without_a_session_gets_one() -> None:
    async with lobby(None) as ws, lobby(None) as other:
        await ws.receive()
        await other.receive()
        await ws.send(BLITZ)
        await other.send(BLITZ)
        await ws.receive_until("seeking")
        await other.receive_until("seeking")
        assert len(await database_sync_to_async(services.wave)() or []) == 1
        await ws.receive_until("paired")
        await other.receive_until("paired")


async def test_a_seek_forgotten_while_its_process_stalled_is_made_again() -> None:
    # Another process's wave took this one for dead (its heartbeat late: a stalled loop)
    # and forgot its sockets and the seek; the socket that made it seeks again.
    cookie = await database_sync_to_async(visit)()
    async with lobby(cookie) as ws:
        await ws.receive_until("lobby")
        await ws.send(BLITZ)
        first = (await ws.receive_until("seeking"))["seek"]

        def forget(after: float = 60) -> int:
            later = timezone.now() + datetime.timedelta(seconds=after)
            return services.forget_dead_sockets(now=later, timeout=4, alive="another")

        assert await database_sync_to_async(forget)() == 0  # left alone for the grace
        assert await database_sync_to_async(forget)(66) == 1
        again = (await ws.receive_until("seeking"))["seek"]
        assert {key: again[key] for key in BLITZ if key != "type"} == {
            key: first[key] for key in BLITZ if key != "type"
        }
        assert await database_sync_to_async(Seek.objects.count)() == 1
        assert await database_sync_to_async(LobbySocket.objects.count)() == 1
        # Cancelled, it stays cancelled when forgotten again: nothing to make again.
        await ws.send({"type": "cancel_seek"})
        await ws.receive_until("seek_cancelled")
        assert await database_sync_to_async(forget)(66) == 0
        assert not await database_sync_to_async(Seek.objects.exists)()
