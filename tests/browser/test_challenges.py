"""Challenges between people, in two browsers: alice challenges bob from his profile, bob's
bell counts it without a reload, he opens it and accepts (the game starts for both) or
declines (alice's page says so, live); on a phone and a desktop. Then following and the
header's player search."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.test_accessibility import violations
from tests.browser.test_accounts import DESKTOP, PHONE, shoot, sign_up

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
GENERIC = "I am not accepting challenges at the moment."  # a decline without a reason


def challenge(alice: Page, bob: str, output_path: str, width: int) -> str:
    """alice sends bob a challenge from his profile (Othello 8x8, alice Black): the
    game's address."""
    alice.goto(f"/players/{bob}/")
    alice.get_by_text("Challenge", exact=True).click()
    form = alice.locator("#new-game-form")
    expect(form).to_be_visible()
    form.locator('select[name="color"]').select_option("black")
    shoot(alice, output_path, f"challenges/profile-{width}.png")
    assert violations(alice) == []
    # The form stays inside its card, a long name's button too (it wraps on a phone).
    card = alice.locator("#challenge-details .lobby-new").bounding_box()
    send = form.get_by_role("button", name=f"Send the challenge to {bob}").bounding_box()
    assert card and send and send["x"] + send["width"] <= card["x"] + card["width"]
    form.get_by_role("button", name=f"Send the challenge to {bob}").click()
    alice.wait_for_url(re.compile(r"/games/[^/]+/$"))
    expect(alice.locator("#status")).to_have_text(f"Waiting for {bob} to accept the challenge…")
    return alice.url


def open_from_the_bell(bob: Page, alice: str, count: str) -> None:
    """bob, on the home page, sees the bell count ``count`` without a reload, and opens
    the challenge from the notifications' list."""
    expect(bob.locator("#bell-count")).to_contain_text(count)
    bob.locator("#bell").click()
    bob.get_by_role("link", name=re.compile(f"{alice} challenges you")).first.click()
    bob.wait_for_url(re.compile(r"/games/[^/]+/$"))
    expect(bob.locator("#challenged")).to_contain_text(f"{alice} challenges you to this game.")


@VIEWPORTS
def test_a_person_challenged_from_their_profile_accepts_and_the_game_starts(
    new_context: NewContext, output_path: str, viewport: dict[str, int]
) -> None:
    alice = new_context(viewport=viewport).new_page()
    bob = new_context(viewport=viewport).new_page()
    alice_name, bob_name = sign_up(alice), sign_up(bob)
    bob.goto("/")
    game_url = challenge(alice, bob_name, output_path, viewport["width"])

    open_from_the_bell(bob, alice_name, "1")
    expect(bob.locator("#status")).to_have_text(
        f"{alice_name} challenges you: accept or decline below."
    )
    shoot(bob, output_path, f"challenges/challenged-{viewport['width']}.png")
    assert violations(bob) == []
    for page in (alice, bob):
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    bob.get_by_role("button", name="Accept").click()
    bob.wait_for_url(game_url)
    expect(bob.locator("#game")).to_have_attribute("data-status", "active")
    expect(bob.locator("#status")).to_have_text(f"Waiting for {alice_name}…")
    expect(alice.locator("#status")).to_have_text("Your move.")


@VIEWPORTS
def test_a_declined_challenge_is_called_off_on_the_challengers_page(
    new_context: NewContext, output_path: str, viewport: dict[str, int]
) -> None:
    alice = new_context(viewport=viewport).new_page()
    bob = new_context(viewport=viewport).new_page()
    alice_name, bob_name = sign_up(alice), sign_up(bob)
    bob.goto("/")
    challenge(alice, bob_name, output_path, viewport["width"])

    open_from_the_bell(bob, alice_name, "1")
    bob.locator("#decline-challenge").click()
    declined = f"{bob_name} declined the challenge: {GENERIC}"
    expect(bob.locator("#status")).to_have_text(declined)
    expect(alice.locator("#status")).to_have_text(declined)
    expect(alice.locator("#bell-count")).to_contain_text("1")  # challenge_declined
    shoot(alice, output_path, f"challenges/declined-{viewport['width']}.png")


@VIEWPORTS
def test_a_player_found_in_the_header_is_followed_from_the_home_page(
    new_context: NewContext, output_path: str, viewport: dict[str, int]
) -> None:
    alice = new_context(viewport=viewport).new_page()
    bob = new_context(viewport=viewport).new_page()
    alice_name, bob_name = sign_up(alice), sign_up(bob)
    del bob

    if viewport is PHONE:
        alice.locator(".nav-toggle").click()  # the header's links behind Menu
    search = alice.locator("#player-search")
    search.fill(bob_name[:5])
    expect(alice.locator(f'#player-suggestions option[value="{bob_name}"]')).to_have_count(1)
    alice.screenshot(path=f"{output_path}/challenges/search-{viewport['width']}.png")
    assert alice.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    search.fill(bob_name)
    search.press("Enter")
    alice.wait_for_url(f"**/players/{bob_name}/")
    alice.get_by_role("button", name="Follow").click()
    expect(alice.locator("#followers")).to_have_text("1 follower")
    alice.goto("/")
    following = alice.locator("#following")
    expect(following.get_by_role("link", name=bob_name)).to_be_visible()
    shoot(alice, output_path, f"challenges/following-{viewport['width']}.png")
    assert violations(alice) == []
    assert alice_name
