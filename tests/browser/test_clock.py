"""The clocks in the browser: both shown, standing still until each side has made its
first move (a countdown says by when), then the running one ticking, the flag from the
server ending the game on every page; a game nobody moves in aborted on every page; the
presence of each player."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import DaphneServer, _new_server
from tests.browser.game_page import create_game, join_game, watch_game
from tests.browser.test_accessibility import violations

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]


def test_the_running_clock_ticks_and_the_server_flags_the_game(new_context: NewContext) -> None:
    alice = create_game(
        new_context().new_page(),
        kind="othello",
        size=8,
        name="Alice",
        clock={"clock": "absolute", "main_time": 4},
    )
    expect(alice.page.locator("#time-control")).to_have_text("4 s in all (absolute)")
    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    spectator = watch_game(new_context().new_page(), alice.url)

    # No clock runs before each side's first move; a countdown says by when it is due.
    black_clock = alice.player("black").locator(".player-clock")
    expect(alice.page.locator("#first-move")).to_have_text(
        re.compile(r"^You must move within 0:[0-3]\d or the game is aborted\.$")
    )
    for view in (bob, spectator):
        expect(view.page.locator("#first-move")).to_have_text(
            re.compile(r"^Alice \(Black\) must move within 0:[0-3]\d or the game is aborted\.$")
        )
    expect(black_clock).not_to_have_class(re.compile(r"\brunning\b"))
    expect(black_clock.locator(".clock-time")).to_have_text("0:04.0")
    alice.point([2, 3]).click()
    bob.wait_for_ply(1)
    expect(bob.page.locator("#first-move")).to_have_text(
        re.compile(r"^You must move within 0:[0-3]\d or the game is aborted\.$")
    )
    expect(black_clock.locator(".clock-time")).to_have_text("0:04.0")  # free
    bob.point([2, 2]).click()
    alice.wait_for_ply(2)
    for view in (alice, bob, spectator):
        expect(view.page.locator("#first-move")).to_be_hidden()

    # Both have moved: Black's clock runs.
    expect(black_clock).to_have_class(re.compile(r"\brunning\b"))
    expect(alice.player("white").locator(".clock-time")).to_have_text("0:04.0")
    first = black_clock.locator(".clock-time").inner_text()
    expect(black_clock.locator(".clock-time")).not_to_have_text(first)  # it ticks
    expect(black_clock).to_have_class(re.compile(r"\blow\b"))

    for view in (alice, bob, spectator):
        expect(view.status).to_have_text("White wins on time", timeout=10_000)
        expect(view.player("black").locator(".clock-time")).to_have_text("0:00.0")
        expect(view.player("black").locator(".player-clock")).not_to_have_class(
            re.compile(r"\brunning\b")
        )
    expect(alice.page.locator("#outcome")).to_have_text("You lost.")
    expect(bob.page.locator("#outcome")).to_have_text("You won.")


def test_each_player_is_shown_online_or_away(new_context: NewContext) -> None:
    alice = create_game(new_context().new_page(), kind="go", size=9, name="Alice")
    bob_context = new_context()
    bob = join_game(bob_context.new_page(), alice.url, name="Bob")
    expect(alice.player("white")).to_have_class(re.compile(r"\bonline\b"))
    expect(alice.page).to_have_title(re.compile(r"^● Your move"))
    expect(bob.page).to_have_title(re.compile(r"^Alice to move"))

    bob_context.close()

    expect(alice.player("white")).to_have_class(re.compile(r"\baway\b"))
    expect(alice.player("white").locator(".presence")).to_have_attribute("title", "Bob is away")
    expect(alice.page.locator("#claim")).to_be_visible()
    expect(alice.page.locator("#claim-button")).to_be_disabled()


FIRST_MOVE_SECONDS = 8


@pytest.fixture
def quick_first_moves(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaphneServer]:
    """A daphne process of this test's own where a first move is due within 8 s."""
    server = _new_server(tmp_path_factory)
    server.env["FIRST_MOVE_SECONDS"] = str(FIRST_MOVE_SECONDS)
    server.start()
    yield server
    server.stop()
    server.remove_database()


def test_a_game_nobody_moves_in_is_aborted_on_every_page(
    new_context: NewContext, quick_first_moves: DaphneServer, output_path: str
) -> None:
    alice = create_game(
        new_context().new_page(),
        kind="go",
        size=9,
        name="Alice",
        clock={"clock": "fischer", "main_time": 300, "increment": 5},
        home=f"{quick_first_moves.url}/",
    )
    phone = new_context(viewport={"width": 390, "height": 844})
    bob = join_game(phone.new_page(), alice.url, name="Bob")
    countdown = bob.page.locator("#first-move")
    expect(countdown).to_have_text(
        re.compile(r"^Alice \(Black\) must move within 0:0[0-8] or the game is aborted\.$")
    )
    for view in (alice, bob):  # the clocks stand still meanwhile
        expect(view.player("black").locator(".clock-time")).to_have_text("5:00")
        expect(view.player("black").locator(".player-clock")).not_to_have_class(
            re.compile(r"\brunning\b")
        )
    alice.screenshot(output_path, "first-move/countdown.png")
    bob.screenshot(output_path, "first-move/countdown-phone.png")
    assert violations(bob.page) == []

    for view in (alice, bob):
        expect(view.status).to_have_text(
            "Aborted: Alice (Black) did not make a first move.", timeout=20_000
        )
        expect(view.page.locator("#first-move")).to_be_hidden()
        expect(view.page.locator("#outcome")).to_be_hidden()  # nobody won or lost
        expect(view.player("black").locator(".clock-time")).to_have_text("5:00")
    alice.screenshot(output_path, "first-move/aborted.png")
    bob.screenshot(output_path, "first-move/aborted-phone.png")
    assert violations(alice.page) == []
