"""Solving a puzzle on the puzzles page, on a desktop and on a phone: the board marks the
moves, the answer shows on the board with its value, the streak counts, Next asks for
another (the server of the test's own holds one puzzle, stored before)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import DaphneServer
from tests.browser.test_phone import PHONE
from tests.puzzles.test_mining import UNIQUE_WIN
from tests.support.daphne import ROOT

pytestmark = pytest.mark.browser


STORE = """
from puzzles.models import Puzzle
from puzzles.services import position_key
rows = {rows}
Puzzle.objects.create(kind="othello", size=8, position=position_key(rows, "black"), rows=rows,
    to_play="black", solution_row=1, solution_col=1, value=2)
"""


def store_puzzle(server: DaphneServer) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", STORE.format(rows=json.dumps(UNIQUE_WIN))],
        cwd=ROOT,
        env=server.env,
        check=True,
        capture_output=True,
    )


@pytest.mark.parametrize(
    "screen",
    [{"viewport": {"width": 1280, "height": 800}}, PHONE],
    ids=["desktop", "phone"],
)
def test_a_puzzle_is_solved_on_the_board(
    browser: Browser, own_server: DaphneServer, screen: dict[str, object]
) -> None:
    store_puzzle(own_server)
    page = browser.new_context(base_url=own_server.url, **screen).new_page()  # type: ignore[arg-type]
    page.goto("/puzzles/")
    expect(page.locator("#puzzle-turn")).to_have_text("Black to play")
    board = page.locator("#puzzle-board")
    expect(board.locator(".hit.legal")).to_have_count(7)
    answer = board.locator('.hit[data-point="1,1"]')
    if screen is PHONE:
        answer.tap()
    else:
        answer.click()
    result = page.locator("#puzzle-result")
    expect(result).to_contain_text("Right!")
    expect(result).to_contain_text("b2")
    expect(result).to_contain_text("Black wins by 2")
    expect(board.locator(".premove-ring")).to_have_count(1)
    expect(page.locator("#puzzle-streak")).to_have_text("1")
    expect(board.locator(".hit.legal")).to_have_count(0)
    next_button = page.locator("#puzzle-next")
    expect(next_button).to_be_visible()
    box = next_button.bounding_box()
    assert box is not None and box["x"] + box["width"] <= page.viewport_size["width"]  # type: ignore[index]
    next_button.click()
    expect(page.locator("#puzzle-result")).to_be_hidden()
    expect(board.locator(".hit.legal")).to_have_count(7)
