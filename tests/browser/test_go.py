"""Go between two browsers, watched by a third: a capture, a reload, two passes, the count
accepted, a result."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, WebSocket, expect

from tests.browser.game_page import GamePage, create_game, join_game, result_sentence, watch_game

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]


def play(mover: GamePage, point: tuple[int, int], *watchers: GamePage) -> None:
    """Click a point and wait until everyone's page shows the move."""
    ply = int(mover.root.get_attribute("data-ply") or 0)
    mover.point(point).click()
    for view in (mover, *watchers):
        view.wait_for_ply(ply + 1)


def test_go_with_a_capture_two_passes_and_a_spectator(new_context: NewContext, output_path: str):
    alice = create_game(new_context().new_page(), kind="go", size=5, name="Alice", komi=0.5)
    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    carol_page = new_context().new_page()
    carol_sent: list[str] = []

    def record(socket: WebSocket) -> None:
        socket.on("framesent", lambda payload: carol_sent.append(str(payload)))

    carol_page.on("websocket", record)
    carol = watch_game(carol_page, alice.url)
    everyone = (alice, bob, carol)

    expect(carol.page.locator("#watching")).to_be_visible()
    expect(carol.page.locator("#join-form")).to_have_count(0)
    expect(carol.page.locator("#pass-button")).to_be_hidden()
    expect(carol.page.locator("#resign-button")).to_be_hidden()
    expect(carol.status).to_have_text("Alice (Black) to move.")
    expect(alice.page.locator("#pass-button")).to_be_enabled()
    expect(bob.page.locator("#pass-button")).to_be_disabled()
    expect(bob.player("white").locator(".player-score")).to_have_text("0 + 0.5")

    # The spectator clicks a point Black may play: nothing is sent, nothing is played.
    carol.point((0, 1)).click()
    assert carol.legal_points() == []
    play(alice, (0, 1), bob, carol)
    play(bob, (1, 1), alice, carol)
    play(alice, (1, 0), bob, carol)

    # A reload mid-game: the same position, the same seat, still Bob's turn.
    before = bob.server_state()
    bob.page.reload()
    bob.wait_until_connected()
    bob.wait_for_ply(3)
    assert bob.drawn_board() == before["board"]
    expect(bob.root).to_have_attribute("data-you", "white")
    expect(bob.player("white").locator(".player-tags")).to_have_text("you")
    expect(bob.status).to_have_text("Your move.")

    # Bob plays by keyboard: the cursor starts in the centre (C3); down, right, Enter.
    bob.board.focus()
    bob.page.keyboard.press("ArrowDown")
    bob.page.keyboard.press("ArrowRight")
    expect(bob.board.locator('.preview .stone[data-point="3,3"]')).to_have_count(1)
    bob.page.keyboard.press("Enter")
    for view in everyone:
        view.wait_for_ply(4)
    assert bob.server_state()["moves"][3]["notation"] == "D2"

    play(alice, (1, 2), bob, carol)
    play(bob, (3, 4), alice, carol)
    play(alice, (2, 1), bob, carol)  # surrounds the white stone on B4
    state = alice.server_state()
    assert state["moves"][-1]["captured"] == [[1, 1]]
    assert state["prisoners"] == {"black": 1, "white": 0}
    for view in everyone:
        assert view.drawn_board() == state["board"]
        assert view.drawn_board()[1][1] == "."
        expect(view.player("black").locator(".player-score")).to_have_text("1")
    assert carol.move_list() == ["B5", "B4", "A4", "D2", "C4", "E2", "B3"]

    bob.page.click("#pass-button")
    for view in everyone:
        view.wait_for_ply(8)
    expect(bob.notice).to_have_text("You pass.")
    for view in (alice, carol):
        expect(view.notice).to_have_text("Bob passes.")
    alice.page.click("#pass-button")
    for view in everyone:
        view.wait_for_ply(9)
        expect(view.root).to_have_attribute("data-status", "scoring")
        expect(view.notice).to_be_hidden()
        assert view.legal_points() == []
    expect(alice.page.locator("#pass-button")).to_be_hidden()
    expect(carol.page.locator("#accept-button")).to_be_hidden()

    # Both accept the server's count: the game is over.
    alice.page.click("#accept-button")
    bob.page.click("#accept-button")
    for view in everyone:
        expect(view.root).to_have_attribute("data-status", "finished")
    state = alice.server_state()
    sentence = result_sentence(state["result"], "go")
    for view in everyone:
        expect(view.status).to_have_text(sentence)

    sent_types = [json.loads(frame)["type"] for frame in carol_sent]
    assert "play" not in sent_types
    alice.screenshot(output_path, "go-finished-black.png")
    carol.screenshot(output_path, "go-finished-spectator.png")


def test_a_spectator_sees_moves_live_and_cannot_play(new_context: NewContext):
    alice = create_game(new_context().new_page(), kind="go", size=9, name="Alice")
    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    carol = watch_game(new_context().new_page(), alice.url)
    expect(carol.root).to_have_attribute("data-you", "")

    carol.point((2, 2)).click()
    play(alice, (4, 4), bob, carol)
    state = carol.server_state()
    assert [move["point"] for move in state["moves"]] == [[4, 4]]
    assert carol.drawn_board() == state["board"]
    expect(carol.board.locator(".last-move .marker")).to_have_count(1)
    expect(carol.status).to_have_text("Bob (White) to move.")


def test_a_9x9_handicap_3_game_starts_with_three_black_stones_and_white_to_move(
    new_context: NewContext, output_path: str
) -> None:
    page = new_context().new_page()
    page.goto("/")
    page.check('input[name="kind"][value="go"]')
    page.select_option('select[name="size"]', "9")
    # Six stones and more are not offered on 9x9; the komi follows the handicap.
    assert page.locator('select[name="handicap"] option:not([disabled])').all_inner_texts() == [
        "None",
        "2 stones",
        "3 stones",
        "4 stones",
        "5 stones",
    ]
    page.select_option('select[name="handicap"]', "3")
    expect(page.locator('input[name="komi"]')).to_have_value("0.5")
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=f"{output_path}/go-handicap-form-{width}.png", full_page=True)
    page.select_option('select[name="handicap"]', "0")
    expect(page.locator('input[name="komi"]')).to_have_value("6.5")

    alice = create_game(page, kind="go", size=9, name="Alice", color="black", handicap=3)
    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    stones = ["." * 9] * 2 + ["..B...B.."] + ["." * 9] * 3 + ["..B......"] + ["." * 9] * 2
    for view in (alice, bob):
        assert view.drawn_board() == stones
        expect(view.root).to_have_attribute("data-to-move", "white")
    expect(bob.status).to_have_text("Your move.")
    state = alice.server_state()
    assert (state["handicap"], state["komi"], state["ply"]) == (3, 0.5, 0)
    bob.screenshot(output_path, "go-handicap.png")
