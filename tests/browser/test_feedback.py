"""A click that cannot play says why, near the board, for the mouse and the keyboard."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.game_page import create_game, join_game, watch_game

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]


def test_every_refused_click_says_why(new_context: NewContext, output_path: str) -> None:
    alice = create_game(new_context().new_page(), kind="othello", size=8, name="Alice")
    hint = alice.page.locator("#board-hint")
    alice.point((0, 0)).click()
    expect(hint).to_have_text("Waiting for an opponent to join.")

    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    carol = watch_game(new_context().new_page(), alice.url)
    carol.point((2, 3)).click()
    expect(carol.page.locator("#board-hint")).to_have_text(
        "You are watching: only the players can play."
    )
    bob.point((2, 3)).click()
    expect(bob.page.locator("#board-hint")).to_have_text("It is Alice's move.")

    alice.point((3, 3)).click()  # a disc is there
    expect(hint).to_have_text("That square is taken.")
    alice.point((0, 0)).click()  # flips nothing
    expect(hint).to_have_text("No discs to flip from there: pick a marked square.")
    alice.screenshot(output_path, "feedback/refused.png")
    assert alice.server_state()["ply"] == 0  # nothing was played

    # The keyboard player hears it too: from a1 (the last click) to d4, a disc.
    alice.board.focus()
    for key in ("ArrowDown", "ArrowDown", "ArrowDown", "ArrowRight", "ArrowRight", "ArrowRight"):
        alice.page.keyboard.press(key)
    alice.page.keyboard.press("Enter")
    expect(hint).to_have_text("That square is taken.")
    expect(hint).to_have_attribute("role", "status")
