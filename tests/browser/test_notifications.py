"""Notifications as two people see them in two browsers: the bell counts live what the other
one did (on the home page's socket and on any other page's own), marking read clears it
everywhere, and the home page moves a correspondence game to "Your move" without a reload,
the tab's title counting; on a phone and a desktop."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from gamerules.clock import TimeControl
from tests.browser.game_page import GamePage, create_game, join_game
from tests.browser.test_accounts import DESKTOP, PHONE, shoot, sign_up

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
ONE_DAY = TimeControl.correspondence(days=1).describe()
LIVE = 2_000
"""How soon an open page hears of a notification (docs/api/websocket.md: within 2 s), in ms."""


def correspondence_game(
    new_context: NewContext, viewport: dict[str, int]
) -> tuple[BrowserContext, GamePage, GamePage, str]:
    """Alice (black) and Bob, each signed up in a browser of their own, in a one-day
    correspondence game: Alice has moved, it is Bob's move. Alice's browser, both game
    pages and Bob's name."""
    alices = new_context(viewport=viewport)
    alice, bob = alices.new_page(), new_context(viewport=viewport).new_page()
    sign_up(alice)
    bob_name = sign_up(bob)
    alice_game = create_game(alice, kind="othello", size=8, name="", clock=ONE_DAY)
    bob_game = join_game(bob, alice_game.url, name="")
    play(alice_game, 0)
    return alices, alice_game, bob_game, bob_name


def play(game: GamePage, ply: int) -> None:
    """The player to move at ``ply`` plays the first move the page offers."""
    game.wait_for_ply(ply)
    game.point(game.legal_points()[0]).click()
    game.wait_for_ply(ply + 1)


def bell_listening(page: Page) -> None:
    expect(page.locator("#bell")).to_have_attribute("data-live", "1")


def unread(page: Page, n: int) -> None:
    """The bell and the tab's title count ``n`` unread (nothing shown for none)."""
    count = page.locator("#bell-count")
    if n:
        expect(count).to_be_visible(timeout=LIVE)
        expect(count).to_have_text(f"{n} unread", timeout=LIVE)
        expect(page).to_have_title(re.compile(rf"^\({n}\) "), timeout=LIVE)
    else:
        expect(count).to_be_hidden(timeout=LIVE)
        expect(page).not_to_have_title(re.compile(r"^\(\d+\) "), timeout=LIVE)
    expect(page.locator("#bell")).to_have_attribute("data-unread", str(n))


@VIEWPORTS
def test_the_bell_counts_live_and_marking_read_clears_it_everywhere(
    new_context: NewContext, output_path: str, viewport: dict[str, int]
) -> None:
    alices, alice_game, bob_game, bob_name = correspondence_game(new_context, viewport)
    home = alices.new_page()
    home.goto("/")  # the home page's socket carries the bell
    elsewhere = alice_game.page
    elsewhere.goto("/games/")  # any other page: the bell's own socket
    for page in (home, elsewhere):
        bell_listening(page)
        unread(page, 0)

    play(bob_game, 1)

    for page in (home, elsewhere):
        unread(page, 1)
        # The count takes no room the header's one line lacks: nothing wider than the screen.
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shoot(elsewhere, output_path, f"notifications/bell-{viewport['width']}.png")

    elsewhere.locator("#bell").click()
    elsewhere.wait_for_url("**/notifications/")
    item = elsewhere.locator("#notification-list li.unread")
    expect(item).to_have_count(1)
    expect(item.locator("a")).to_have_text(f"Your move against {bob_name} (Othello 8×8)")  # noqa: RUF001
    expect(item.locator("a")).to_have_attribute("href", re.compile(r"^/games/[^/]+/$"))
    shoot(elsewhere, output_path, f"notifications/list-{viewport['width']}.png")
    elsewhere.get_by_role("button", name="Mark 1 as read").click()

    expect(elsewhere.locator("#notification-list li.unread")).to_have_count(0)
    unread(elsewhere, 0)
    unread(home, 0)  # the other tab heard it


@VIEWPORTS
def test_the_home_page_shows_your_move_live_and_the_title_counts(
    new_context: NewContext, output_path: str, viewport: dict[str, int]
) -> None:
    alices, alice_game, bob_game, _ = correspondence_game(new_context, viewport)
    home = alices.new_page()
    home.goto("/")
    bell_listening(home)
    row = home.locator(".lobby-mine tr", has=home.locator(f'a[href="{game_path(alice_game)}"]'))
    expect(row).to_have_count(1)
    expect(row.locator(".your-move")).to_have_count(0)  # Bob's move: nothing to do yet

    play(bob_game, 1)

    expect(row.locator(".your-move")).to_have_text("Your move", timeout=LIVE)
    unread(home, 1)
    expect(home.locator(".lobby-mine tr").first).to_have_text(row.inner_text())  # first
    shoot(home, output_path, f"notifications/your-move-{viewport['width']}.png")

    # Alice moves in her game's tab: the home page's bell hears her notification is read.
    play(alice_game, 2)
    unread(home, 0)


def game_path(game: GamePage) -> str:
    match = re.search(r"/games/[^/]+/$", game.url)
    assert match, game.url
    return match.group(0)
