"""One name per player, walked as the newcomer who found it broken: logged in as alice,
nothing she types seats her as bob_w; a guest typing bob_w is told the name is taken;
the game page, the home page, the archive and both profiles show alice as alice."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.game_page import create_game, join_game
from tests.browser.test_ratings import play_first_legal, sign_up

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]


def test_alice_never_appears_as_bob_anywhere(new_context: NewContext, output_path: str) -> None:
    suffix = uuid.uuid4().hex[:6]
    alice_name, bob_name = f"alice{suffix}", f"bob_w{suffix}"
    alice_page, bob_page, guest_page = (new_context().new_page() for _ in range(3))
    sign_up(alice_page, alice_name)
    sign_up(bob_page, bob_name)

    # The guest types bob's name: refused, the form says why beside the field.
    guest_page.goto("/")
    guest_page.fill('input[name="name"]', bob_name.upper())
    guest_page.click('#new-game-form button[type="submit"]')
    expect(guest_page.locator("#new-game-form")).to_contain_text("belongs to an account")

    # Alice has no name field to type bob's name into: she plays as herself.
    alice_page.goto("/")
    expect(alice_page.locator('#new-game-form input[name="name"]')).to_have_count(0)
    expect(alice_page.locator("#playing-as")).to_contain_text(alice_name)
    alice = create_game(
        alice_page,
        kind="othello",
        size=4,
        color="black",
        name=bob_name,
        clock={"clock": "fischer", "main_time": 300, "increment": 3},
        rated=True,
    )
    bob = join_game(bob_page, alice.url, name=alice_name)
    for view in (alice, bob):
        expect(view.player("black").locator(".player-name")).to_contain_text(alice_name)
        expect(view.player("white").locator(".player-name")).to_contain_text(bob_name)
    play_first_legal(alice, ply=0)
    play_first_legal(bob, ply=1)
    bob.wait_for_ply(2)
    bob.page.click("#resign-button")
    bob.page.click("#resign-yes")
    expect(alice.page.locator("#status")).to_contain_text(re.compile("won|wins", re.I))
    alice.screenshot(output_path, "names/game.png")

    page: Page = guest_page
    page.goto(f"/games/?player={alice_name}")
    rows = page.locator("main table tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text(alice_name)
    expect(rows.first).to_contain_text(bob_name)
    page.goto(f"/games/?player={bob_name}")
    expect(page.locator("main table tbody tr")).to_have_count(1)

    page.goto(f"/players/{alice_name}/")
    expect(page.locator("main")).to_contain_text(bob_name)
    expect(page.locator("main")).not_to_contain_text(f"{bob_name} (Black)")
    page.goto(f"/players/{bob_name}/")
    expect(page.locator("main")).to_contain_text(alice_name)
    page.screenshot(path=f"{output_path}/names/profile.png", full_page=True)
