"""axe-core, the accessibility engine, finds nothing on the pages a player uses: home, a
game waiting, in play, watched, counted and over, the replay and the archive, on a desktop
and on a phone (a reviewed replay: tests/browser/test_review.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.game_page import create_game, join_game, watch_game

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


def violations(page: Page) -> list[dict[str, Any]]:
    """What axe finds on the page as it is now, of every impact (minor to critical)."""
    results = Axe().run(page)
    found: list[dict[str, Any]] = results.response["violations"]
    return [
        {
            "rule": violation["id"],
            "impact": violation["impact"],
            "help": violation["help"],
            "where": [node["target"] for node in violation["nodes"]],
        }
        for violation in found
    ]


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_no_accessibility_violations(new_context: NewContext, screen: str) -> None:
    options = VIEWPORTS[screen]
    found: dict[str, list[dict[str, Any]]] = {}

    def check(page: Page, what: str) -> None:
        found[what] = violations(page)

    alice = create_game(new_context(**options).new_page(), kind="go", size=9, name="Alice")
    # The home page with a game in Your games and another in the lobby.
    other = new_context(**options).new_page()
    create_game(other, kind="othello", size=8, name="Carol")
    other.goto("/")
    expect(other.locator(".lobby-open")).to_contain_text("Alice")
    check(other, "home")

    check(alice.page, "game waiting for an opponent")
    bob = join_game(new_context(**options).new_page(), alice.url, name="Bob")
    alice.point((2, 2)).click()
    bob.wait_for_ply(1)
    bob.page.locator("#chat-text").fill("Good luck")
    bob.page.locator("#chat-form button").click()
    expect(alice.page.locator("#chat-list")).to_contain_text("Good luck")
    check(alice.page, "game in play")
    visitor = watch_game(new_context(**options).new_page(), alice.url)
    check(visitor.page, "game watched")

    # Both pass: Go's count, with its table and buttons.
    bob.page.locator("#pass-button").click()
    alice.wait_for_ply(2)
    alice.page.locator("#pass-button").click()
    expect(alice.page.locator("#count")).to_be_visible()
    check(alice.page, "game counted")

    bob.page.locator("#resign-button").click()
    bob.page.locator("#resign-yes").click()
    expect(alice.page.locator("#after-game")).to_be_visible()
    check(alice.page, "game over")

    alice.page.goto(f"{alice.url}replay/")
    check(alice.page, "replay")
    alice.page.goto("/games/")
    check(alice.page, "archive")
    alice.page.goto("/")
    expect(alice.page.locator(".lobby-finished")).to_contain_text("Bob")
    check(alice.page, "home with finished games")
    assert {what: rules for what, rules in found.items() if rules} == {}


def test_the_check_sees_a_field_without_a_label(new_context: NewContext) -> None:
    page = new_context().new_page()
    page.goto("/games/")
    page.evaluate("document.querySelector('main').append(document.createElement('input'))")
    assert [found["rule"] for found in violations(page)] == ["label"]


def test_the_keyboard_keeps_its_place_through_resigning(new_context: NewContext) -> None:
    alice = create_game(new_context().new_page(), kind="go", size=9, name="Alice")
    join_game(new_context().new_page(), alice.url, name="Bob")
    page = alice.page
    focused = page.locator(":focus")
    page.locator("#resign-button").focus()
    page.keyboard.press("Enter")
    expect(focused).to_have_id("resign-no")  # the safe answer first
    page.keyboard.press("Enter")
    expect(page.locator("#resign-confirm")).to_be_hidden()
    expect(focused).to_have_id("resign-button")  # back where it was

    page.keyboard.press("Enter")
    page.keyboard.press("Shift+Tab")
    expect(focused).to_have_id("resign-yes")
    page.keyboard.press("Enter")
    expect(alice.status).to_have_text("White wins by resignation")
    expect(focused).to_have_id("status")  # where the result is read


def test_a_control_that_goes_away_hands_the_focus_to_the_status(new_context: NewContext) -> None:
    alice = create_game(new_context().new_page(), kind="go", size=9, name="Alice")
    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    focused = alice.page.locator(":focus")
    alice.page.locator("#pass-button").focus()
    alice.page.keyboard.press("Enter")  # passes: Pass is disabled on Bob's turn
    alice.wait_for_ply(1)
    expect(focused).to_have_id("status")

    bob.point((4, 4)).click()
    alice.wait_for_ply(2)
    bob.page.locator("#undo-button").focus()
    bob.page.keyboard.press("Enter")  # asks to take it back: the button goes
    expect(bob.page.locator("#undo-text")).to_contain_text("Waiting for Alice")
    expect(bob.page.locator(":focus")).to_have_id("status")
