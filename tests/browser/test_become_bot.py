"""Becoming a bot is for good: the tokens page asks for a confirmation that says so, and
links to how a bot is run (the newcomer found it irreversible in one click)."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.test_ratings import sign_up

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]


@pytest.mark.parametrize(
    "viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}]
)
def test_becoming_a_bot_asks_first_and_says_it_is_for_good(
    new_context: NewContext, viewport: dict[str, int]
) -> None:
    page = new_context(viewport=viewport).new_page()
    name = f"robo{uuid.uuid4().hex[:6]}"
    sign_up(page, name)
    page.goto("/account/tokens/")
    section = page.locator("#bot-heading").locator("..")
    expect(section).to_contain_text(f"{name} will be a bot for ever")
    expect(section.get_by_role("link", name="how to run your own bot")).to_have_attribute(
        "href", "/help/bots/"
    )

    button = section.get_by_role("button", name=f"Make {name} a bot for good")
    button.click()  # the box is not ticked: the browser keeps the form
    expect(page.locator("h1 .bot-badge")).to_have_count(0)
    section.get_by_role("checkbox").check()
    button.click()

    expect(page.locator(".flash")).to_contain_text("This account is now a bot.")
    expect(page.locator("h1 .bot-badge")).to_have_text("BOT")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]
