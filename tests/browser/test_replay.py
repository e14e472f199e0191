"""The replay page in a browser: keys, slider, buttons, move list, autoplay, live games.

Finished games reach the server the way a person brings one: an SGF file uploaded on
the import page. The rules module, replaying the same record, gives the board expected
at every ply.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from gamerules import Color, Move, new_position
from gamerules.sgf import GameRecord, export_sgf, replay
from tests.browser.game_page import GamePage, create_game, join_game

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
GAME_URL = re.compile(r"/games/([^/]+)/$")


def random_record(kind: str, size: int, *, seed: int, limit: int) -> GameRecord:
    """A game of seeded random legal moves (Othello to its end, Go for ``limit`` moves)."""
    rng = random.Random(seed)
    position = new_position(kind, size)
    moves: list[tuple[Color, Move]] = []
    while not position.is_over and len(moves) < limit:
        legal = position.legal_moves()
        move = Move.place(rng.choice(legal)) if legal else Move.pass_turn()
        moves.append((position.to_move, move))
        position, _ = position.play(move)
    return GameRecord(kind=kind, size=size, moves=tuple(moves), black_name="Ann", white_name="Bo")  # type: ignore[arg-type]


def boards(record: GameRecord) -> list[list[str]]:
    """The rules' board at every ply of ``record``, ply 0 first."""
    return [new_position(record.kind, record.size).rows()] + [
        position.rows() for position, _ in replay(record)
    ]


def import_record(page: Page, record: GameRecord) -> str:
    """Upload ``record`` on the import page; the public id of the stored game."""
    page.goto("/games/import/")
    page.set_input_files(
        'input[name="sgf"]',
        files=[
            {
                "name": "game.sgf",
                "mimeType": "application/x-go-sgf",
                "buffer": export_sgf(record).encode(),
            }
        ],
    )
    page.click('form[enctype="multipart/form-data"] button[type="submit"]')
    page.wait_for_url(GAME_URL)
    match = GAME_URL.search(page.url)
    assert match
    return match.group(1)


class ReplayPage(GamePage):
    """One browser tab on a replay page (its board is read back as the game page's)."""

    def __init__(self, page: Page) -> None:
        super().__init__(page)
        self.root = page.locator("#replay")
        self.slider = page.locator("#slider")
        self.status = page.locator("#replay-status")

    def expect_ply(self, ply: int) -> None:
        expect(self.root).to_have_attribute("data-ply", str(ply))
        expect(self.page).to_have_url(re.compile(rf"[?&]ply={ply}$"))

    def expect_board(self, ply: int, expected: list[list[str]]) -> None:
        self.expect_ply(ply)
        assert self.drawn_board() == expected[ply], f"ply {ply}"

    def move(self, ply: int) -> Locator:
        return self.page.locator(f'#move-list .move[data-ply="{ply}"]')


def test_step_through_an_othello_replay_with_keys_slider_buttons_and_moves(page: Page) -> None:
    record = random_record("othello", 8, seed=11, limit=200)
    expected = boards(record)
    last = len(record.moves)
    game_id = import_record(page, record)

    page.goto(f"/games/{game_id}/replay/?ply=0")
    view = ReplayPage(page)
    view.expect_board(0, expected)
    expect(view.status).to_have_text(f"Start position ({last} moves)")

    # Every ply forwards with →, then every ply back with ←: the diffs both ways.
    for ply in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        view.expect_board(ply, expected)
    page.keyboard.press("ArrowRight")
    view.expect_board(last, expected)
    for ply in range(last - 1, -1, -1):
        page.keyboard.press("ArrowLeft")
        view.expect_board(ply, expected)

    page.keyboard.press("End")
    view.expect_board(last, expected)
    expect(view.move(last)).to_have_class(re.compile(r"\bcurrent\b"))
    page.keyboard.press("Home")
    view.expect_board(0, expected)

    # The slider: dragged to a ply, then stepped with its own arrow keys (one step each).
    view.slider.fill("17")
    view.expect_board(17, expected)
    view.slider.focus()
    page.keyboard.press("ArrowRight")
    view.expect_board(18, expected)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    view.expect_board(16, expected)

    # The buttons and the move list.
    page.click("#next")
    view.expect_board(17, expected)
    page.click("#previous")
    view.expect_board(16, expected)
    page.click("#last")
    view.expect_board(last, expected)
    page.click("#first")
    view.expect_board(0, expected)
    expect(page.locator("#first")).to_have_attribute("aria-disabled", "true")
    view.move(9).click()
    view.expect_board(9, expected)
    expect(view.move(9)).to_have_class(re.compile(r"\bcurrent\b"))

    # The disc counts follow the board.
    blacks = "".join(expected[9]).count("B")
    expect(page.locator("#score-black")).to_have_text(str(blacks))

    # A link to this move opens at this move.
    page.goto(page.url)
    view.expect_board(9, expected)


