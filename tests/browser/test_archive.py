"""The archive on a 390 px phone: every game's row readable, no sideways scrolling."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.game_page import create_game

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
PHONE = {"width": 390, "height": 844}


def test_the_archive_stacks_each_game_on_a_phone(new_context: NewContext, output_path: str) -> None:
    context = new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    create_game(page, kind="go", size=9, name="A rather long player name")
    page.goto("/games/")

    row = page.locator("tr[data-game]").first
    moves = row.locator('td[data-label="Moves"]')
    expect(moves).to_have_text("0")
    label = moves.evaluate("td => getComputedStyle(td, '::before').content")
    assert label == '"Moves: "', label  # the cell says what it is
    for cell in row.locator("td").all():
        box = cell.bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"], cell.inner_text()
    replay = row.get_by_role("link", name="Replay")
    expect(replay).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=f"{output_path}/archive/phone.png", full_page=True)
