"""Moderation in the browser, on a desktop and on a phone: a player reports a chat line
from its menu, a staff member finds it at the desk and mutes its author with a reason,
and the muted player's next line is refused, saying until when; the reporter is told."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import DaphneServer
from tests.browser.game_page import GamePage, create_game, join_game
from tests.browser.test_accessibility import violations
from tests.browser.test_accounts import DESKTOP, PHONE, shoot, sign_up
from tests.browser.test_admin import PASSWORD, create_superuser
from tests.browser.test_table import say

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
SCREENS = pytest.mark.parametrize(
    "screen",
    [
        {"viewport": DESKTOP},
        {"viewport": PHONE, "is_mobile": True, "has_touch": True},
    ],
    ids=["desktop", "phone"],
)


@pytest.fixture
def browser_context_args(
    browser_context_args: dict[str, Any], own_server: DaphneServer
) -> dict[str, Any]:
    """Every browser of these tests on the test's own server, where the staff account is
    made (``create_superuser``)."""
    create_superuser(own_server)
    return {**browser_context_args, "base_url": own_server.url}


def log_in(page: Page, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', password)
    page.click('main button[type="submit"]')
    page.wait_for_url("**/")


def fits(page: Page) -> None:
    """Nothing of the page is wider than its screen."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@SCREENS
def test_a_reported_chat_line_is_acted_on_from_the_desk_and_the_mute_refuses_the_next(
    new_context: NewContext, output_path: str, screen: dict[str, object]
) -> None:
    folder = f"{output_path}/moderation/{screen['viewport']['width']}"  # type: ignore[index]
    alice_page = new_context(**screen).new_page()
    bob_page = new_context(**screen).new_page()
    sign_up(alice_page)
    bob = sign_up(bob_page)
    alice = create_game(alice_page, kind="othello", size=8, name="")
    bob_game = join_game(bob_page, alice.url, name="")
    say(bob_game, "you play like a potato")

    # Alice reports the line from its menu.
    line = alice.page.locator("#chat-list li", has_text="you play like a potato")
    expect(line).to_be_visible()
    expect(bob_game.page.locator("#chat-list .chat-menu")).to_have_count(0)  # not one's own
    line.locator(".chat-menu summary").click()
    alice.screenshot(folder, "chat-menu.png")
    line.get_by_role("button", name="Report").click()
    dialog = alice.page.locator("dialog.report-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading")).to_have_text(f"Report {bob}")
    expect(dialog.locator("#report-line")).to_have_text(f"{bob}: you play like a potato")
    dialog.get_by_label("Why?").select_option("abuse")
    dialog.get_by_label("What happened (optional)").fill("Insults after my first move.")
    alice.screenshot(folder, "report-dialog.png")
    assert violations(alice.page) == []
    box = dialog.bounding_box()
    assert box is not None and box["x"] >= 0
    assert box["x"] + box["width"] <= screen["viewport"]["width"]  # type: ignore[index]
    dialog.get_by_role("button", name="Send the report").click()
    expect(dialog.locator("#report-status")).to_have_text(
        "Thank you: your report went to the staff."
    )
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()

    # The staff member finds it at the desk and mutes Bob.
    staff = new_context(**screen).new_page()
    log_in(staff, "admin", PASSWORD)
    staff.goto("/moderation/")
    case = staff.locator(f"#case-{bob}")
    expect(case).to_contain_text("you play like a potato")
    expect(case).to_contain_text("Insults after my first move.")
    expect(case).to_contain_text("Insults or abuse")
    fits(staff)
    found = violations(staff)
    assert found == [], found
    shoot(staff, folder, "desk.png")
    case.get_by_label("Action").select_option("mute")
    case.get_by_label("Hours of a mute").fill("2")
    case.get_by_label("Reason (kept in the log)").fill("insults in a game's chat")
    case.get_by_role("button", name="Act").click()
    staff.wait_for_url("**/moderation/")
    expect(staff.locator(".flash")).to_contain_text(f"Done: Mute, {bob}.")
    expect(staff.locator("#no-reports")).to_be_visible()
    expect(staff.locator("#log")).to_contain_text("insults in a game's chat")
    fits(staff)
    shoot(staff, folder, "desk-after.png")

    # Bob's next line is refused, saying until when; Alice never hears it.
    say(bob_game, "potato again")
    expect(bob_game.toast).to_be_visible()
    expect(bob_game.toast).to_have_text(re.compile(r"^you are muted until .+ UTC$"))
    bob_game.screenshot(folder, "muted.png")
    expect(alice.page.locator("#chat-list li")).to_have_count(1)

    # Alice is told that staff acted on her report.
    expect(alice.page.locator("#bell-count")).to_have_text("1 unread", timeout=5_000)
    alice.page.locator("#bell").click()
    alice.page.wait_for_url("**/notifications/")
    expect(alice.page.locator("#notification-list")).to_contain_text(
        f"Staff acted on your report of {bob}. Thank you."
    )


def test_the_profile_and_the_game_page_offer_report(
    new_context: NewContext, output_path: str
) -> None:
    alice_page, bob_page = new_context().new_page(), new_context().new_page()
    sign_up(alice_page)
    bob = sign_up(bob_page)
    alice: GamePage = create_game(alice_page, kind="othello", size=8, name="")
    join_game(bob_page, alice.url, name="")

    alice.page.reload()
    alice.page.get_by_role("button", name=f"Report {bob}").click()
    dialog = alice.page.locator("dialog.report-dialog")
    expect(dialog.locator("#report-line")).to_be_hidden()
    dialog.get_by_label("Why?").select_option("name")
    dialog.get_by_role("button", name="Send the report").click()
    expect(dialog.locator("#report-status")).to_have_text(
        "Thank you: your report went to the staff."
    )

    alice.page.goto(f"/players/{bob}/")
    alice.page.locator("#report-button").click()
    dialog = alice.page.locator("dialog.report-dialog")
    expect(dialog.get_by_role("heading")).to_have_text(f"Report {bob}")
    dialog.get_by_label("Why?").select_option("name")
    dialog.get_by_role("button", name="Send the report").click()
    # The same report again: the staff have it already, and the page says thanks.
    expect(dialog.locator("#report-status")).to_have_text(
        "Thank you: your report went to the staff."
    )
    shoot(alice.page, output_path, "moderation/profile-report.png")
    dialog.get_by_role("button", name="Close").click()
    dialog_again = alice.page.locator("#report-button")
    expect(dialog_again).to_be_visible()
