"""The words the pages use say what they mean: the clock's system and its increment per
move, a pass with the player's name, the count's dead stones by whom they count for, the
archive's link to a game of your own in progress, the review's engine in plain words;
and in Japanese, the computer's seat and the review's words and marks."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.game_page import create_game, join_game
from tests.browser.test_accessibility import VIEWPORTS
from tests.browser.test_languages import translated
from tests.browser.test_review import reviewed_4x4

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
SYSTEM = re.compile(r"\((Fischer|absolute|byo-yomi|Canadian|correspondence)\)$")


def test_every_clock_preset_names_its_system(new_context: NewContext, output_path: str) -> None:
    page = new_context().new_page()
    page.goto("/")
    for kind in ("othello", "go"):
        page.check(f'input[name="kind"][value="{kind}"]')
        labels = page.locator("#clock-preset option").all_inner_texts()
        timed = [label for label in labels if label not in ("No clock", "Custom…")]
        assert timed, labels
        assert [label for label in timed if not SYSTEM.search(label)] == []

    alice = create_game(
        page, kind="othello", size=8, name="Alice", clock="5 min, +3 s per move (Fischer)"
    )
    expect(page.locator("#time-control")).to_have_text("5 min, +3 s per move (Fischer)")
    alice.screenshot(output_path, "words/fischer.png")


def test_a_pass_is_told_with_the_players_name_and_the_count_by_whom_it_counts_for(
    new_context: NewContext, output_path: str
) -> None:
    alice = create_game(new_context().new_page(), kind="go", size=9, name="Alice")
    bob = join_game(new_context().new_page(), alice.url, name="Bob")
    alice.page.click("#pass-button")
    expect(bob.notice).to_have_text("Alice passes.")
    expect(alice.notice).to_have_text("You pass.")
    bob.page.click("#pass-button")
    for view in (alice, bob):
        dead = view.page.locator('#count-table tr[data-field="dead"] th')
        expect(dead).to_have_text("Opponent's dead stones")
    alice.screenshot(output_path, "words/count.png")


def test_the_archive_offers_to_play_your_own_game_and_to_watch_others(
    new_context: NewContext,
) -> None:
    alice = create_game(new_context().new_page(), kind="othello", size=8, name="Alice")
    join_game(new_context().new_page(), alice.url, name="Bob")
    game_id = alice.url.rstrip("/").rsplit("/", 1)[1]
    carol = new_context().new_page()
    for page, word in ((alice.page, "Play"), (carol, "Watch")):
        page.goto("/games/")
        links = page.locator(f'tr[data-game="{game_id}"] td.links a')
        expect(links.first).to_have_text(word)


def test_the_review_names_its_engine_in_plain_words_and_its_marks_in_japanese(
    new_context: NewContext, output_path: str
) -> None:
    page = new_context().new_page()
    game_id, review = reviewed_4x4(page)
    expect(page.locator("#review-status")).to_have_text(
        "Reviewed by our Othello engine: perfect play over the last 14 squares."
    )
    assert review["engine"] == "Engine (review: exact at 14 empties)"  # the API's, as stored

    japanese = new_context(locale="ja-JP").new_page()
    japanese.goto(f"/games/{game_id}/replay/")
    engine = translated("ja", "our Othello engine: perfect play over the last %(empties)s squares")
    said = translated("ja", "Reviewed by %(engine)s.", domain="djangojs")
    expect(japanese.locator("#review-status")).to_have_text(
        said.replace("%(engine)s", engine.replace("%(empties)s", "14"))
    )
    judged = [entry["judgement"] for entry in review["plies"] if entry.get("judgement")]
    marks = japanese.locator("#move-list .review-mark")
    expect(marks).to_have_count(len(judged))
    for mark, judgement in zip(marks.all(), judged, strict=True):
        expect(mark).to_have_attribute(
            "aria-label", translated("ja", f", {judgement}", domain="djangojs")
        )
    # The graph's ?!, ? and ?? in three colours (its key shows them all).
    colours = {
        judgement: japanese.locator(f".legend-dot.{judgement}").evaluate(
            "dot => getComputedStyle(dot).backgroundColor"
        )
        for judgement in ("inaccuracy", "mistake", "blunder")
    }
    # ?! and ? told apart at a glance (they were two oranges); ? and ?? as before.
    assert colour_distance(colours["inaccuracy"], colours["mistake"]) >= 40, colours
    assert colour_distance(colours["mistake"], colours["blunder"]) >= 20, colours
    japanese.locator("#review-graph").scroll_into_view_if_needed()
    japanese.screenshot(path=f"{output_path}/words/review-ja.png", full_page=True)


def test_the_computers_seat_and_the_move_confirmation_speak_japanese(
    new_context: NewContext, output_path: str
) -> None:
    page = new_context(locale="ja-JP", **VIEWPORTS["phone"]).new_page()
    view = create_game(page, kind="othello", size=8, name="Alice", level=3)
    engine = translated("ja", "Engine", context="the computer's seat")
    shown = translated("ja", "%(engine)s (level %(level)s)")
    shown = shown.replace("%(engine)s", engine).replace("%(level)s", "3")
    seat = view.player("white")
    expect(seat.locator(".player-name")).to_have_text(shown)
    expect(seat.locator(".presence")).to_have_attribute("title", re.compile(re.escape(shown)))
    expect(page).to_have_title(re.compile(re.escape(shown)))
    assert view.server_state()["players"]["white"] == "Engine (level 3)"  # the API's: data

    # This browser's choice: every move waits for Confirm.
    page.evaluate("localStorage.setItem('othello-go:confirm-moves', 'always')")
    page.reload()
    view.wait_until_connected()
    expect(view.status).to_have_text(translated("ja", "Your move.", domain="djangojs"))
    view.point((2, 3)).tap()
    question = translated("ja", "Play %(point)s?", domain="djangojs").replace("%(point)s", "d3")
    expect(page.locator("#move-confirm-text")).to_have_text(question)
    expect(page.locator("#move-confirm-yes")).to_have_text(
        translated("ja", "Confirm", context="a move")
    )
    expect(page.locator("#move-confirm-no")).to_have_text(translated("ja", "Cancel"))
    view.screenshot(output_path, "words/confirm-ja.png")


def colour_distance(first: str, second: str) -> float:
    """How far apart two CSS ``rgb(r, g, b)`` colours look: CIE76's distance in L*a*b*
    (about 2 is barely seen; two shades of one orange are about 25 apart)."""
    return math.dist(_lab(first), _lab(second))


def _lab(css: str) -> tuple[float, float, float]:
    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    def f(value: float) -> float:
        return value ** (1 / 3) if value > 0.008856 else 7.787 * value + 16 / 116

    red, green, blue = (linear(int(part) / 255) for part in re.findall(r"\d+", css)[:3])
    x = (0.4124 * red + 0.3576 * green + 0.1805 * blue) / 0.95047
    y = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    z = (0.0193 * red + 0.1192 * green + 0.9505 * blue) / 1.08883
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))
