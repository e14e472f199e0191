"""Tap to confirm: on a phone's 19x19 board a first tap shows the stone, a second plays it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.game_page import GamePage, create_game, join_game

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def phone(new_context: NewContext) -> BrowserContext:
    return new_context(viewport=PHONE, is_mobile=True, has_touch=True)


def ghost(view: GamePage):
    return view.board.locator(".preview .stone.pending")


def test_a_tap_on_a_small_board_waits_for_a_second_tap(
    new_context: NewContext, output_path: str
) -> None:
    alice = create_game(phone(new_context).new_page(), kind="go", size=19, name="Alice")
    bob = join_game(phone(new_context).new_page(), alice.url, name="Bob")
    expect(alice.status).to_have_text("Your move.")
    setting = alice.page.locator("#confirm-taps")
    expect(setting).to_be_visible()
    expect(setting).to_be_checked()  # points closer than 28 px on this phone

    alice.point((3, 3)).tap()  # D16
    expect(ghost(alice)).to_have_count(1)
    expect(alice.board).to_have_attribute("data-pending", "3,3")
    expect(alice.page.locator("#board-hint")).to_have_text("Tap D16 again to play.")
    alice.screenshot(output_path, "touch/ghost.png")
    assert alice.server_state()["ply"] == 0  # nothing sent yet

    alice.point((15, 15)).tap()  # changed her mind: the ghost moves to Q4
    expect(alice.board).to_have_attribute("data-pending", "15,15")
    assert alice.server_state()["ply"] == 0
    alice.point((15, 15)).tap()
    alice.wait_for_ply(1)
    expect(ghost(alice)).to_have_count(0)
    assert alice.server_state()["moves"][0]["point"] == [15, 15]

    # Bob turns it off; the browser remembers, and a single tap plays.
    bob.wait_for_ply(1)
    bob.page.locator("#confirm-taps").uncheck()
    bob.page.reload()
    bob.wait_until_connected()
    expect(bob.page.locator("#confirm-taps")).not_to_be_checked()
    bob.point((3, 3)).tap()
    bob.wait_for_ply(2)
    assert bob.server_state()["moves"][1]["point"] == [3, 3]

    # A tap on a point that cannot be played drops the ghost and says why.
    alice.wait_for_ply(2)
    alice.point((3, 15)).tap()
    expect(alice.board).to_have_attribute("data-pending", "3,15")
    alice.point((3, 3)).tap()
    expect(alice.page.locator("#board-hint")).to_have_text("That point is taken.")
    expect(ghost(alice)).to_have_count(0)
    assert alice.server_state()["ply"] == 2


def test_big_points_and_the_mouse_play_at_once(new_context: NewContext) -> None:
    # Othello 8x8 on the phone: squares far wider than a fingertip.
    alice = create_game(phone(new_context).new_page(), kind="othello", size=8, name="Alice")
    join_game(phone(new_context).new_page(), alice.url, name="Bob")
    expect(alice.page.locator("#confirm-taps")).not_to_be_checked()
    alice.point(alice.legal_points()[0]).tap()
    alice.wait_for_ply(1)

    # A mouse on a desktop: no setting shown, a click plays.
    carol = create_game(new_context(viewport=DESKTOP).new_page(), kind="go", size=19, name="Carol")
    join_game(new_context(viewport=DESKTOP).new_page(), carol.url, name="Dave")
    expect(carol.page.locator("#confirm-setting")).to_be_hidden()
    carol.point((3, 3)).click()
    carol.wait_for_ply(1)
