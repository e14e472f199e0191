"""Playing the computer in the browser: a whole 6x6 Othello game, and a 9x9 Go game to
its count (GNU Go marks the dead stones and accepts; the person accepts)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.game_page import GamePage, create_game, result_sentence

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
THINKING_MS = 30_000


def wait_for_my_turn_or_the_end(view: GamePage) -> str:
    """The page's status once it is the person's move, or the game is over."""
    status = view.status
    expect(status).to_have_text(
        re.compile(r"Your move\.|wins|Draw|Play has ended"), timeout=THINKING_MS
    )
    return status.inner_text()


def test_a_whole_othello_game_against_the_computer(
    new_context: NewContext, output_path: str
) -> None:
    me = create_game(new_context().new_page(), kind="othello", size=6, name="Ann", level=1)
    expect(me.player("white").locator(".player-name")).to_have_text("Engine (level 1)")
    expect(me.player("white").locator(".player-tags")).to_have_text("computer")

    for _ in range(40):
        status = wait_for_my_turn_or_the_end(me)
        if status != "Your move.":
            break
        ply = int(me.root.get_attribute("data-ply") or 0)
        me.point(me.legal_points()[0]).click()
        me.wait_past_ply(ply)
    state = me.server_state()
    assert state["status"] == "finished"
    expect(me.status).to_have_text(result_sentence(state["result"], "othello"))
    assert me.drawn_board() == state["board"]
    me.screenshot(output_path, "computer-othello.png")


def test_a_go_game_against_gnu_go_to_its_count(new_context: NewContext, output_path: str) -> None:
    me = create_game(
        new_context().new_page(), kind="go", size=9, name="Ann", color="white", level=1
    )
    expect(me.player("black").locator(".player-name")).to_have_text("GNU Go 3.8 (level 1)")

    # Ann passes every turn: GNU Go plays until it passes too.
    for _ in range(120):
        status = wait_for_my_turn_or_the_end(me)
        if status != "Your move.":
            break
        ply = int(me.root.get_attribute("data-ply") or 0)
        me.page.click("#pass-button")
        me.wait_past_ply(ply)

    # The computer marked the dead stones it sees and accepted; Ann accepts.
    expect(me.page.locator("#accepted")).to_have_text(
        re.compile(r"GNU Go 3\.8 \(level 1\) has accepted"), timeout=THINKING_MS
    )
    me.page.click("#accept-button")
    expect(me.status).to_have_text(re.compile(r"Black wins by"))
    assert me.server_state()["result"].startswith("B+")
    me.screenshot(output_path, "computer-go.png")


def test_a_move_taken_back_against_the_computer_takes_its_reply_too(
    new_context: NewContext, output_path: str
) -> None:
    me = create_game(new_context().new_page(), kind="othello", size=8, name="Ann", level=1)
    start = me.drawn_board()
    expect(me.page.locator("#undo-button")).to_be_hidden()  # nothing of mine to take back

    me.point(me.legal_points()[0]).click()
    me.wait_for_ply(2, timeout=THINKING_MS)  # the computer answered at once
    expect(me.status).to_have_text("Your move.")
    me.screenshot(output_path, "computer-take-back/before.png")
    me.page.click("#undo-button")

    me.wait_for_ply(0)
    assert me.drawn_board() == start
    assert me.move_list() == []
    expect(me.page.locator("#undo-button")).to_be_hidden()
    expect(
        me.page.get_by_text("Your last move and the computer's reply were taken back.")
    ).to_be_visible()
    state = me.server_state()
    assert (state["ply"], state["to_move"], state["board"]) == (0, "black", start)
    me.screenshot(output_path, "computer-take-back/after.png")


def test_gnu_go_plays_white_first_in_a_handicap_game(new_context: NewContext) -> None:
    me = create_game(
        new_context().new_page(), kind="go", size=9, name="Ann", color="black", level=1, handicap=2
    )
    me.wait_for_ply(1, timeout=THINKING_MS)
    expect(me.status).to_have_text("Your move.")
    state = me.server_state()
    assert (state["handicap"], state["komi"], state["moves"][0]["color"]) == (2, 0.5, "white")
    board = me.drawn_board()
    assert (board[2][6], board[6][2]) == ("B", "B")
    assert "".join(board).count("W") == 1
