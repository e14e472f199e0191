"""Nothing lost: a server killed and started again, or a dropped connection, bring the
page back to the game."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, BrowserContext, WebSocketRoute, expect

from tests.browser.conftest import DaphneServer
from tests.browser.game_page import create_game, join_game

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
# The page waits longer and longer between attempts; a restart takes a few of them.
RECONNECT_TIMEOUT_MS = 30_000
TOAST_GONE_MS = 10_000  # an error shows for a few seconds


def test_the_page_comes_back_after_the_server_is_killed_and_restarted(
    browser: Browser, own_server: DaphneServer
):
    contexts = [browser.new_context(base_url=own_server.url) for _ in range(2)]
    try:
        alice = create_game(contexts[0].new_page(), kind="othello", size=8, name="Alice")
        bob = join_game(contexts[1].new_page(), alice.url, name="Bob")
        alice.point((2, 3)).click()
        bob.wait_for_ply(1)

        own_server.kill()
        for view in (alice, bob):
            connection = view.page.locator("#connection")
            expect(connection).to_have_attribute("data-state", "reconnecting")
            expect(connection).to_have_text("Reconnecting…")
        # Bob's click cannot reach the server: he is told, and nothing is drawn.
        bob.point((2, 2)).click()
        expect(bob.toast).to_have_text("Not connected: reconnecting…")
        assert bob.drawn_board()[2][2] == "."

        own_server.start()
        for view in (alice, bob):
            expect(view.page.locator("#connection")).to_have_attribute(
                "data-state", "connected", timeout=RECONNECT_TIMEOUT_MS
            )
            view.wait_for_ply(1)
            assert view.drawn_board() == alice.server_state()["board"]
        bob.point((2, 2)).click()
        alice.wait_for_ply(2)
        assert alice.drawn_board() == bob.server_state()["board"]
        expect(alice.status).to_have_text("Your move.")
    finally:
        for context in contexts:
            context.close()


def test_a_dropped_connection_catches_up_with_the_moves_it_missed(new_context: NewContext):
    alice = create_game(new_context().new_page(), kind="othello", size=8, name="Alice")
    bob_page = new_context().new_page()
    routes: list[WebSocketRoute] = []
    sent: list[str] = []
    blocked = False

    def route(socket: WebSocketRoute) -> None:
        if blocked:
            socket.close()
            return
        server = socket.connect_to_server()

        def forward(message: str | bytes) -> None:
            sent.append(str(message))
            server.send(message)

        socket.on_message(forward)
        routes.append(socket)

    bob_page.route_web_socket(re.compile(r"/ws/games/"), route)
    bob = join_game(bob_page, alice.url, name="Bob")
    alice.point((2, 3)).click()
    bob.wait_for_ply(1)

    blocked = True
    routes[-1].close()
    expect(bob.page.locator("#connection")).to_have_attribute("data-state", "reconnecting")
    # White cannot move while Bob is away; Black (Alice) resigns instead.
    alice.page.click("#resign-button")
    alice.page.click("#resign-yes")
    alice.wait_for_ply(2)

    blocked = False
    bob.wait_for_ply(2, timeout=RECONNECT_TIMEOUT_MS)
    expect(bob.status).to_have_text("White wins by resignation")
    assert {"type": "sync"} in [json.loads(message) for message in sent]


def test_an_error_from_the_server_shows_briefly_in_the_page(new_context: NewContext):
    # The page never sends a move the server would refuse, so the error is injected
    # into the real connection, as the server would send it.
    page = new_context().new_page()
    routes: list[WebSocketRoute] = []

    def route(socket: WebSocketRoute) -> None:
        socket.connect_to_server()
        routes.append(socket)

    page.route_web_socket(re.compile(r"/ws/games/"), route)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    alice = create_game(page, kind="othello", size=8, name="Alice")

    error = {"type": "error", "code": "not_your_turn", "message": "waiting for an opponent"}
    routes[-1].send(json.dumps(error))
    expect(alice.toast).to_have_text("waiting for an opponent")
    expect(alice.toast).to_be_hidden(timeout=TOAST_GONE_MS)
    expect(alice.page.locator("#connection")).to_have_attribute("data-state", "connected")
    assert dialogs == []
