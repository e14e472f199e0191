"""Two accounts play a rated game: both pages show each player's change and new rating,
and the winner's profile draws the rating graph from 1500 to the new rating."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.game_page import GamePage, create_game, join_game

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
PASSWORD = "a long pass phrase 42"
CHANGE = re.compile(r"^\d+\? [+-]\d+$")  # "1662? +162": new rating, provisional, change


def sign_up(page: Page, username: str) -> None:
    page.goto("/accounts/signup/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="email"]', f"{username}@example.org")
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    page.locator('main form button[type="submit"]').click()
    page.wait_for_url(re.compile(r"/$"))


def rated_game(new_context: NewContext, **options: Any) -> tuple[GamePage, GamePage, str]:
    """Two new accounts, Alice and Bob, seated at a rated 4x4 Othello game (Alice Black),
    their contexts opened with ``options``; and Alice's username."""
    suffix = uuid.uuid4().hex[:6]
    alice_name, bob_name = f"alice{suffix}", f"bob{suffix}"
    alice_page, bob_page = new_context(**options).new_page(), new_context(**options).new_page()
    sign_up(alice_page, alice_name)
    sign_up(bob_page, bob_name)
    alice = create_game(
        alice_page,
        kind="othello",
        size=4,
        name=alice_name,
        clock={"clock": "fischer", "main_time": 300, "increment": 3},
        rated=True,
    )
    expect(alice.page.locator("#rated-tag")).to_have_text("Rated")
    return alice, join_game(bob_page, alice.url, name=bob_name), alice_name


def test_a_rated_game_moves_both_ratings_and_draws_the_graph(
    new_context: NewContext, output_path: str
) -> None:
    alice, bob, alice_name = rated_game(new_context)
    for view in (alice, bob):
        expect(view.player("black").locator(".player-rating")).to_have_text("1500?")

    play_first_legal(alice, ply=0)
    play_first_legal(bob, ply=1)
    bob.wait_for_ply(2)
    bob.page.click("#resign-button")
    bob.page.click("#resign-yes")

    for view in (alice, bob):
        black = view.player("black").locator(".player-rating")
        white = view.player("white").locator(".player-rating")
        expect(black).to_have_text(CHANGE)
        expect(black).to_contain_text("+")
        expect(white).to_contain_text("-")
    state = alice.server_state()
    assert state["ratings"]["black"]["change"] > 0 > state["ratings"]["white"]["change"]
    alice.screenshot(output_path, "rated-game-over.png")

    profile = alice.page
    profile.click('.player[data-color="black"] a.player-name')
    profile.wait_for_url(re.compile(rf"/players/{alice_name}/$"))
    card = profile.locator('.rating-card[data-category="othello4-blitz"]')
    # The graph: the rating before the game (1500), then after it.
    expect(card.locator("svg.rating-graph circle.point")).to_have_count(2)
    expect(card.locator(".rating-value strong")).to_have_text(re.compile(r"^\d+\?$"))
    expect(profile.locator("#results")).to_have_text("1 won, 0 lost, 0 drawn")
    profile.screenshot(path=f"{output_path}/profile.png", full_page=True)

    # On a phone: the seats with their ratings, the profile's cards and graph.
    for view in (bob.page, profile):
        view.set_viewport_size({"width": 390, "height": 844})
        width = view.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{view.url} scrolls sideways ({width} px)"
    bob.screenshot(output_path, "rated-game-over-phone.png")
    profile.screenshot(path=f"{output_path}/profile-phone.png", full_page=True)


def play_first_legal(view: GamePage, *, ply: int) -> None:
    view.wait_for_ply(ply)
    expect(view.board.locator(".hit.legal").first).to_be_attached()
    row, col = view.legal_points()[0]
    view.point((row, col)).click()
    view.wait_for_ply(ply + 1)
