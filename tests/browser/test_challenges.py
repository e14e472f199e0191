"""Challenges between people, in two browsers: alice challenges bob from his profile, bob's
bell counts it without a reload, he opens it and accepts (the game starts for both) or
declines (alice's page says so, live); bob's header inbox counts it without a reload and
declines it there with a reason alice reads; on a phone and a desktop. Then following and
the header's player search."""

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
    # A game never played: nothing to watch, replay or download.
    for page in (alice, bob):
        expect(page.locator("#watching")).to_be_hidden()
        expect(page.locator("#replay-link")).to_be_hidden()
        expect(page.locator("#sgf-link")).to_be_hidden()
    shoot(alice, output_path, f"challenges/declined-{viewport['width']}.png")


@VIEWPORTS
def test_the_header_inbox_counts_a_challenge_live_and_declines_it_with_a_reason(
    new_context: NewContext, output_path: str, viewport: dict[str, int]
) -> None:
    alice = new_context(viewport=viewport).new_page()
    bob = new_context(viewport=viewport).new_page()
    alice_name, bob_name = sign_up(alice), sign_up(bob)
    bob.goto(f"/players/{alice_name}/")  # any page: the inbox is the header's
    inbox = bob.locator("#inbox")
    expect(inbox.locator("#inbox-count")).to_be_hidden()
    challenge(alice, bob_name, output_path, viewport["width"])

    expect(inbox.locator("#inbox-count")).to_have_text(re.compile(r"^1\b"))  # no reload
    inbox.locator(".inbox-toggle").click()
    item = inbox.locator(".inbox-item")
    expect(item).to_have_count(1)
    expect(item.locator(".inbox-from")).to_have_text(alice_name)
    expect(item.locator(".inbox-game")).to_have_text("Othello 8\N{MULTIPLICATION SIGN}8 · No clock")
    accept = item.get_by_role("button", name="Accept")
    decline = item.get_by_role("button", name="Decline")
    reason = item.get_by_label("Why you decline")
    shoot(bob, output_path, f"challenges/inbox-{viewport['width']}.png")
    # On a phone too the list stays on the screen, its controls whole and large enough.
    for control in (accept, decline, reason):
        expect(control).to_be_visible()
        box = control.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        assert box["height"] >= 32
    assert bob.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert violations(bob) == []

    reason.select_option("too_fast")
    decline.click()
    expect(item).to_have_count(0)  # declined where it was: the page stays
    expect(inbox.locator("#inbox-count")).to_be_hidden()
    expect(inbox.locator("#inbox-empty")).to_be_visible()
    assert bob.url.endswith(f"/players/{alice_name}/")

    words = "This time control is too fast for me, please challenge again with a slower game."
    expect(alice.locator("#status")).to_have_text(f"{bob_name} declined the challenge: {words}")
    expect(alice.locator("#bell-count")).to_contain_text("1")
    alice.locator("#bell").click()
    expect(
        alice.get_by_role("link", name=re.compile(f"{bob_name} declined your challenge"))
    ).to_contain_text(words)
    assert alice.url.endswith("/notifications/")


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
