"""Tournaments in the browser, as new players try them (several accounts, desktops and a
390x844 phone): one creates a tournament with the form (its start picked in the
browser's own time zone), the others join, and with only the tournament's page open each
is taken to its game when paired and plays it; a Swiss goes round after round, the pages
following, the bye told; an arena's berserk; the phone's cross-table readable; the form's
sizes and Start now."""

from __future__ import annotations

import datetime
import re
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.game_page import GamePage, create_game
from tests.browser.test_accessibility import violations
from tests.browser.test_ratings import sign_up

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SHOTS = Path("/tmp/tournament-shots")
TOURNAMENT_URL = re.compile(r"/tournaments/\d+/$")
GAME_URL = re.compile(r"/games/[\w-]+/$")
PAIRED_WITHIN_MS = 5_000
"""From the pairing (the round's T) to the page on the game: the socket's 2 s, and the
page's loading."""


def person(new_context: NewContext, name: str, *, phone: bool = False, zone: str = "UTC") -> Page:
    """A new account's browser: a desktop's, or a phone's (touch), in time zone ``zone``."""
    options: dict[str, Any] = {"timezone_id": zone}
    if phone:
        options.update(viewport=PHONE, has_touch=True, is_mobile=True)
    else:
        options.update(viewport=DESKTOP)
    page = new_context(**options).new_page()
    sign_up(page, name)
    return page


def create(
    page: Page, *, system: str, name: str, starts: datetime.datetime, zone: str, **fields: str
) -> str:
    """Fill in the create form on the list page: the start picked in the browser's zone
    (``zone``, to the second); ``fields``: the system's own (rounds, duration). The new
    tournament's page's URL."""
    page.goto("/tournaments/")
    form = page.locator("#new-tournament-form")
    form.locator('[name="system"]').select_option(system)
    form.locator('[name="name"]').fill(name)
    form.locator('[name="kind"]').select_option("othello")
    form.locator('[name="size"]').select_option("8")
    form.locator('[name="clock"]').select_option("fischer")
    form.locator('[name="main_time"]').fill("120")
    form.locator('[name="increment"]').fill("1")
    picked = starts.astimezone(ZoneInfo(zone)).strftime("%Y-%m-%dT%H:%M:%S")
    form.locator('[name="starts_at"]').fill(picked)
    for field, value in fields.items():
        form.locator(f'[name="{field}"]').fill(value)
    form.get_by_role("button", name="Create").click()
    page.wait_for_url(TOURNAMENT_URL)
    expect(page.locator("h1")).to_have_text(name)
    return page.url


def tournament_json(page: Page, url: str) -> dict[str, Any]:
    answer = page.request.get(url.rstrip("/") + ".json")
    assert answer.ok
    data: dict[str, Any] = answer.json()
    return data


def wait_for_round(page: Page, url: str, number: int) -> dict[str, Any]:
    """T once round ``number`` is paired (read as the page would, every half second)."""
    for _ in range(120):
        data = tournament_json(page, url)
        if data["round"] >= number:
            return data
        page.wait_for_timeout(500)
    raise AssertionError(f"round {number} was never paired")


def play_and_win(black: GamePage, white: GamePage) -> None:
    """Each side makes its first move, then White resigns."""
    black.wait_until_connected()
    white.wait_until_connected()
    black.point(black.legal_points()[0]).click()
    white.wait_for_ply(1)
    white.point(white.legal_points()[0]).click()
    black.wait_for_ply(2)
    white.page.locator("#resign-button").click()
    white.page.locator("#resign-yes").click()
    expect(black.status).to_contain_text("wins by resignation")


