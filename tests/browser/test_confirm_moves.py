"""Move confirmation: with it on, a tap or a click places a stone that waits, and Confirm
plays it (Cancel takes it back; the keyboard reaches both). Not chosen, it is on in
correspondence games on a touch screen and off elsewhere; an account's choice
(``confirm_moves``: ``never``, ``correspondence``, ``always``) follows it from its
settings page, or from the game page's menu, to every device."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from gamerules.clock import TimeControl
from tests.browser.game_page import GamePage, create_game, join_game
from tests.browser.test_accessibility import violations
from tests.browser.test_accounts import shoot, sign_up
from tests.browser.test_premoves import D3, SCREENS

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
ONE_DAY = TimeControl.correspondence(days=1).describe()
BLITZ = TimeControl.fischer(main_time=300, increment=3).describe()


def phone(new_context: NewContext) -> Page:
    return new_context(**SCREENS["phone"]).new_page()


def desktop(new_context: NewContext) -> Page:
    return new_context(**SCREENS["desktop"]).new_page()


def held(view: GamePage):
    return view.board.locator(".preview .stone.pending")


def test_on_a_phone_a_correspondence_move_waits_for_confirm(
    new_context: NewContext, output_path: str
) -> None:
    alice = create_game(phone(new_context), kind="othello", size=8, name="Alice", clock=ONE_DAY)
    join_game(phone(new_context), alice.url, name="Bob")
    expect(alice.status).to_have_text("Your move.")
    confirm = alice.page.locator("#move-confirm")
    expect(alice.page.locator("#confirm-moves")).to_have_value("correspondence")  # not chosen

    alice.point(D3).tap()
    expect(held(alice)).to_have_count(1)
    expect(confirm).to_be_visible()
    expect(alice.page.locator("#move-confirm-text")).to_have_text("Play d3?")
    alice.screenshot(output_path, "confirm/phone-held.png")
    assert alice.server_state()["ply"] == 0  # nothing sent yet
    assert violations(alice.page) == []

    alice.page.locator("#move-confirm-no").tap()  # Cancel
    expect(held(alice)).to_have_count(0)
    expect(confirm).to_be_hidden()
    assert alice.server_state()["ply"] == 0

    alice.point((4, 5)).tap()  # f5, then changes her mind: c4
    expect(alice.page.locator("#move-confirm-text")).to_have_text("Play f5?")
    alice.point((3, 2)).tap()
    expect(alice.page.locator("#move-confirm-text")).to_have_text("Play c4?")
    alice.point((3, 2)).tap()  # a second tap on it plays nothing: Confirm does
    assert alice.server_state()["ply"] == 0
    alice.page.locator("#move-confirm-yes").tap()
    alice.wait_for_ply(1)
    expect(confirm).to_be_hidden()
    assert alice.server_state()["moves"][0]["point"] == [3, 2]


def test_a_live_game_on_a_phone_plays_at_once_when_nothing_is_chosen(
    new_context: NewContext,
) -> None:
    alice = create_game(phone(new_context), kind="othello", size=8, name="Alice", clock=BLITZ)
    join_game(phone(new_context), alice.url, name="Bob")
    expect(alice.status).to_have_text("Your move.")
    alice.point(D3).tap()
    alice.wait_for_ply(1)
    expect(alice.page.locator("#move-confirm")).to_be_hidden()


def test_an_account_that_chose_never_plays_at_once_on_its_phone(
    new_context: NewContext, output_path: str
) -> None:
    alice = phone(new_context)
    sign_up(alice)
    alice.goto("/accounts/settings/")
    expect(alice.locator("#confirm-moves-unset")).to_be_visible()
    alice.locator('input[name="confirm_moves"][value="never"]').check()
    alice.locator('main button[type="submit"]').tap()
    expect(alice.locator(".flash")).to_have_text("Your game settings are saved.")
    expect(alice.locator('input[name="confirm_moves"][value="never"]')).to_be_checked()
    shoot(alice, output_path, "confirm/settings-phone.png")
    assert violations(alice) == []

    game = create_game(alice, kind="othello", size=8, name="", clock=ONE_DAY)
    join_game(phone(new_context), game.url, name="Bob")
    expect(game.status).to_have_text("Your move.")
    expect(alice.locator("#confirm-moves")).to_have_value("never")
    game.point(D3).tap()
    game.wait_for_ply(1)
    expect(alice.locator("#move-confirm")).to_be_hidden()


def test_always_asks_on_a_desktop_too_and_the_keyboard_confirms(
    new_context: NewContext, output_path: str
) -> None:
    alices = new_context(**SCREENS["desktop"])
    alice = alices.new_page()
    sign_up(alice)
    game = create_game(alice, kind="othello", size=8, name="", clock=BLITZ)
    join_game(desktop(new_context), game.url, name="Bob")
    expect(game.status).to_have_text("Your move.")
    menu = alice.locator("#confirm-moves")
    expect(menu).to_have_value("never")  # a mouse, not chosen: never

    # Chosen on the game page: kept for the account, on every page and device after.
    with alice.expect_response("**/accounts/settings/") as saved:
        menu.select_option("always")
    assert saved.value.ok
    kept = alice.request.get("/accounts/settings/", headers={"Accept": "application/json"})
    assert kept.json() == {"confirm_moves": "always"}

    # The keyboard: Enter on the board holds the stone, Tab reaches Confirm, Enter plays.
    board = game.board
    board.focus()
    for key in ("ArrowUp", "Enter"):
        alice.keyboard.press(key)  # the cursor starts on d4: up to d3
    expect(alice.locator("#move-confirm-text")).to_have_text("Play d3?")
    expect(held(game)).to_have_count(1)
    game.screenshot(output_path, "confirm/desktop-held.png")
    alice.keyboard.press("Escape")
    expect(alice.locator("#move-confirm")).to_be_hidden()
    alice.keyboard.press("Enter")
    expect(alice.locator("#move-confirm")).to_be_visible()
    alice.keyboard.press("Tab")
    expect(alice.locator("#move-confirm-yes")).to_be_focused()
    alice.keyboard.press("Enter")
    game.wait_for_ply(1)
    assert game.server_state()["moves"][0]["point"] == list(D3)

    # Another page of the same account: the choice came with it.
    again = alices.new_page()
    again.goto(game.url)
    expect(again.locator("#confirm-moves")).to_have_value("always")
