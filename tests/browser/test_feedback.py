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
    # Out of turn a click keeps a premove (said so), which Escape puts away.
    bob.point((2, 3)).click()
    expect(bob.page.locator("#board-hint")).to_contain_text("Premove d3: played when your turn")
    bob.page.keyboard.press("Escape")
    expect(bob.page.locator("#board-hint")).to_have_text("Premove cancelled.")

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


def test_a_hint_goes_when_the_player_acts_or_the_position_changes(
    new_context: NewContext,
) -> None:
    alice = create_game(new_context().new_page(), kind="othello", size=8, name="Alice")
    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    hint = alice.page.locator("#board-hint")

    alice.point((3, 3)).click()
    expect(hint).to_have_text("That square is taken.")
    alice.point((2, 3)).click()  # her next move, a legal one
    alice.wait_for_ply(1)
    assert hint.is_hidden()  # at once, not when the hint's time runs out

    alice.point((0, 0)).click()
    expect(hint).to_contain_text("Premove a1")
    alice.page.keyboard.press("Escape")
    expect(hint).to_have_text("Premove cancelled.")
    bob.point((2, 2)).click()  # the opponent's reply changes the position
    alice.wait_for_ply(2)
    assert hint.is_hidden()


def test_a_go_hint_goes_with_a_pass(new_context: NewContext) -> None:
    alice = create_game(new_context().new_page(), kind="go", size=9, name="Alice")
    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    hint = alice.page.locator("#board-hint")
    alice.point((4, 4)).click()
    bob.wait_for_ply(1)
    bob.page.click("#pass-button")
    alice.wait_for_ply(2)

    alice.point((4, 4)).click()
    expect(hint).to_have_text("That point is taken.")
    alice.page.click("#pass-button")
    alice.wait_for_ply(3)
    assert hint.is_hidden()
