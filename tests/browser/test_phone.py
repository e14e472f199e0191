"""On a phone, what needs an answer is where the eye is: a take-back request sits with the
status under the board, not below the fold; the replay does not offer arrow keys to a
touch screen (the newcomer's round three, point 10)."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.game_page import create_game, join_game
from tests.browser.test_ratings import sign_up

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def test_a_take_back_request_shows_with_the_status_on_a_phone(new_context: NewContext) -> None:
    alice = create_game(
        new_context(**PHONE).new_page(), kind="othello", size=8, name="Alice", color="black"
    )
    bob = join_game(new_context(**PHONE).new_page(), alice.url, name="Bob")
    alice.point(alice.legal_points()[0]).tap()
    bob.wait_for_ply(1)
    alice.wait_for_ply(1)
    alice.page.click("#undo-button")

    allow = bob.page.locator("#undo-accept")
    expect(allow).to_be_visible()
    bob.page.evaluate("window.scrollTo(0, 0)")
    bob.status.scroll_into_view_if_needed()
    status, request = bob.status.bounding_box(), allow.bounding_box()
    assert status is not None and request is not None
    assert 0 < request["y"] - status["y"] < 250, "the request is right under the status"
    assert request["y"] + request["height"] <= 844 + bob.page.evaluate("window.scrollY")


def test_the_replay_offers_arrow_keys_only_where_there_are_keys(new_context: NewContext) -> None:
    game = create_game(new_context().new_page(), kind="othello", size=8, name="Alice")
    replay = game.url + "replay/"

    phone = new_context(**PHONE).new_page()
    phone.goto(replay)
    expect(phone.locator(".keys-help")).to_be_hidden()
    desktop = new_context(viewport={"width": 1280, "height": 800}).new_page()
    desktop.goto(replay)
    expect(desktop.locator(".keys-help")).to_be_visible()


@pytest.mark.parametrize("logged_in", [False, True], ids=["guest", "account"])
def test_the_header_is_one_line_on_a_phone_with_the_pages_behind_menu(
    new_context: NewContext, logged_in: bool
) -> None:
    page = new_context(**PHONE).new_page()
    if logged_in:
        sign_up(page, f"headed{uuid.uuid4().hex[:6]}")
    page.goto("/games/")
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] < 70, "brand, menu and account: one line"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    leaderboards = page.get_by_role("link", name="Leaderboards")
    expect(leaderboards).to_be_hidden()
    page.get_by_text("Menu", exact=True).tap()
    expect(leaderboards).to_be_visible()
    leaderboards.tap()
    page.wait_for_url("**/players/top/")
    expect(page.get_by_role("link", name="Leaderboards")).to_be_hidden()


def test_on_a_wide_screen_the_pages_are_in_the_header_without_menu(
    new_context: NewContext,
) -> None:
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto("/")
    expect(page.get_by_text("Menu", exact=True)).to_be_hidden()
    for name in ("Archive", "Leaderboards", "Bots", "Help"):
        expect(page.locator(".site-nav").get_by_role("link", name=name)).to_be_visible()
