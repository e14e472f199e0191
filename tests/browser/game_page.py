"""What one person does and sees in the browser: the home page's form and the game page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

GAME_URL = re.compile(r"/games/([^/]+)/$")
COLOR_NAME = {"black": "Black", "white": "White"}


def create_game(
    page: Page,
    *,
    kind: str,
    size: int,
    name: str,
    color: str = "black",
    komi: float | None = None,
    clock: str | dict[str, Any] | None = None,
    level: int | None = None,
    handicap: int | None = None,
    rated: bool = False,
    home: str = "/",
) -> GamePage:
    """Fill in the home page's form, create the game, and land on its page. ``clock``: a
    preset's label, or the custom fields (``{"clock": "absolute", "main_time": 3}``);
    ``level``: against the computer at that level; ``handicap``: Go's stones (the komi
    follows, unless ``komi`` is given); ``rated``: tick Rated."""
    page.goto(home)
    kind_field = page.locator('[name="kind"]').first
    if kind_field.evaluate("field => field.tagName") == "SELECT":
        kind_field.select_option(kind)
    else:
        page.check(f'input[name="kind"][value="{kind}"]')
    page.select_option('select[name="size"]', str(size))
    if level is not None:
        page.check('input[name="opponent"][value="computer"]')
        page.select_option('select[name="level"]', str(level))
    if rated:
        page.check('input[name="rated"]')
    page.select_option('select[name="color"]', color)
    if page.locator('input[name="name"]').count():  # a guest's form (an account has none)
        page.fill('input[name="name"]', name)
    if handicap is not None:
        page.select_option('select[name="handicap"]', str(handicap))
    if komi is not None:
        page.fill('input[name="komi"]', str(komi))
    if isinstance(clock, str):
        page.select_option("#clock-preset", label=clock)
    elif clock is not None:
        page.select_option("#clock-preset", label="Custom…")
        page.select_option('select[name="clock"]', clock["clock"])
        for name, value in clock.items():
            if name != "clock":
                page.fill(f'input[name="{name}"]', str(value))
    page.click('#new-game-form button[type="submit"]')
    page.wait_for_url(GAME_URL)
    view = GamePage(page)
    view.wait_until_connected()
    return view


def join_game(page: Page, url: str, *, name: str) -> GamePage:
    """Open an invite link and take the free seat."""
    page.goto(url)
    form = page.locator("#join-form")
    if form.locator('input[name="name"]').count():  # a guest's form (an account has none)
        form.locator('input[name="name"]').fill(name)
    form.locator('button[type="submit"]').click()
    view = GamePage(page)
    expect(view.root).not_to_have_attribute("data-you", "")
    view.wait_until_connected()
    return view


def watch_game(page: Page, url: str) -> GamePage:
    """Open a game's link as a visitor."""
    page.goto(url)
    view = GamePage(page)
    view.wait_until_connected()
    return view


class GamePage:
    """One browser tab on a game page."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.root = page.locator("#game")
        self.board = page.locator("#board")
        self.status = page.locator("#status")
        self.notice = page.locator("#notice")
        self.toast = page.locator("#toast")

    @property
    def url(self) -> str:
        match = GAME_URL.search(self.page.url)
        assert match, self.page.url
        return self.page.url[: match.end()]

    def server_state(self) -> dict[str, Any]:
        """The game as the server has it for this person (`state.json`, same cookies)."""
        response = self.page.request.get(f"{self.url}state.json")
        assert response.ok, response.status
        data: dict[str, Any] = response.json()
        return data

    def wait_until_connected(self) -> None:
        expect(self.page.locator("#connection")).to_have_attribute("data-state", "connected")

    def wait_for_ply(self, ply: int, *, timeout: float | None = None) -> None:
        """Wait until the page shows the game after `ply` moves."""
        expect(self.root).to_have_attribute("data-ply", str(ply), timeout=timeout)

    def wait_past_ply(self, ply: int) -> None:
        expect(self.root).not_to_have_attribute("data-ply", str(ply))

    def point(self, point: list[int] | tuple[int, int]) -> Locator:
        row, col = point
        return self.board.locator(f'.hit[data-point="{row},{col}"]')

    def legal_points(self) -> list[list[int]]:
        """The points the page offers to play, in the board's row-major order."""
        return [
            [int(part) for part in str(value).split(",")]
            for value in self.board.locator(".hit.legal").evaluate_all(
                "hits => hits.map(hit => hit.dataset.point)"
            )
        ]

    def drawn_board(self) -> list[str]:
        """The board rows as drawn: the stones in the SVG, read back."""
        rows: list[str] = self.board.evaluate(
            """svg => {
                const size = Number(svg.dataset.size);
                const rows = Array.from({length: size}, () => Array(size).fill("."));
                for (const stone of svg.querySelectorAll(".stones > .stone")) {
                    const [row, col] = stone.dataset.point.split(",").map(Number);
                    rows[row][col] = stone.dataset.color;
                }
                return rows.map(row => row.join(""));
            }"""
        )
        return rows

    def move_list(self) -> list[str]:
        return self.page.locator("#move-list .move").all_inner_texts()

    def player(self, color: str) -> Locator:
        return self.page.locator(f'.player[data-color="{color}"]')

    def screenshot(self, directory: str, name: str) -> Path:
        path = Path(directory) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        # Flips, captures and fading notices end first: the picture shows the position.
        self.page.evaluate(
            """Promise.all(document.getAnimations()
                .filter(animation => animation.effect.getTiming().iterations !== Infinity)
                .map(animation => animation.finished))"""
        )
        self.page.screenshot(path=str(path), full_page=True)
        return path


def result_sentence(result: str, kind: str) -> str:
    """What the page says for a result code: "Black wins by 4 discs", "Draw"."""
    if result == "Draw":
        return "Draw"
    letter, margin = result.split("+")
    winner = "Black" if letter == "B" else "White"
    if margin == "R":
        return f"{winner} wins by resignation"
    unit = "point" if kind == "go" else "disc"
    return f"{winner} wins by {margin} {unit}{'' if margin == '1' else 's'}"
