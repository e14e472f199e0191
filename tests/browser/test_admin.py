"""The admin's game page at 1280 px, as a logged-in superuser: the whole 19x19 board in
view and the clocks in words."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import DaphneServer
from tests.browser.game_page import create_game, join_game

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
DESKTOP = {"width": 1280, "height": 800}
ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a long admin phrase"
BYOYOMI = {"clock": "byoyomi", "main_time": 600, "periods": 5, "period_time": 30}


def create_superuser(server: DaphneServer) -> None:
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "createsuperuser",
            "--noinput",
            "--username",
            "admin",
            "--email",
            "admin@example.com",
        ],
        cwd=ROOT,
        env={**server.env, "DJANGO_SUPERUSER_PASSWORD": PASSWORD},
        check=True,
        capture_output=True,
    )


def test_the_admin_shows_the_whole_19x19_board_and_the_clocks_in_words(
    new_context: NewContext, own_server: DaphneServer, output_path: str
) -> None:
    create_superuser(own_server)
    home = f"{own_server.url}/"
    alice = create_game(
        new_context().new_page(), kind="go", size=19, name="Alice", clock=BYOYOMI, home=home
    )
    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    alice.point((3, 15)).click()  # the first moves cost nothing: no clock runs before them
    bob.wait_for_ply(1)
    bob.point((15, 3)).click()
    alice.wait_for_ply(2)
    alice.point((3, 3)).click()
    bob.wait_for_ply(3)
    game_id = alice.url.rstrip("/").rsplit("/", 1)[1]

    page = new_context(viewport=DESKTOP).new_page()
    page.goto(f"{own_server.url}/admin/login/")
    page.fill('input[name="username"]', "admin")
    page.fill('input[name="password"]', PASSWORD)
    page.click('input[type="submit"]')
    page.goto(f"{own_server.url}/admin/games/game/?q={game_id}")
    page.get_by_role("link", name=game_id).click()

    board = page.locator(".admin-board svg")
    expect(board).to_be_visible()
    box = board.bounding_box()
    frame = page.locator(".admin-board").bounding_box()
    assert box is not None and frame is not None
    assert box["width"] <= frame["width"] + 0.5, "the picture fits its box"
    assert box["x"] + box["width"] <= DESKTOP["width"], "the picture is on screen"
    assert box["width"] >= 300, "and big enough to read"
    # Columns S and T are drawn inside the picture, which is not clipped.
    clipped = page.evaluate(
        """() => [...document.querySelectorAll('.admin-board, .admin-board *')]
            .filter(node => node.scrollWidth > node.clientWidth + 1
                && getComputedStyle(node).overflowX !== 'visible').length"""
    )
    assert clipped == 0

    clocks = page.locator(".field-clocks_in_words .readonly")
    expect(clocks).to_contain_text(re.compile(r"Black \d+:\d\d \+ 5 periods of 30 s"))
    expect(clocks).to_contain_text(
        re.compile(r"White \d+:\d\d \+ 5 periods of 30 s, running")  # White is to move
    )
    expect(page.locator("body")).not_to_contain_text("SideClock")
    path = Path(output_path) / "admin" / "game-19.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)
