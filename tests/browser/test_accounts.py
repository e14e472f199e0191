"""An account in the header: its name, a menu that works by mouse and keyboard, on a
phone and a desktop; the password pages look like the rest of the site."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.test_accessibility import violations

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "a long pass phrase"


def sign_up(page: Page) -> str:
    username = f"ann{uuid.uuid4().hex[:6]}"
    page.goto("/accounts/signup/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="email"]', f"{username}@example.org")
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    page.click('main button[type="submit"]')
    page.wait_for_url("**/")
    return username


def shoot(page: Page, directory: str, name: str) -> None:
    path = Path(directory) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_header_names_the_account_and_its_menu_works_by_keyboard(
    new_context: NewContext, output_path: str, viewport: dict[str, int]
) -> None:
    page = new_context(viewport=viewport).new_page()
    username = sign_up(page)
    expect(page.locator(".flash")).to_contain_text(f"Welcome, {username}!")
    toggle = page.locator(".account-toggle")
    expect(toggle).to_contain_text(username)
    items = page.locator(".account-menu-list")
    expect(items).to_be_hidden()

    toggle.focus()
    page.keyboard.press("Enter")
    expect(items).to_be_visible()
    box = items.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], "all on screen"
    shoot(page, output_path, f"accounts/menu-{viewport['width']}.png")
    found = violations(page)
    assert found == [], found
    page.keyboard.press("Escape")
    expect(items).to_be_hidden()
    expect(toggle).to_be_focused()

    page.keyboard.press("Space")
    expect(items).to_be_visible()
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Your profile")).to_be_focused()
    expect(page.get_by_role("link", name="Your profile")).to_have_attribute(
        "href", f"/players/{username}/"
    )
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Your games")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Notification settings")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Game settings")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="API tokens and bots")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Change password")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url("**/accounts/password_change/")
    expect(page.locator("h1")).to_have_text("Change your password")
    shoot(page, output_path, f"accounts/change-{viewport['width']}.png")
    assert violations(page) == []

    toggle.click()
    page.get_by_role("button", name="Log out").click()
    expect(page.locator(".account-toggle")).to_have_count(0)
    page.goto("/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    expect(page.locator("h1")).to_have_text("Reset your password")
    shoot(page, output_path, f"accounts/reset-{viewport['width']}.png")
    assert violations(page) == []
