# ruff: noqa: RUF001 (the page writes board sizes with the multiplication sign)
"""The home page's pools: two people click the same pool and land on the same game; the
seek's status, its window and Cancel; a phone shows the grid without sideways scrolling."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
GAME_URL = re.compile(r"/games/[\w-]+/$")


def pool(page: Page, label: str, game: str) -> object:
    return page.locator("#pools .pool").filter(has_text=label).filter(has_text=game)


def test_two_people_click_the_same_pool_and_land_on_the_same_game(
    new_context: NewContext, base_url: str
) -> None:
    ann = new_context(viewport=DESKTOP).new_page()
    bob = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    for page in (ann, bob):
        page.goto(base_url + "/")
    ann.locator("#pools .pool").filter(has_text="5m + 5×10s").click()
    expect(ann.locator("#seek-text")).to_contain_text("Looking for an opponent… 0:0")
    expect(ann.locator("#seek-details")).to_contain_text(
        "Go 9×9, 5 min + 5 x 10 s (byo-yomi), casual"
    )
    # 1500 +- (200 + 20 a second waited)
    expect(ann.locator("#seek-details")).to_contain_text(re.compile(r"rated 1[23]\d0-1[67]\d0"))
    # Bob's page counts Ann (the pairing loop sends the counts within a second).
    bob_button = bob.locator("#pools .pool").filter(has_text="5m + 5×10s")
    expect(bob_button).to_contain_text("1 waiting")
    bob_button.tap()
    ann.wait_for_url(GAME_URL)
    bob.wait_for_url(GAME_URL)
    assert ann.url == bob.url
    expect(ann.locator("#paired-note")).to_contain_text("Paired by the casual Go 9×9")
    expect(ann.locator("#paired-note")).to_contain_text("1500")
    expect(bob.locator(".player-name").first).to_have_text("Guest")


def test_a_seek_is_cancelled_and_the_window_widens(new_context: NewContext, base_url: str) -> None:
    page = new_context(viewport=DESKTOP).new_page()
    page.goto(base_url + "/")
    page.locator("#custom-seek summary").click()
    page.select_option("#seek-kind", "go")
    page.select_option("#seek-size", "13")
    page.select_option("#seek-clock", "absolute")
    page.fill("#seek-main_minutes", "12")
    page.fill("#seek-main_seconds", "57")
    page.get_by_role("button", name="Seek", exact=True).click()
    expect(page.locator("#seek-details")).to_contain_text(
        "Go 13×13, 12 min 57 s in all (absolute), casual"
    )
    expect(page.locator("#seek-text")).to_contain_text("0:02", timeout=5000)
    expect(page.locator("#seek-details")).to_contain_text(re.compile(r"rated 1[12]\d0-1[78]\d0"))
    page.get_by_role("button", name="Cancel").click()
    expect(page.locator("#seek-status")).to_be_hidden()
    expect(page.locator("#pools")).to_be_visible()


def test_the_pools_on_a_phone_and_a_desktop(
    new_context: NewContext, base_url: str, tmp_path: Path
) -> None:
    for viewport in (PHONE, DESKTOP):
        page = new_context(viewport=viewport).new_page()
        page.goto(base_url + "/")
        expect(page.locator("#pools .pool")).to_have_count(10)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], "no sideways scrolling"
        page.screenshot(path=str(tmp_path / f"pools-{viewport['width']}.png"))


def test_seek_again_from_a_called_off_game_seeks_at_once(
    new_context: NewContext, base_url: str
) -> None:
    """The game page's "Seek again in this pool" (shown once a paired game is aborted)
    links home with the pool's fields: the page seeks at once, and forgets the query."""
    page = new_context(viewport=PHONE).new_page()
    page.goto(
        base_url + "/?seek=again&kind=go&size=9&clock=byoyomi&main_time=300&periods=5"
        "&period_time=10&rated=0"
    )
    expect(page.locator("#seek-text")).to_contain_text("Looking for an opponent… 0:0")
    expect(page.locator("#seek-details")).to_contain_text(
        "Go 9×9, 5 min + 5 x 10 s (byo-yomi), casual"
    )
    assert page.evaluate("location.search") == ""
    page.get_by_role("button", name="Cancel").click()
    expect(page.locator("#pools")).to_be_visible()


def test_a_reload_while_seeking_keeps_the_seek_and_the_time_waited(
    new_context: NewContext, base_url: str
) -> None:
    """docs/api/websocket.md, "The lobby": a seek outlives its page by 5 s; the page that loads
    meanwhile says it is still looking, with the time already waited."""
    page = new_context(viewport=DESKTOP).new_page()
    watcher = new_context(viewport=PHONE).new_page()
    page.goto(base_url + "/")
    watcher.goto(base_url + "/")
    page.locator("#pools .pool").filter(has_text="13×13").click()
    expect(page.locator("#seek-text")).to_contain_text("0:02", timeout=5000)

    page.reload()

    expect(page.locator("#seek-status")).to_be_visible()
    expect(page.locator("#seek-text")).to_contain_text(
        re.compile(r"Looking for an opponent… 0:0[2-9]")
    )
    expect(page.locator("#seek-picker")).to_be_hidden()
    waiting = watcher.locator("#pools .pool").filter(has_text="13×13")
    expect(waiting).to_contain_text("1 waiting")
    page.wait_for_timeout(6000)  # past the 5 s a reload has: the seek was kept
    expect(waiting).to_contain_text("1 waiting")


def test_the_custom_seek_speaks_the_create_forms_words(
    new_context: NewContext, base_url: str
) -> None:
    """Sizes in order, the main time in minutes and seconds, errors in words."""
    page = new_context(viewport=PHONE).new_page()
    page.goto(base_url + "/")
    page.locator("#custom-seek summary").click()
    page.select_option("#seek-kind", "go")
    sizes = page.locator("#seek-size option").all_text_contents()
    assert sizes == [f"{n}×{n}" for n in range(3, 20, 2)]
    page.select_option("#seek-clock", "fischer")
    page.fill("#seek-main_minutes", "")
    page.fill("#seek-main_seconds", "")
    page.get_by_role("button", name="Seek", exact=True).click()
    expect(page.locator("#seek-error")).to_have_text("Main time is needed for a Fischer clock.")
    page.fill("#seek-range-low", "1900")
    page.fill("#seek-range-high", "1200")
    page.fill("#seek-main_minutes", "2")
    page.get_by_role("button", name="Seek", exact=True).click()
    expect(page.locator("#seek-error")).to_contain_text("the lowest first")
    page.fill("#seek-range-low", "")
    page.fill("#seek-range-high", "")
    page.fill("#seek-increment", "5")
    page.get_by_role("button", name="Seek", exact=True).click()
    expect(page.locator("#seek-details")).to_contain_text(
        "Go 19×19, 2 min, +5 s per move (Fischer), casual"
    )
    expect(page.locator("#seek-error")).to_be_hidden()
