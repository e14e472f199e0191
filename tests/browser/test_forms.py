"""A form sent twice does its work once: double-clicking "Create the game" makes one
game, and the button says it is working meanwhile (accounts.once, js/forms.js)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Route, expect

from tests.browser.game_page import GAME_URL

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]


@pytest.mark.parametrize(
    "viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}]
)
def test_a_double_click_on_create_makes_one_game_and_the_button_says_so(
    new_context: NewContext, viewport: dict[str, int]
) -> None:
    page = new_context(viewport=viewport).new_page()
    page.goto("/")
    page.fill('input[name="name"]', "Dee")
    posts: list[str] = []

    def counted(route: Route) -> None:
        posts.append(route.request.post_data or "")
        route.continue_()

    page.route("**/games/new/", counted)
    # What the button says once clicked, noted where it outlives the page's navigation.
    page.evaluate(
        """() => {
          const button = document.querySelector('#new-game-form button[type="submit"]');
          new MutationObserver(() => sessionStorage.setItem(
            "seen", `${button.textContent}|${button.disabled}`,
          )).observe(button, { attributes: true, childList: true, characterData: true });
        }"""
    )
    page.locator('#new-game-form button[type="submit"]').dblclick()
    page.wait_for_url(GAME_URL)
    assert page.evaluate("sessionStorage.getItem('seen')") == "Creating the game…|true"

    page.goto("/")
    expect(page.locator(".lobby-mine tbody tr")).to_have_count(1)
    assert len(posts) == 1, "the second click sent nothing"
    token = re.search(r"form_token=([^&]+)", posts[0])
    assert token is not None
