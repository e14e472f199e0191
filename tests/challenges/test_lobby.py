"""A challenge to a person is nobody's open game: never among the lobby's open games, for
anyone (a guest, a third account, the challenged account itself), on the home page nor in
the lobby socket's messages (the first one and every broadcast)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from accounts.players import Player
from games import selectors
from games.models import Game
from games.services import presence
from othello_site.asgi import application
from pairing import lobby as lobbies
from tests.challenges.test_challenges import challenge, person, user
from tests.live.test_consumers import HEADERS, TIMEOUT

pytestmark = pytest.mark.django_db

FIELDS = {"kind": "othello", "size": 8, "color": "black"}


def logged_in(name: str) -> tuple[Client, str]:
    """A browser logged in as a new account ``name``, and its session cookie."""
    browser = Client()
    browser.force_login(User.objects.create_user(name, password="pw-12345678"))
    browser.get("/games/")
    return browser, browser.cookies["sessionid"].value


@asynccontextmanager
async def lobby(path: str, session: str | None = None) -> AsyncIterator[WebsocketCommunicator]:
    headers = list(HEADERS)
    if session is not None:
        headers.append((b"cookie", f"sessionid={session}".encode()))
    socket = WebsocketCommunicator(application, path, headers=headers)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    try:
        yield socket
    finally:
        await socket.disconnect()


def online_challenge(alice: Client, target: str = "bob", **fields: Any) -> Game:
    """alice's challenge to ``target``, alice online on its page (as the lobby lists the
    games of creators who are)."""
    challenge(alice, target, **fields)
    game = Game.objects.filter(reserved_for__username=target).latest("created_at")
    seat = Player(user_id=user("alice").pk)
    presence.connected(
        player=seat,
        game_id=game.public_id,
        process="p",
        channel_name=game.public_id,
    )
    return game


def open_game_ids(response: Any) -> list[str]:
    return [game.public_id for game in response.context["open_games"]]


def test_a_challenge_is_never_among_the_open_games_for_anyone() -> None:
    alice, bob, carol, guest = person("alice"), person("bob"), person("carol"), Client()
    game = online_challenge(alice)
    free = Game.objects.get(
        public_id=alice.post("/games/new/", {"kind": "go", "size": 9}).url[7:-1]
    )
    seat = Player(user_id=user("alice").pk)
    presence.connected(player=seat, game_id=free.public_id, process="p", channel_name="free")

    for visitor in (guest, carol, bob):
        home = visitor.get("/")
        assert open_game_ids(home) == [free.public_id]
        page = home.content.decode()
        assert (
            f"/games/{game.public_id}/join/"
            not in page.split('id="open-games"')[1].split("</section>")[0]
        )
    # The lobby socket's message (the first one and every broadcast) leaves it out too.
    assert [listed["id"] for listed in lobbies.lobby_json()["games"]] == [free.public_id]
    assert [game.public_id for game in selectors.open_games()] == [free.public_id]


@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_never_lists_a_challenge() -> None:
    (alice, alice_session), (_, carol_session), _ = await database_sync_to_async(
        lambda: (logged_in("alice"), logged_in("carol"), logged_in("bob"))
    )()
    async with lobby("/ws/lobby/") as guest, lobby("/ws/lobby/", carol_session) as carol:
        for watcher in (guest, carol):
            assert (await watcher.receive_json_from(timeout=TIMEOUT))["games"] == []
        made = await database_sync_to_async(alice.post)("/players/bob/challenge/", FIELDS)
        game_id = made.url.strip("/").split("/")[-1]
        # alice opens her game's page: she is online, and the lobby is sent again, without
        # her challenge (an open game of hers would be listed now).
        game = WebsocketCommunicator(
            application,
            f"/ws/games/{game_id}/",
            headers=[*HEADERS, (b"cookie", f"sessionid={alice_session}".encode())],
        )
        assert (await game.connect(timeout=TIMEOUT))[0]
        try:
            for watcher in (guest, carol):
                sent: dict[str, Any] = await watcher.receive_json_from(timeout=TIMEOUT)
                assert (sent["type"], sent["games"]) == ("lobby", [])
        finally:
            await game.disconnect()