def test_a_swiss_takes_each_player_from_the_tournament_page_to_its_games(
    new_context: NewContext, base_url: str
) -> None:
    """Three accounts (two desktops, one phone, three time zones) join a 3-round Swiss and
    keep only its page open: each round, the two paired are taken to their game without a
    click and play it; the third is told of its bye; then the next round takes them on
    from the game pages; at the end the phone's cross-table is readable."""
    suffix = uuid.uuid4().hex[:6]
    names = [f"ann{suffix}", f"bob{suffix}", f"cid{suffix}"]
    pages = {
        names[0]: person(new_context, names[0], zone="Asia/Tokyo"),
        names[1]: person(new_context, names[1]),
        names[2]: person(new_context, names[2], phone=True, zone="America/New_York"),
    }
    ann, cid = pages[names[0]], pages[names[2]]
    starts = datetime.datetime.now(datetime.UTC).replace(microsecond=0) + datetime.timedelta(
        seconds=15
    )
    url = create(
        ann,
        system="swiss",
        name=f"Night swiss {suffix}",
        starts=starts,
        zone="Asia/Tokyo",
        rounds="3",
    )
    # Picked in Tokyo's time, stored as that moment.
    assert datetime.datetime.fromisoformat(tournament_json(ann, url)["starts_at"]) == starts
    for name, page in pages.items():
        if page is not ann:
            page.goto(url)
        page.locator("#join").click()
        expect(page.locator("#standings")).to_contain_text(name)
    expect(cid.locator("#countdown")).to_contain_text("Starts in")
    for number in (1, 2, 3):
        data = wait_for_round(ann, url, number)
        [game] = [p for p in data["pairings"] if p["round"] == number and p["game_id"]]
        [bye] = [p["black"] for p in data["pairings"] if p["round"] == number and not p["game_id"]]
        game_url = re.compile(rf"/games/{game['game_id']}/$")
        black, white = GamePage(pages[game["black"]]), GamePage(pages[game["white"]])
        for view in (black, white):
            # Nobody clicks: the page goes to the game by itself.
            view.page.wait_for_url(game_url, timeout=PAIRED_WITHIN_MS)
        expect(black.page.locator("#tournament-note")).to_contain_text(
            f"Round {number} of Night swiss"
        )
        play_and_win(black, white)
        # The bye's player stays where it was, and is told.
        assert not game_url.search(pages[bye].url)
        told = pages[bye].request.get("/notifications.json").json()["notifications"]
        assert any(f"round {number}: you have a bye" in n["text"] for n in told)
    for page in pages.values():
        page.goto(url)
        expect(page.locator("#tournament-status")).to_have_text("Finished")
    # Every game was played (none lost unplayed): three wins, three losses, three byes.
    results = [
        line["result"] for row in tournament_json(ann, url)["players"] for line in row["sheet"]
    ]
    assert sorted(results) == sorted(["win"] * 3 + ["loss"] * 3 + ["bye"] * 3)
    # The cross-table: a column a round, the tiebreaks by name, the names linked.
    table = cid.locator("#standings")
    expect(table.locator("thead")).to_contain_text("Buchholz")
    expect(table.locator("thead")).to_contain_text("Disc difference")
    expect(table.locator("th.round")).to_have_count(3)
    expect(table.locator("tbody th.name a")).to_have_count(3)
    expect(table.locator('td.round[data-result="bye"]')).to_have_count(3)
    SHOTS.mkdir(exist_ok=True)
    cid.screenshot(path=str(SHOTS / "swiss-phone.png"), full_page=True)
    ann.screenshot(path=str(SHOTS / "swiss-desktop.png"), full_page=True)
    # The chat, after the last round: an entrant speaks, the phone hears it.
    ann.locator("#tournament-chat-text").fill("well played all")
    ann.locator("#tournament-chat-form button").click()
    expect(cid.locator("#tournament-chat-list")).to_contain_text(f"{names[0]}well played all")
    # axe finds nothing on the finished tournament's page, on the desktop and the phone.
    assert violations(ann) == [] and violations(cid) == []
    # The phone never scrolls sideways as a page; a table wider than it says so.
    assert cid.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    wider = cid.evaluate(
        "(() => { const box = document.getElementById('standings-box');"
        " return box.scrollWidth > box.clientWidth + 1; })()"
    )
    if wider:
        expect(cid.locator("#standings-hint")).to_be_visible()
    else:
        expect(cid.locator("#standings-hint")).to_be_hidden()
    # The names stay in sight however far the table is scrolled: at the box's left edge.
    box = cid.locator("#standings-box")
    box.evaluate("box => { box.scrollLeft = box.scrollWidth; }")
    for name in table.locator("tbody th.name").all():
        seen, edge = name.bounding_box(), box.bounding_box()
        assert seen is not None and edge is not None
        assert edge["x"] <= seen["x"] and seen["x"] + seen["width"] <= edge["x"] + edge["width"]
    cid.screenshot(path=str(SHOTS / "swiss-phone-scrolled.png"))


