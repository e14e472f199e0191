"""Around the board, in two browsers: the chat, a misclick taken back, a rematch that moves
both pages, the home page's list of open games kept up to date."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from urllib.parse import urlparse

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.game_page import GAME_URL, GamePage, create_game, join_game, watch_game

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]


def seat_two_players(new_context: NewContext, **options: object) -> tuple[GamePage, GamePage]:
    alice = create_game(new_context().new_page(), name="Alice", color="black", **options)
    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    expect(alice.player("white").locator(".player-name")).to_have_text("Bob")
    return alice, bob


def say(view: GamePage, text: str) -> None:
    view.page.fill("#chat-text", text)
    view.page.click('#chat-form button[type="submit"]')
    expect(view.page.locator("#chat-text")).to_have_value("")


def chat_of(view: GamePage) -> list[str]:
    """Each message as "name: text", as the page shows them."""
    said: list[str] = view.page.locator("#chat-list li").evaluate_all(
        """items => items.map(item => {
            const part = (name) => item.querySelector(name).textContent;
            return `${part(".chat-name")}: ${part(".chat-text")}`;
        })"""
    )
    return said


def test_players_and_a_spectator_chat_and_html_stays_text(
    new_context: NewContext, output_path: str
) -> None:
    alice, bob = seat_two_players(new_context, kind="othello", size=8)
    carol = watch_game(new_context().new_page(), alice.url)

    say(alice, "good luck!")
    say(bob, "<b>you too</b> https://example.com")
    say(carol, "  enjoy  ")

    # Carol never gave a name: she is a guest.
    expected = ["Alice: good luck!", "Bob: <b>you too</b> https://example.com", "Guest: enjoy"]
    for view in (alice, bob, carol):
        expect(view.page.locator("#chat-list li")).to_have_count(3)
        assert chat_of(view) == expected
        # Inert: no element, no link came from the message.
        assert view.page.locator("#chat-list b, #chat-list a").count() == 0
    expect(alice.page.locator('#chat-list li[data-color="black"] .chat-name')).to_have_text("Alice")

    # The chat is kept: a page opened later shows it.
    later = watch_game(new_context().new_page(), alice.url)
    expect(later.page.locator("#chat-list li")).to_have_count(3)
    alice.screenshot(output_path, "table/chat.png")


def test_a_misclick_taken_back(new_context: NewContext, output_path: str) -> None:
    alice, bob = seat_two_players(new_context, kind="othello", size=8)
    legal = alice.legal_points()
    alice.point(legal[0]).click()
    for view in (alice, bob):
        view.wait_for_ply(1)
    # Counts in words a person reads: "1 disc", "4 discs".
    expect(alice.player("white").locator(".player-score")).to_have_attribute("data-caption", "disc")
    expect(alice.player("black").locator(".player-score")).to_have_attribute(
        "data-caption", "discs"
    )
    before = alice.server_state()

    alice.page.click("#undo-button")
    expect(bob.page.locator("#undo-text")).to_have_text("Alice asks to take back their last move.")
    expect(alice.page.locator("#undo-text")).to_contain_text("Waiting for Bob")
    expect(alice.page.locator("#undo-button")).to_be_hidden()
    bob.screenshot(output_path, "table/undo-asked.png")
    bob.page.click("#undo-accept")

    expect(alice.notice).to_have_text("Your last move was taken back.")
    expect(bob.notice).to_have_text("Alice's last move was taken back.")
    for view in (alice, bob):
        view.wait_for_ply(0)
        expect(view.page.locator("#undo")).to_be_hidden()
        expect(view.page.locator("#move-list .move")).to_have_count(0)
    assert alice.server_state()["board"] != before["board"]
    expect(alice.status).to_have_text("Your move.")

    # A request declined: shown to both; asked again only after the next move.
    alice.point(legal[1]).click()
    bob.wait_for_ply(1)
    alice.page.click("#undo-button")
    bob.page.click("#undo-decline")
    expect(alice.notice).to_have_text("Bob declined to take the move back.")
    expect(bob.notice).to_have_text("You declined to take the move back.")
    expect(alice.page.locator("#undo-button")).to_be_hidden()
    assert alice.server_state()["ply"] == 1


def test_a_rematch_moves_both_pages_to_the_new_game(
    new_context: NewContext, output_path: str
) -> None:
    alice, bob = seat_two_players(new_context, kind="go", size=9)
    first = alice.url
    alice.page.click("#resign-button")
    alice.page.click("#resign-yes")
    for view in (alice, bob):
        expect(view.page.locator("#after-game")).to_be_visible()
    # Ways onward from a finished game.
    expect(bob.page.locator("#replay-link")).to_have_attribute(
        "href", f"{urlparse(first).path}replay/"
    )
    expect(bob.page.locator("#sgf-link")).to_be_visible()
    settings = new_context().new_page()
    settings.goto(bob.page.locator("#new-game-link").get_attribute("href") or "/")
    expect(settings.locator('input[name="kind"][value="go"]')).to_be_checked()
    expect(settings.locator('select[name="size"]')).to_have_value("9")

    bob.page.click("#rematch-button")
    expect(alice.page.locator("#rematch-text")).to_have_text(
        "Bob offers a rematch, colours swapped."
    )
    expect(alice.page.locator("#rematch-button")).to_have_text("Accept the rematch")
    alice.screenshot(output_path, "table/rematch-offered.png")
    alice.page.click("#rematch-button")

    for view in (alice, bob):
        view.page.wait_for_url(lambda url: GAME_URL.search(url) is not None and url != first)
        view.wait_until_connected()
    assert alice.url == bob.url
    # Colours swapped: Bob is Black now, and it is his move.
    expect(bob.player("black").locator(".player-name")).to_have_text("Bob")
    expect(bob.status).to_have_text("Your move.")
    expect(alice.player("white").locator(".player-tags")).to_have_text("you")
    assert alice.server_state()["size"] == 9


def playing_count(page: Page) -> int:
    """The number the home page says is being played right now."""
    words = page.locator("#playing").inner_text()
    return 0 if words.startswith("No games") else int(words.split()[0])


def archived_playing(page: Page) -> set[str]:
    """The ids of the games the archive lists as being played, every page of it."""
    found: set[str] = set()
    for number in range(1, 100):
        page.goto(f"/games/?status=playing&page={number}")
        rows = page.locator("table tbody tr[data-game]")
        ids = {row.get_attribute("data-game") or "" for row in rows.all()}
        if not ids or ids <= found:  # past the last page (Django gives the last again)
            return found
        found |= ids
    return found


def open_rows(page: Page) -> list[str]:
    return page.locator("#open-games tr").all_inner_texts()


def test_the_lobby_updates_by_itself_in_another_browser(
    new_context: NewContext, output_path: str
) -> None:
    dave = new_context().new_page()
    dave.goto("/")
    expect(dave.locator("#playing")).to_contain_text("being played right now")
    before = dave.locator("#open-games tr").count()

    alice = create_game(new_context().new_page(), kind="go", size=13, name="Alice Lobby")
    row = dave.locator("#open-games tr", has_text="Alice Lobby")
    expect(row).to_have_count(1, timeout=2000)
    expect(row).to_contain_text("Go 13\N{MULTIPLICATION SIGN}13")
    dave.screenshot(path=f"{output_path}/table/lobby.png", full_page=True)

    # Joined from the live row: the seat is taken, and the row leaves every lobby.
    erin = new_context().new_page()
    erin.goto("/")
    erin_row = erin.locator("#open-games tr", has_text="Alice Lobby")
    erin_row.locator('input[name="name"]').fill("Erin")
    erin_row.locator('button[type="submit"]').click()
    erin.wait_for_url(alice.url)
    expect(alice.player("white").locator(".player-name")).to_have_text("Erin")
    expect(row).to_have_count(0, timeout=2000)
    assert dave.locator("#open-games tr").count() == before

    # A game is being played once a move is made in it (the count is live: the server's
    # clock watch tells the lobby within seconds), and the games being played are a
    # click away: the archive's games with a move in the last ten minutes. Games of
    # earlier tests may leave those ten minutes meanwhile (the run is long), so the count
    # is right when it says what the archive lists, Alice's game among them.
    alice.point(alice.legal_points()[0]).click()
    archive = new_context().new_page()
    deadline = time.monotonic() + 10
    while True:
        listed = archived_playing(archive)
        alice_listed = alice.url.rstrip("/").rsplit("/", 1)[-1] in listed
        if alice_listed and playing_count(dave) == len(listed):
            break
        assert time.monotonic() < deadline, (
            f"the lobby counts {playing_count(dave)} games being played, the archive lists "
            f"{len(listed)} (Alice's {'among them' if alice_listed else 'not'})"
        )
        dave.wait_for_timeout(500)
    playing_now = dave.locator("#playing a")
    expect(playing_now).to_have_text(re.compile(r"^watch (it|them)$"))
    expect(playing_now).to_have_attribute("href", "/games/?status=playing")
    playing_now.click()
    expect(dave.locator("table")).to_contain_text("Alice Lobby")
    dave.go_back()

    # A game called off leaves it too.
    frank = create_game(new_context().new_page(), kind="othello", size=6, name="Frank Lobby")
    frank_row = dave.locator("#open-games tr", has_text="Frank Lobby")
    expect(frank_row).to_have_count(1, timeout=2000)
    frank.page.click("#abort-button")
    frank.page.click("#abort-yes")
    expect(frank_row).to_have_count(0, timeout=2000)


def test_the_tab_title_says_your_move_and_counts_what_happened_in_the_background(
    new_context: NewContext,
) -> None:
    alice, bob = seat_two_players(new_context, kind="othello", size=8)
    expect(alice.page).to_have_title(re.compile("^● Your move · Othello 8\N{MULTIPLICATION SIGN}8"))
    expect(bob.page).to_have_title(re.compile(r"^Alice to move · "))

    bob.page.evaluate(
        """() => Object.defineProperty(document, "hidden", {configurable: true, get: () => true})"""
    )
    alice.point(alice.legal_points()[0]).click()
    say(alice, "your turn")
    expect(bob.page).to_have_title(re.compile(r"^\(2\) ● Your move · "))

    bob.page.evaluate(
        """() => {
            Object.defineProperty(document, "hidden", {configurable: true, get: () => false});
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    expect(bob.page).to_have_title(re.compile(r"^● Your move · "))
