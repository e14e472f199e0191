"""The words the pages use say what they mean: the clock's system and its increment per
move, a pass with the player's name, the count's dead stones by whom they count for, and
the archive's link to a game of your own in progress."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.game_page import create_game, join_game

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
SYSTEM = re.compile(r"\((Fischer|absolute|byo-yomi|Canadian|correspondence)\)$")


def test_every_clock_preset_names_its_system(new_context: NewContext, output_path: str) -> None:
    page = new_context().new_page()
    page.goto("/")
    for kind in ("othello", "go"):
        page.check(f'input[name="kind"][value="{kind}"]')
        labels = page.locator("#clock-preset option").all_inner_texts()
        timed = [label for label in labels if label not in ("No clock", "Custom…")]
        assert timed, labels
        assert [label for label in timed if not SYSTEM.search(label)] == []

    alice = create_game(
        page, kind="othello", size=8, name="Alice", clock="5 min, +3 s per move (Fischer)"
    )
    expect(page.locator("#time-control")).to_have_text("5 min, +3 s per move (Fischer)")
    alice.screenshot(output_path, "words/fischer.png")


def test_a_pass_is_told_with_the_players_name_and_the_count_by_whom_it_counts_for(
    new_context: NewContext, output_path: str
) -> None:
    alice = create_game(new_context().new_page(), kind="go", size=9, name="Alice")
    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    alice.page.click("#pass-button")
    expect(bob.notice).to_have_text("Alice passes.")
    expect(alice.notice).to_have_text("You pass.")
    bob.page.click("#pass-button")
    for view in (alice, bob):
        dead = view.page.locator('#count-table tr[data-field="dead"] th')
        expect(dead).to_have_text("Opponent's dead stones")
    alice.screenshot(output_path, "words/count.png")


def test_the_archive_offers_to_play_your_own_game_and_to_watch_others(
    new_context: NewContext,
) -> None:
    alice = create_game(new_context().new_page(), kind="othello", size=8, name="Alice")
    join_game(new_context().new_page(), alice.url, name="Bob")
    game_id = alice.url.rstrip("/").rsplit("/", 1)[1]
    carol = new_context().new_page()
    for page, word in ((alice.page, "Play"), (carol, "Watch")):
        page.goto("/games/")
        links = page.locator(f'tr[data-game="{game_id}"] td.links a')
        expect(links.first).to_have_text(word)