def test_an_arenas_players_are_taken_to_their_game_and_may_go_berserk(
    new_context: NewContext, base_url: str
) -> None:
    suffix = uuid.uuid4().hex[:6]
    ann = person(new_context, f"ann{suffix}", zone="Europe/Paris")
    bob = person(new_context, f"bob{suffix}", phone=True)
    ann.goto("/")
    ann.get_by_role("link", name="Tournaments").click()
    ann.wait_for_url(re.compile(r"/tournaments/$"))
    SHOTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(SHOTS / "list.png"), full_page=True)
    starts = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=10)
    url = create(
        ann,
        system="arena",
        name=f"Evening arena {suffix}",
        starts=starts,
        zone="Europe/Paris",
        duration="20",
    )
    ann.locator("#join").click()
    expect(ann.locator("#standings")).to_contain_text(f"ann{suffix}")
    # Pause is an arena's while it runs: not yet.
    expect(ann.locator("#pause")).to_be_hidden()
    bob.goto(url)
    bob.locator("#join").tap()
    expect(bob.locator("#standings")).to_contain_text(f"bob{suffix}")
    # Ann's page hears Bob join (the tournament's group on the lobby socket).
    expect(ann.locator("#standings")).to_contain_text(f"bob{suffix}")
    # It starts, the loop pairs them: each page goes to their game by itself.
    ann.wait_for_url(GAME_URL, timeout=30_000)
    bob.wait_for_url(GAME_URL, timeout=PAIRED_WITHIN_MS)
    assert ann.url == bob.url
    expect(ann.locator("#tournament-note")).to_contain_text(f"Round 1 of Evening arena {suffix}")
    # Berserk, before one's first move: one's own clock halved (2:00 -> 1:00), once.
    berserk = ann.locator("#berserk-button")
    expect(berserk).to_be_visible()
    ann.screenshot(path=str(SHOTS / "game.png"))
    berserk.click()
    expect(berserk).to_be_hidden()
    you = ann.evaluate("document.querySelector('[data-you]').dataset.you")
    expect(ann.locator(f'.player[data-color="{you}"] .clock-time')).to_contain_text("1:00")
    expect(bob.locator("#berserk-button")).to_be_visible()
    # Back on the tournament's page: the game in progress, Pause, the end's countdown.
    for page in (ann, bob):
        page.goto(url)
        expect(page.locator("#your-game")).to_be_visible()
        expect(page.locator("#tournament-status")).to_have_text("Running")
        expect(page.locator("#pause")).to_be_visible()
        expect(page.locator("#countdown")).to_contain_text("Ends in")
    expect(ann.locator("#pairings a")).to_contain_text(f"ann{suffix}")
    ann.screenshot(path=str(SHOTS / "desktop.png"), full_page=True)
    bob.screenshot(path=str(SHOTS / "phone.png"), full_page=True)
    # No sideways scrolling on the phone.
    assert bob.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # The chat: an entrant speaks, the other's page hears it.
    bob.locator("#tournament-chat-text").fill("good luck")
    bob.locator("#tournament-chat-form button").tap()
    expect(ann.locator("#tournament-chat-list")).to_contain_text("good luck")


def test_the_create_form_offers_the_games_sizes_and_start_now(
    new_context: NewContext, base_url: str
) -> None:
    page = person(new_context, f"dan{uuid.uuid4().hex[:6]}")
    page.goto("/tournaments/new/")
    form = page.locator("#new-tournament-form")
    size = form.locator('[name="size"]')

    def sizes() -> list[int]:
        return [
            int(value)
            for value in size.locator("option").evaluate_all("os => os.map(o => o.value)")
        ]

    form.locator('[name="kind"]').select_option("othello")
    assert sizes() and all(n % 2 == 0 for n in sizes())
    form.locator('[name="kind"]').select_option("go")
    assert sizes() and all(n % 2 == 1 for n in sizes())
    form.locator('[name="kind"]').select_option("othello")
    # The picker starts ten minutes from now, in the browser's time; Start now sets it aside.
    picker = form.locator('[name="starts_at"]')
    expect(picker).to_have_attribute("type", "datetime-local")
    assert picker.input_value()
    form.locator('[name="start_now"]').check()
    expect(picker).to_be_disabled()
    form.locator('[name="name"]').fill("Right now")
    form.locator('[name="clock"]').select_option("fischer")
    form.locator('[name="main_time"]').fill("60")
    form.locator('[name="increment"]').fill("0")
    sent = datetime.datetime.now(datetime.UTC)
    form.get_by_role("button", name="Create").click()
    page.wait_for_url(TOURNAMENT_URL)
    starts = datetime.datetime.fromisoformat(tournament_json(page, page.url)["starts_at"])
    assert datetime.timedelta(seconds=50) < starts - sent < datetime.timedelta(seconds=75)


def test_a_game_being_played_is_not_left_for_the_tournaments_game(
    new_context: NewContext, base_url: str
) -> None:
    """Ann plays the computer while her Swiss starts: her game's page stays, and shows the
    link to the tournament's game (with the tone where allowed); Bob, on the tournament's
    page, is taken to it."""
    suffix = uuid.uuid4().hex[:6]
    ann = person(new_context, f"ann{suffix}")
    bob = person(new_context, f"bob{suffix}")
    starts = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=12)
    url = create(
        ann, system="swiss", name=f"Busy swiss {suffix}", starts=starts, zone="UTC", rounds="1"
    )
    ann.locator("#join").click()
    bob.goto(url)
    bob.locator("#join").click()
    expect(ann.locator("#standings")).to_contain_text(f"bob{suffix}")
    casual = create_game(ann, kind="othello", size=8, name="Ann", level=1)
    casual.point(casual.legal_points()[0]).click()  # a move: she is playing it
    casual.wait_for_ply(2)
    bob.wait_for_url(GAME_URL, timeout=30_000)
    banner = ann.locator("#game-ready a")
    expect(banner).to_be_visible()
    assert casual.url in ann.url  # still on her game
    expect(banner).to_have_attribute("href", re.compile(re.escape(bob.url.split(base_url)[-1])))
    banner.click()
    ann.wait_for_url(bob.url)
