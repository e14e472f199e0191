"""The help pages in a browser: axe-core finds nothing on any of them, on a desktop and on
a phone, nor does any scroll sideways; the header leads there; and after a rated game the
words of a rating (the ? of a provisional one, RD) are links to their explanation, with
a title, on the game page and the profile, whose graph starts at 1500."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from manual.topics import TOPICS
from tests.browser.test_accessibility import VIEWPORTS, violations
from tests.browser.test_ratings import play_first_legal, rated_game

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
PAGES = ["/help/", "/rules/", "/faq/", *(f"/help/{topic.slug}/" for topic in TOPICS)]
PROVISIONAL = "/help/ratings/#provisional"


def fits_the_width(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size
    assert viewport is not None and width <= viewport["width"], f"{page.url} scrolls sideways"


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_no_accessibility_violations_on_the_help_pages(
    new_context: NewContext, screen: str, output_path: str
) -> None:
    page = new_context(**VIEWPORTS[screen]).new_page()
    found: dict[str, list[dict[str, Any]]] = {}
    for path in PAGES:
        page.goto(path)
        expect(page.locator("h1")).to_be_visible()
        found[path] = violations(page)
        fits_the_width(page)
        if path == "/help/rules-go/":
            expect(page.locator("figure.diagram svg[role=img]")).to_have_count(6)
            page.locator("#ko").scroll_into_view_if_needed()
            page.screenshot(path=f"{output_path}/help-rules-go-{screen}.png")
            page.screenshot(path=f"{output_path}/help-rules-go-{screen}-full.png", full_page=True)
    found = {path: found_here for path, found_here in found.items() if found_here}
    assert found == {}, json.dumps(found, indent=1)


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_the_header_leads_to_the_help_and_its_topics(new_context: NewContext, screen: str) -> None:
    page = new_context(**VIEWPORTS[screen]).new_page()
    page.goto("/")
    if screen == "phone":  # the site's pages are behind Menu on a phone
        page.get_by_text("Menu", exact=True).click()
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Help").click()
    page.wait_for_url(re.compile(r"/help/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Help")

    page.get_by_role("link", name="The rules of Go").click()
    page.wait_for_url(re.compile(r"/help/rules-go/$"))
    capture = page.get_by_role("img", name=re.compile(r"^Black to move\. The two white"))
    expect(capture).to_be_visible()


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_a_rating_explains_its_words_and_its_graph_starts_at_1500(
    new_context: NewContext, screen: str, output_path: str
) -> None:
    alice, bob, alice_name = rated_game(new_context, **VIEWPORTS[screen])

    # The game page: the "?" after a provisional rating is a link with a title.
    rating = bob.player("black").locator(".player-rating")
    expect(rating).to_have_text("1500?")
    mark = rating.get_by_role("link", name="?")
    expect(mark).to_have_attribute("href", PROVISIONAL)
    expect(mark).to_have_attribute("title", re.compile(r"^Provisional rating"))

    play_first_legal(alice, ply=0)
    play_first_legal(bob, ply=1)
    bob.wait_for_ply(2)
    bob.page.click("#resign-button")
    bob.page.click("#resign-yes")
    expect(rating).to_have_text(re.compile(r"^\d+\? \+\d+$"))
    expect(rating.get_by_role("link", name="?")).to_have_attribute("href", PROVISIONAL)
    bob.screenshot(output_path, f"game-over-{screen}.png")
    assert violations(bob.page) == []

    # The profile: the ?, "RD" and "provisional" link to the ratings' help, with titles;
    # the graph draws two points, the start at 1500 and the rating after the game.
    profile = alice.page
    profile.goto(f"/players/{alice_name}/")
    card = profile.locator('.rating-card[data-category="othello4-blitz"]')
    value = card.locator(".rating-value")
    expect(value.locator("strong")).to_have_text(re.compile(r"^\d+\?$"))
    for name, anchor in (("?", "#provisional"), ("RD", "#rd"), ("provisional", "#provisional")):
        link = value.get_by_role("link", name=name, exact=True)
        expect(link).to_have_attribute("href", f"/help/ratings/{anchor}")
        expect(link).to_have_attribute("title", re.compile(r"\w+"))
    graph = card.locator("svg.rating-graph")
    expect(graph.locator("circle.point")).to_have_count(2)
    expect(graph.locator("circle.point.start")).to_have_count(1)
    expect(graph).to_have_attribute("aria-label", re.compile(r": from 1500 to \d+ over 1 game$"))
    start, after = (
        float(graph.locator("circle.point").nth(index).get_attribute("cy") or "nan")
        for index in (0, 1)
    )
    assert after < start  # Alice won: the line rises from 1500
    ticks = graph.locator("text.tick[text-anchor=end]").all_text_contents()
    assert "1500" in ticks and all(int(tick) % 50 == 0 for tick in ticks if tick.isdigit())
    fits_the_width(profile)
    assert violations(profile) == []
    card.scroll_into_view_if_needed()
    profile.screenshot(path=f"{output_path}/profile-graph-{screen}.png")

    value.get_by_role("link", name="?", exact=True).click()
    profile.wait_for_url(re.compile(r"/help/ratings/#provisional$"))
    expect(profile.locator("#provisional")).to_be_in_viewport()
