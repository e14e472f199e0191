"""The board fits a 360 px phone and a desktop; screenshots of both games for the README."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.game_page import GamePage, create_game, join_game, watch_game

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
DOCS = Path(__file__).resolve().parents[2] / "docs"
# A Go opening on 9x9 in which Black captures the white stone on F9 (move 11).
GO_MOVES = [
    (2, 6), (6, 2), (6, 6), (2, 2), (4, 4), (6, 4),
    (1, 5), (0, 5), (0, 6), (4, 2), (0, 4), (5, 5),
]  # fmt: skip


def assert_board_in_view(view: GamePage, viewport: dict[str, int]) -> None:
    box = view.board.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["y"] >= 0
    assert box["x"] + box["width"] <= viewport["width"]
    assert box["y"] + box["height"] <= viewport["height"]
    scroll_width = view.page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= viewport["width"], "no horizontal scrolling"


@pytest.mark.parametrize(("kind", "size"), [("othello", 8), ("go", 19), ("go", 9)])
def test_a_360_px_phone_shows_the_whole_board_and_plays_by_tap(
    new_context: NewContext, output_path: str, kind: str, size: int
):
    phones = [
        new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
        for _ in range(2)
    ]
    alice = create_game(phones[0].new_page(), kind=kind, size=size, name="Alice")
    expect(alice.page.locator("#invite")).to_be_visible()
    assert_board_in_view(alice, PHONE)
    visitor = watch_game(phones[1].new_page(), alice.url)
    expect(visitor.page.locator("#join-form")).to_be_visible()
    assert_board_in_view(visitor, PHONE)
    join_game(visitor.page, alice.url, name="Bob")
    expect(alice.status).to_have_text("Your move.")
    assert_board_in_view(alice, PHONE)

    first = alice.legal_points()[0]
    alice.point(first).tap()
    if size == 19:  # points under 28 px apart: the first tap shows the stone
        expect(alice.board).to_have_attribute("data-pending", f"{first[0]},{first[1]}")
        alice.point(first).tap()
    alice.wait_for_ply(1)
    assert alice.server_state()["moves"][0]["point"] == first
    assert_board_in_view(alice, PHONE)
    alice.screenshot(output_path, f"phone-{kind}-{size}.png")


def share(path: Path) -> None:
    """Refresh the README's picture when asked to (DOCS_SCREENSHOTS=1)."""
    if os.environ.get("DOCS_SCREENSHOTS"):
        shutil.copyfile(path, DOCS / path.name)


def test_desktop_screenshots_of_both_games(new_context: NewContext, output_path: str):
    alice = create_game(
        new_context(viewport=DESKTOP).new_page(), kind="othello", size=8, name="Alice"
    )
    bob = join_game(new_context(viewport=DESKTOP).new_page(), alice.url, name="Bob")
    seats = {"black": alice, "white": bob}
    for ply in range(10):
        mover = seats["black" if ply % 2 == 0 else "white"]
        mover.wait_for_ply(ply)
        legal = mover.legal_points()
        mover.point(legal[len(legal) // 2]).click()
    alice.wait_for_ply(10)
    expect(alice.status).to_have_text("Your move.")
    assert_board_in_view(alice, DESKTOP)
    share(alice.screenshot(output_path, "othello.png"))

    alice = create_game(alice.page.context.new_page(), kind="go", size=9, name="Alice")
    bob = join_game(bob.page.context.new_page(), alice.url, name="Bob")
    for ply, point in enumerate(GO_MOVES):
        mover = alice if ply % 2 == 0 else bob
        mover.wait_for_ply(ply)
        mover.point(point).click()
    alice.wait_for_ply(len(GO_MOVES))
    expect(alice.player("black").locator(".player-score")).to_have_text("1")
    assert_board_in_view(alice, DESKTOP)
    alice.page.mouse.move(0, 0)
    share(alice.screenshot(output_path, "go.png"))


SIDEWAYS = {"width": 844, "height": 390}


@pytest.mark.parametrize(("kind", "size"), [("othello", 8), ("go", 19)])
def test_a_phone_held_sideways_shows_the_whole_board_with_the_panel_beside_it(
    new_context: NewContext, output_path: str, kind: str, size: int
) -> None:
    context = new_context(viewport=SIDEWAYS, is_mobile=True, has_touch=True)
    alice = create_game(context.new_page(), kind=kind, size=size, name="Alice")

    assert_board_in_view(alice, SIDEWAYS)
    board = alice.board.bounding_box()
    panel = alice.page.locator(".game-panel").bounding_box()
    assert board is not None and panel is not None
    assert panel["x"] >= board["x"] + board["width"], "the panel is beside the board"
    assert panel["y"] < SIDEWAYS["height"], "the panel starts on screen"
    alice.screenshot(output_path, f"layout/sideways-{kind}-{size}.png")


PHONE_390 = {"width": 390, "height": 844}
# The widths the layout tests cover: two phones, one held sideways, a desktop.
VIEWPORTS = {"phone-360": PHONE, "phone-390": PHONE_390, "sideways": SIDEWAYS, "desktop": DESKTOP}
BYOYOMI = {"clock": "byoyomi", "main_time": 600, "periods": 5, "period_time": 30}
FISCHER = {"clock": "fischer", "main_time": 300, "increment": 3}


def name_lines(view: GamePage, color: str) -> int:
    """How many lines the seat's name takes on screen (its text's line boxes)."""
    lines: int = (
        view.player(color)
        .locator(".player-name")
        .evaluate(
            """name => {
            const range = document.createRange();
            range.selectNodeContents(name);
            return new Set([...range.getClientRects()].map(rect => Math.round(rect.top))).size;
        }"""
        )
    )
    return lines


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=str)
@pytest.mark.parametrize(
    ("kind", "size", "clock", "computer"),
    [("go", 9, BYOYOMI, "GNU Go 3.8 (level 3)"), ("othello", 8, FISCHER, "Engine (level 3)")],
)
def test_long_names_read_on_one_or_two_lines(
    new_context: NewContext,
    output_path: str,
    viewport: str,
    kind: str,
    size: int,
    clock: dict[str, int],
    computer: str,
) -> None:
    view = create_game(
        new_context(viewport=VIEWPORTS[viewport]).new_page(),
        kind=kind,
        size=size,
        name="Maximiliane Wolkenstein-Rodeneck",
        color="black",
        clock=clock,
        level=3,
    )
    expect(view.player("white").locator(".player-name")).to_have_text(computer)
    expect(view.player("white").locator(".player-clock")).to_be_visible()
    assert name_lines(view, "white") <= 2
    assert name_lines(view, "black") <= 2
    for color in ("black", "white"):
        card = view.player(color).bounding_box()
        assert card is not None
        assert card["x"] + card["width"] <= VIEWPORTS[viewport]["width"]
    view.screenshot(output_path, f"names/{kind}-{viewport}.png")
