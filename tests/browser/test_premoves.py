"""Premoves, as a lichess or OGS regular plays them: in a live game a point picked during
the opponent's turn is kept in the page, marked, and sent the moment the turn comes when
it is legal then, dropped otherwise; picked again, Escape or a right-click cancel it; a
correspondence game has none. On a desktop (mouse) and a phone (touch)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Locator, expect

from gamerules.clock import TimeControl
from tests.browser.game_page import GamePage, create_game, join_game

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
SCREENS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
BLITZ = TimeControl.fischer(main_time=300, increment=3).describe()
ONE_DAY = TimeControl.correspondence(days=1).describe()
D3, C3, A1, H8 = (2, 3), (2, 2), (0, 0), (7, 7)
"""Black's d3 opens the game; White's c3 answers it; a1 and h8 are never legal so early."""


def pick(view: GamePage, point: tuple[int, int], screen: str) -> None:
    """A click, or a tap on the phone."""
    target = view.point(point)
    if screen == "phone":
        target.tap()
    else:
        target.click()


def premove_mark(view: GamePage) -> Locator:
    return view.board.locator(".premove .stone")


def players(new_context: NewContext, screen: str, clock: str) -> tuple[GamePage, GamePage]:
    """Alice (Black, to move first) and Bob in an 8x8 Othello game with ``clock``."""
    alice = create_game(
        new_context(**SCREENS[screen]).new_page(), kind="othello", size=8, name="Alice", clock=clock
    )
    bob = join_game(new_context(**SCREENS[screen]).new_page(), alice.url, name="Bob")
    expect(alice.status).to_have_text("Your move.")
    return alice, bob


@pytest.mark.parametrize("screen", SCREENS)
def test_a_premove_is_played_when_the_turn_comes_and_an_illegal_one_dropped(
    new_context: NewContext, output_path: str, screen: str
) -> None:
    alice, bob = players(new_context, screen, BLITZ)

    pick(bob, C3, screen)  # Alice's move: kept, marked, nothing sent
    expect(bob.board).to_have_attribute("data-premove", "2,2")
    expect(premove_mark(bob)).to_have_count(1)
    expect(bob.page.locator("#board-hint")).to_contain_text("Premove c3")
    bob.screenshot(output_path, f"premoves/set-{screen}.png")
    assert bob.server_state()["ply"] == 0

    pick(alice, D3, screen)
    # Bob's c3 goes the moment d3 arrives: Alice's page shows it played.
    alice.wait_for_ply(2)
    moves = alice.server_state()["moves"]
    assert [(move["color"], move["point"]) for move in moves] == [
        ("black", [2, 3]),
        ("white", [2, 2]),
    ]
    expect(bob.board).not_to_have_attribute("data-premove", "2,2")
    expect(premove_mark(bob)).to_have_count(0)

    # An illegal premove (a1, out of reach) is dropped when the turn comes, and said so.
    pick(bob, A1, screen)
    expect(bob.board).to_have_attribute("data-premove", "0,0")
    pick(alice, tuple(alice.legal_points()[0]), screen)  # type: ignore[arg-type]
    bob.wait_for_ply(3)
    expect(bob.page.locator("#board-hint")).to_have_text(
        "Premove a1 dropped: not a legal move now."
    )
    expect(premove_mark(bob)).to_have_count(0)
    expect(bob.status).to_have_text("Your move.")
    assert bob.server_state()["ply"] == 3  # nothing sent


@pytest.mark.parametrize("screen", SCREENS)
def test_a_premove_is_cancelled_by_picking_it_again_escape_or_a_right_click(
    new_context: NewContext, screen: str
) -> None:
    alice, bob = players(new_context, screen, BLITZ)

    pick(bob, C3, screen)
    expect(premove_mark(bob)).to_have_count(1)
    pick(bob, C3, screen)  # picked again
    expect(premove_mark(bob)).to_have_count(0)
    expect(bob.page.locator("#board-hint")).to_have_text("Premove cancelled.")

    pick(bob, C3, screen)
    pick(bob, H8, screen)  # another point: the premove moves there
    expect(bob.board).to_have_attribute("data-premove", "7,7")
    bob.page.keyboard.press("Escape")
    expect(premove_mark(bob)).to_have_count(0)

    pick(bob, C3, screen)
    expect(premove_mark(bob)).to_have_count(1)
    bob.point(C3).click(button="right")
    expect(premove_mark(bob)).to_have_count(0)

    pick(bob, (3, 3), screen)  # a taken square is no premove
    expect(bob.page.locator("#board-hint")).to_have_text("That square is taken.")
    expect(premove_mark(bob)).to_have_count(0)

    # Nothing was kept: Alice's move leaves Bob to choose his own.
    pick(alice, D3, screen)
    bob.wait_for_ply(1)
    expect(bob.status).to_have_text("Your move.")
    assert bob.server_state()["ply"] == 1


def test_a_correspondence_game_has_no_premoves(new_context: NewContext) -> None:
    alice, bob = players(new_context, "desktop", ONE_DAY)

    pick(bob, C3, "desktop")
    expect(bob.page.locator("#board-hint")).to_have_text("It is Alice's move.")
    expect(premove_mark(bob)).to_have_count(0)
    pick(alice, D3, "desktop")
    bob.wait_for_ply(1)
    expect(bob.status).to_have_text("Your move.")
    assert bob.server_state()["ply"] == 1
