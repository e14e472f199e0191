"""Go's count in two browsers: two passes, the server's marking, a disagreement, an
agreement, the same final score on both pages; and resuming play."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.game_page import GamePage, create_game, join_game, watch_game
from tests.browser.test_go import play
from tests.browser.test_layout import PHONE

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]

# Black builds a wall on column C, White on column D; then White invades Black's side
# with one stone at B4, which can never live:
#   . . B W .
#   . W B W .
#   . . B W .
#   . . B W .
#   . . B W .
WALLS = [(row, col) for row in range(5) for col in (2, 3)]
INVADER = (1, 1)
FINAL_BOARD = ["..BW.", ".WBW.", "..BW.", "..BW.", "..BW."]


def pass_turn(mover: GamePage, *watchers: GamePage) -> None:
    ply = int(mover.root.get_attribute("data-ply") or 0)
    mover.page.click("#pass-button")
    for view in (mover, *watchers):
        view.wait_for_ply(ply + 1)


def dead_stones(view: GamePage) -> list[str]:
    """The stones drawn as dead, as "row,col"."""
    points: list[str] = view.board.locator(".stones > .stone.dead").evaluate_all(
        "stones => stones.map(stone => stone.dataset.point)"
    )
    return points


def totals(view: GamePage) -> list[str]:
    return view.page.locator('#count-table tr[data-field="total"] td').all_inner_texts()


def test_two_players_disagree_once_then_agree_on_the_count(
    new_context: NewContext, output_path: str
) -> None:
    alice = create_game(new_context().new_page(), kind="go", size=5, name="Alice", komi=0.5)
    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    carol = watch_game(new_context().new_page(), alice.url)
    players = (alice, bob)
    everyone = (alice, bob, carol)

    for black_point, white_point in zip(WALLS[::2], WALLS[1::2], strict=True):
        play(alice, black_point, bob, carol)
        play(bob, white_point, alice, carol)
    pass_turn(alice, bob, carol)
    play(bob, INVADER, alice, carol)
    pass_turn(alice, bob, carol)
    pass_turn(bob, alice, carol)

    # Play has ended: the server's first marking takes the invader as dead.
    for view in everyone:
        expect(view.root).to_have_attribute("data-status", "scoring")
        assert view.drawn_board() == FINAL_BOARD
        assert dead_stones(view) == ["1,1"]
        # Black's 10 points (the dead stone's included), White's 5.
        expect(view.board.locator(".count .territory.black")).to_have_count(10)
        expect(view.board.locator(".count .territory.white")).to_have_count(5)
        assert totals(view) == ["11", "5.5"]
        expect(view.player("black").locator(".player-score")).to_have_text("11")
    for view in players:
        expect(view.status).to_have_text("Play has ended: mark the dead stones, then accept.")
        expect(view.page.locator("#accept-button")).to_be_enabled()
        expect(view.page.locator("#resume-button")).to_be_visible()
    expect(carol.page.locator("#accept-button")).to_be_hidden()
    expect(carol.page.locator("#count-help")).to_be_hidden()
    expect(alice.page.locator("#pass-button")).to_be_hidden()
    expect(alice.page.locator("#resign-button")).to_be_visible()

    # Alice accepts; Bob disagrees and marks his stone alive: Alice's acceptance is
    # withdrawn, and both pages show the new count.
    alice.page.click("#accept-button")
    expect(alice.page.locator("#accepted")).to_have_text("You have accepted; waiting for Bob.")
    expect(bob.page.locator("#accepted")).to_have_text(
        "Alice has accepted: accept to end the game."
    )
    expect(carol.page.locator("#accepted")).to_have_text("Alice has accepted; waiting for Bob.")
    expect(alice.page.locator("#accept-button")).to_be_disabled()
    alice.screenshot(output_path, "go-scoring-accepted.png")

    bob.point(INVADER).click()
    for view in everyone:
        expect(view.page.locator("#accepted")).to_have_text("Neither player has accepted yet.")
        expect(view.board.locator(".stones > .stone.dead")).to_have_count(0)
        expect(view.board.locator(".count .territory.black")).to_have_count(0)
        assert totals(view) == ["0", "5.5"]
    for view in players:
        expect(view.notice).to_have_text("The marking changed: both acceptances were withdrawn.")
    expect(alice.page.locator("#accept-button")).to_be_enabled()
    bob.screenshot(output_path, "go-scoring-disagreement.png")

    # Alice marks it dead again; this time both accept.
    alice.point(INVADER).click()
    for view in everyone:
        expect(view.board.locator(".stones > .stone.dead")).to_have_count(1)
        expect(view.page.locator('#count-table tr[data-field="total"] td').first).to_have_text("11")
    bob.page.click("#accept-button")
    expect(alice.page.locator("#accepted")).to_have_text(
        "Bob has accepted: accept to end the game."
    )
    alice.page.click("#accept-button")

    for view in everyone:
        expect(view.root).to_have_attribute("data-status", "finished")
        expect(view.status).to_have_text("Black wins by 5.5 points")
        assert totals(view) == ["11", "5.5"]
        assert dead_stones(view) == ["1,1"]
        expect(view.player("white").locator(".player-score")).to_have_text("5.5")
        expect(view.page.locator("#accept-button")).to_be_hidden()
        expect(view.page.locator("#accepted")).to_be_hidden()
    # Read once every page shows the end: the click's message may still be on its way.
    state = alice.server_state()
    assert (state["status"], state["result"], state["dead"]) == ("finished", "B+5.5", [[1, 1]])
    assert state["score"] == {"black": 11, "white": 5.5}
    expect(alice.page.locator("#outcome")).to_have_text("You won.")
    expect(bob.page.locator("#outcome")).to_have_text("You lost.")
    alice.screenshot(output_path, "go-scoring-finished.png")

    # The replay ends on the agreed count.
    replay = alice.page
    replay.goto(f"{alice.url}replay/")
    expect(replay.locator("#board .stones > .stone.dead")).to_have_count(1)
    expect(replay.locator("#board .count .territory.white")).to_have_count(5)
    expect(replay.locator("#score-black")).to_have_text("11")
    replay.keyboard.press("ArrowLeft")
    expect(replay.locator("#board .stones > .stone.dead")).to_have_count(0)
    expect(replay.locator("#board .count .territory")).to_have_count(0)


def test_resume_play_drops_the_count_on_a_phone(new_context: NewContext, output_path: str):
    alice = create_game(new_context().new_page(), kind="go", size=9, name="Alice")
    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    bob = join_game(phone.new_page(), alice.url, name="Bob")
    play(alice, (4, 4), bob)
    pass_turn(bob, alice)
    pass_turn(alice, bob)
    for view in (alice, bob):
        expect(view.root).to_have_attribute("data-status", "scoring")
    expect(bob.page.locator("#count-table")).to_be_visible()
    assert bob.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    bob.screenshot(output_path, "go-scoring-phone.png")

    bob.page.tap("#resume-button")

    for view in (alice, bob):
        expect(view.root).to_have_attribute("data-status", "active")
        expect(view.page.locator("#count")).to_be_hidden()
        expect(view.board.locator(".count .territory")).to_have_count(0)
    # White passed first: White moves on.
    expect(bob.status).to_have_text("Your move.")
    play(bob, (0, 0), alice)
    assert alice.server_state()["moves"][-1]["notation"] == "A9"