def test_a_go_replay_undoes_captures_and_autoplays_to_the_end(page: Page) -> None:
    record = random_record("go", 9, seed=5, limit=120)
    expected = boards(record)
    last = len(record.moves)
    captures = [ply for ply, (_, diff) in enumerate(replay(record), start=1) if diff.captured]
    assert captures, "this line of play captures stones"
    game_id = import_record(page, record)

    page.goto(f"/games/{game_id}/replay/?ply={captures[0]}")
    view = ReplayPage(page)
    view.expect_board(captures[0], expected)
    page.keyboard.press("ArrowLeft")
    view.expect_board(captures[0] - 1, expected)
    page.keyboard.press("ArrowRight")
    view.expect_board(captures[0], expected)

    # Out of range: the server clamps, and the URL follows.
    page.goto(f"/games/{game_id}/replay/?ply=9999")
    view.expect_board(last, expected)

    view.slider.fill(str(last - 8))
    view.expect_board(last - 8, expected)
    page.select_option("#speed", "200")
    page.click("#autoplay")
    expect(page.locator("#autoplay")).to_have_attribute("aria-pressed", "true")
    view.expect_board(last, expected)
    expect(page.locator("#autoplay")).to_have_attribute("aria-pressed", "false")


def test_a_replay_follows_a_game_in_play(new_context: NewContext) -> None:
    alice = create_game(new_context().new_page(), kind="othello", size=8, name="Alice")
    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    watcher = new_context().new_page()
    watcher.goto(f"{alice.url}replay/")
    view = ReplayPage(watcher)
    expect(watcher.locator("#connection")).to_have_attribute("data-state", "connected")
    expect(view.root).to_have_attribute("data-last", "0")

    alice.point(alice.legal_points()[0]).click()
    expect(view.root).to_have_attribute("data-last", "1")
    expect(view.root).to_have_attribute("data-ply", "1")
    bob.wait_for_ply(1)
    bob.point(bob.legal_points()[0]).click()
    expect(view.root).to_have_attribute("data-ply", "2")

    state = alice.server_state()
    assert view.drawn_board() == state["board"]
    expect(view.move(2)).to_have_text(state["moves"][1]["notation"])

    # The end reaches the replay too: the result in words, and the link closed.
    alice.page.click("#resign-button")
    alice.page.click("#resign-yes")
    expect(view.root).to_have_attribute("data-ply", "3")
    expect(view.status).to_have_text("Move 3 of 3: Black resigns. White wins by resignation")
    expect(view.move(3)).to_have_class(re.compile(r"\bcurrent\b"))
    expect(watcher.locator("#connection")).to_have_text("Game over")


def test_an_imported_records_comments_are_shown_as_the_records(page: Page) -> None:
    """An imported record naming "alice" and saying "alice: ..." is nobody's: its seats
    say "imported", and the comment shows as the record's, on the game page and in the
    replay, never as alice's chat."""
    record = GameRecord(
        kind="go",
        size=9,
        moves=((Color.BLACK, Move.place((4, 4))),),
        black_name="alice",
        white_name="root",
        comments={0: "alice: I admit I used an engine"},
    )
    game_id = import_record(page, record)

    expect(page.locator(".player .player-tags")).to_have_text(["imported", "imported"])
    said = page.locator("#chat-list .chat-message")
    expect(said).to_have_count(1)
    expect(said).to_have_class(re.compile(r"\brecord-comment\b"))
    expect(said.locator(".chat-name")).to_have_text("From the record")
    expect(said.locator(".chat-text")).to_have_text("alice: I admit I used an engine")
    assert said.get_attribute("data-color") is None

    page.goto(f"/games/{game_id}/replay/?ply=0")
    shown = page.locator("#said-list .chat-message")
    expect(shown.locator(".chat-name")).to_have_text("From the record")
    expect(shown.locator(".chat-text")).to_have_text("alice: I admit I used an engine")
