"""The clocks in the browser: both shown, the running one ticking, the flag from the
server ending the game on every page; the presence of each player."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.game_page import create_game, join_game, watch_game

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]


def test_the_running_clock_ticks_and_the_server_flags_the_game(new_context: NewContext) -> None:
    alice = create_game(
        new_context().new_page(),
        kind="othello",
        size=8,
        name="Alice",
        clock={"clock": "absolute", "main_time": 4},
    )
    expect(alice.page.locator("#time-control")).to_have_text("4 s in all (absolute)")
    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    spectator = watch_game(new_context().new_page(), alice.url)

    black_clock = alice.player("black").locator(".player-clock")
    expect(black_clock).to_have_class(re.compile(r"\brunning\b"))
    expect(alice.player("white").locator(".clock-time")).to_have_text("0:04.0")
    first = black_clock.locator(".clock-time").inner_text()
    expect(black_clock.locator(".clock-time")).not_to_have_text(first)  # it ticks
    expect(black_clock).to_have_class(re.compile(r"\blow\b"))

    for view in (alice, bob, spectator):
        expect(view.status).to_have_text("White wins on time", timeout=10_000)
        expect(view.player("black").locator(".clock-time")).to_have_text("0:00.0")
        expect(view.player("black").locator(".player-clock")).not_to_have_class(
            re.compile(r"\brunning\b")
        )
    expect(alice.page.locator("#outcome")).to_have_text("You lost.")
    expect(bob.page.locator("#outcome")).to_have_text("You won.")


def test_each_player_is_shown_online_or_away(new_context: NewContext) -> None:
    alice = create_game(new_context().new_page(), kind="go", size=9, name="Alice")
    bob_context = new_context()
    bob = join_game(bob_context.new_page(), alice.url, name="Bob")
    expect(alice.player("white")).to_have_class(re.compile(r"\bonline\b"))
    expect(alice.page).to_have_title(re.compile(r"^● Your move"))
    expect(bob.page).to_have_title(re.compile(r"^Alice to move"))

    bob_context.close()

    expect(alice.player("white")).to_have_class(re.compile(r"\baway\b"))
    expect(alice.player("white").locator(".presence")).to_have_attribute("title", "Bob is away")
    expect(alice.page.locator("#claim")).to_be_visible()
    expect(alice.page.locator("#claim-button")).to_be_disabled()
