"""The lists of games on a 390 px phone (the archive, the home page): every row readable, no
sideways scrolling."""

from __future__ import annotations

import re
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


def test_the_home_pages_lists_stack_on_a_phone(new_context: NewContext, output_path: str) -> None:
    carol = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    create_game(carol, kind="go", size=19, name="Carol with a long name")
    dave = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    create_game(dave, kind="othello", size=8, name="Dave")
    carol.goto("/")

    open_row = carol.locator(".lobby-open tr", has_text="Dave")
    join = open_row.get_by_role("button", name="Join")
    expect(join).to_be_visible()
    for cell in [*open_row.locator("td").all(), *carol.locator(".lobby-mine td").all()]:
        box = cell.bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"], cell.inner_text()
    assert carol.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Each game reads down, a line each, instead of four squeezed columns.
    boxes = [cell.bounding_box() for cell in carol.locator(".lobby-mine td").all()]
    tops = [box["y"] for box in boxes if box is not None]
    assert len(tops) == 4 and tops == sorted(set(tops)), tops
    carol.screenshot(path=f"{output_path}/home/phone.png", full_page=True)
    join.tap()  # Carol's name is filled in: she takes Dave's game
    expect(carol).to_have_url(re.compile(r"/games/[^/]+/$"))
    expect(carol.locator("#game")).to_have_attribute("data-you", "white")
