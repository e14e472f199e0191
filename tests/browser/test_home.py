"""The home page of a player with games going: the games waiting for their move come first,
above the pools and the create form, on a phone's first screen as on a desktop's; a game
joins them live when the opponent moves."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from gamerules.clock import TimeControl
from tests.browser.game_page import create_game, join_game
from tests.browser.test_accounts import DESKTOP, PHONE, shoot, sign_up
from tests.browser.test_notifications import (
    LIVE,
    bell_listening,
    correspondence_game,
    game_path,
    play,
)

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
THREE_DAYS = TimeControl.correspondence(days=3).describe()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_games_waiting_for_your_move_are_on_the_first_screen(
    new_context: NewContext, output_path: str, viewport: dict[str, int]
) -> None:
    touch = {"is_mobile": True, "has_touch": True} if viewport == PHONE else {}
    alice = new_context(viewport=viewport, **touch).new_page()
    bob = new_context(viewport=viewport, **touch).new_page()
    sign_up(alice)
    bob_name = sign_up(bob)
    game = create_game(alice, kind="othello", size=8, name="", clock=THREE_DAYS)
    join_game(bob, game.url, name="")  # Alice plays Black: her move

    alice.goto("/")
    yours = alice.locator("#your-move")
    expect(yours).to_be_visible()
    entry = yours.locator("li")
    expect(entry).to_have_count(1)
    expect(entry.locator("a")).to_have_text(f"Othello 8×8 against {bob_name}")  # noqa: RUF001
    expect(entry).to_contain_text("2 days, 23 hours left")
    first, pools, form = (
        alice.locator(selector).bounding_box()
        for selector in ("#your-move", "#pairing", "#new-game-form")
    )
    assert first is not None and pools is not None and form is not None
    assert first["y"] + first["height"] <= viewport["height"]  # seen without scrolling
    assert first["y"] < pools["y"] and first["y"] < form["y"]
    shoot(alice, output_path, f"home/your-move-{viewport['width']}.png")

    entry.locator("a").click()
    alice.wait_for_url(game.url)

    # Bob's home page: nothing waits for him, nothing is shown.
    bob.goto("/")
    expect(bob.locator("#your-move")).to_be_hidden()


def test_a_game_joins_your_move_live_when_the_opponent_moves(new_context: NewContext) -> None:
    alices, alice_game, bob_game, bob_name = correspondence_game(new_context, DESKTOP)
    home = alices.new_page()
    home.goto("/")
    bell_listening(home)
    expect(home.locator("#your-move")).to_be_hidden()

    play(bob_game, 1)

    entry = home.locator("#your-move li")
    expect(entry).to_have_count(1, timeout=LIVE)
    expect(home.locator("#your-move")).to_be_visible()
    expect(entry.locator("a")).to_have_text(re.compile(rf"^Your move against {bob_name}"))
    assert entry.locator("a").get_attribute("href") == game_path(alice_game)
