"""Two people, two browsers: a whole game of Othello, a resignation, the invite link."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.game_page import (
    GAME_URL,
    GamePage,
    create_game,
    join_game,
    result_sentence,
    watch_game,
)

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
TO_MOVE = re.compile(r"\bto-move\b")


def seat_two_players(new_context: NewContext, **options: Any) -> tuple[GamePage, GamePage]:
    """Alice creates a game as Black in one browser; Bob joins it by the link in another."""
    alice = create_game(new_context().new_page(), name="Alice", color="black", **options)
    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    expect(alice.player("white").locator(".player-name")).to_have_text("Bob")
    return alice, bob


def test_a_whole_othello_game_between_two_browsers(new_context: NewContext, output_path: str):
    alice = create_game(new_context().new_page(), kind="othello", size=4, name="Alice")
    expect(alice.status).to_have_text("Waiting for an opponent to join.")
    expect(alice.page.locator("#invite")).to_be_visible()
    expect(alice.page.locator("#pass-button")).to_have_count(0)

    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    for view in (alice, bob):
        expect(view.player("black").locator(".player-name")).to_have_text("Alice")
        expect(view.player("white").locator(".player-name")).to_have_text("Bob")
        expect(view.player("black")).to_have_class(TO_MOVE)
        expect(view.player("white")).not_to_have_class(TO_MOVE)
    expect(alice.page.locator("#invite")).to_be_hidden()
    expect(alice.player("black").locator(".player-tags")).to_have_text("you")
    expect(bob.player("white").locator(".player-tags")).to_have_text("you")
    expect(alice.status).to_have_text("Your move.")
    expect(bob.status).to_have_text("Waiting for Alice…")

    seats = {"black": alice, "white": bob}
    state = alice.server_state()
    automatic_passes = 0
    while state["status"] == "active":
        for view in seats.values():
            view.wait_for_ply(state["ply"])
            assert view.drawn_board() == state["board"]
        mover = seats[state["to_move"]]
        waiting = seats["white" if state["to_move"] == "black" else "black"]
        assert mover.legal_points() == state["legal"]
        assert waiting.legal_points() == []
        last = state["last_move"]
        if last and last["action"] == "pass":
            automatic_passes += 1
            passer = state["players"][last["color"]]
            for color, view in seats.items():
                expect(view.notice).to_have_text(
                    "You have no move and pass."
                    if color == last["color"]
                    else f"{passer} has no move and passes."
                )
        legal = mover.legal_points()
        target = mover.point(legal[len(legal) // 2])
        if state["ply"] == 0:
            # A double click sends the move twice: the second is stale, played once.
            target.dblclick()
        else:
            target.click()
        mover.wait_past_ply(state["ply"])
        state = mover.server_state()

    assert automatic_passes == 1, "this line of play has one automatic pass"
    assert state["status"] == "finished"
    placements = [move for move in state["moves"] if move["action"] == "place"]
    assert len(placements) == 12, "4x4: twelve discs placed, each once"
    assert state["moves"][0]["color"] == "black"
    assert state["moves"][1]["color"] == "white"
    sentence = result_sentence(state["result"], "othello")
    for view in seats.values():
        view.wait_for_ply(state["ply"])
        expect(view.status).to_have_text(sentence)
        won = state["result"].startswith("B+" if view is alice else "W+")
        expect(view.page.locator("#outcome")).to_have_text("You won." if won else "You lost.")
        assert view.drawn_board() == state["board"]
        assert view.legal_points() == []
        assert view.move_list() == [move["notation"] for move in state["moves"]]
        for color in ("black", "white"):
            expect(view.player(color).locator(".player-score")).to_have_text(
                str(state["score"][color])
            )
        expect(view.toast).to_be_hidden()
        expect(view.page.locator("#resign-button")).to_be_hidden()
    alice.screenshot(output_path, "othello-finished-black.png")
    bob.screenshot(output_path, "othello-finished-white.png")


def test_resigning_asks_first_and_ends_the_game(new_context: NewContext):
    alice, bob = seat_two_players(new_context, kind="othello", size=8)
    resign = alice.page.locator("#resign-button")
    resign.click()
    expect(alice.page.locator("#resign-confirm")).to_be_visible()
    alice.page.click("#resign-no")
    expect(alice.page.locator("#resign-confirm")).to_be_hidden()
    expect(resign).to_be_visible()

    resign.click()
    alice.page.click("#resign-yes")
    for view in (alice, bob):
        expect(view.status).to_have_text("White wins by resignation")
        expect(view.player("white")).to_have_class(re.compile(r"\bwinner\b"))
    assert alice.server_state()["result"] == "W+R"
    assert [move["action"] for move in alice.server_state()["moves"]] == ["resign"]


def test_the_invite_link_is_copied_to_the_clipboard(new_context: NewContext):
    context = new_context(permissions=["clipboard-read", "clipboard-write"])
    alice = create_game(context.new_page(), kind="othello", size=8, name="Alice")
    expect(alice.page.locator("#invite-link")).to_have_value(alice.url)
    alice.page.click("#copy-invite")
    expect(alice.page.locator("#copy-invite")).to_have_text("Copied!")
    assert alice.page.evaluate("navigator.clipboard.readText()") == alice.url

    # The friend who opens it sits down; the creator's page stops offering the link.
    link = alice.page.locator("#invite-link").input_value()
    bob = join_game(new_context().new_page(), link, name="Bob")
    expect(bob.root).to_have_attribute("data-you", "white")
    expect(alice.page.locator("#invite")).to_be_hidden()


def test_the_creator_calls_off_a_game_nobody_joined(new_context: NewContext):
    alice = create_game(new_context().new_page(), kind="othello", size=6, name="Alice")
    visitor = watch_game(new_context().new_page(), alice.url)
    expect(visitor.page.locator("#join-form")).to_be_visible()

    game_path = GAME_URL.search(alice.url)[0]
    alice.page.click("#abort-button")  # asks first
    alice.page.click("#abort-no")
    expect(alice.page.locator("#abort-confirm")).to_be_hidden()
    alice.page.click("#abort-button")
    alice.page.click("#abort-yes")
    alice.page.wait_for_url(re.compile(r"/$"))
    expect(alice.page.locator(".flash")).to_have_text("The game was called off.")
    expect(alice.page.locator("#new-game-form")).to_be_visible()
    expect(alice.page.locator(f'a[href="{game_path}"]')).to_have_count(0)
    expect(visitor.status).to_have_text(
        "Aborted: Alice (Black) called the game off before anyone joined."
    )
    expect(visitor.page.locator("#join-form")).to_be_hidden()
