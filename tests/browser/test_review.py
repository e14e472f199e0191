"""The engines' review on the replay page, in a browser: a finished 6x6 Othello game is
analysed by the server's engines (asked for from the game page); the graph and the
marks appear; clicking the graph moves the board; the best move and the perfect-play
verdict show; other moves are tried on a side board and the player comes back. A short
9x9 Go game is reviewed by GNU Go the same way, in points."""

from __future__ import annotations

import dataclasses
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_replay import ReplayPage, import_record, random_record

pytestmark = pytest.mark.browser

ANALYSIS_TIMEOUT = 120_000
ENGINE_TIMEOUT = 30_000
"""An explored position's answer: the engine's 0.3 s, on a machine others share too."""


def test_analyse_a_finished_6x6_game_and_read_the_review(page: Page) -> None:
    record = random_record("othello", 6, seed=5, limit=200)
    last = len(record.moves)
    game_id = import_record(page, record)
    # The finished game's page offers the review: its link asks for it on the replay.
    page.get_by_role("link", name="Analyse this game").click()
    page.wait_for_url(re.compile(r"/replay/"))
    view = ReplayPage(page)
    status = page.locator("#review-status")
    expect(status).to_have_text(re.compile(r"^Reviewed by "), timeout=ANALYSIS_TIMEOUT)
    graph = page.locator("#review-graph")
    expect(graph).to_be_visible()
    # Random moves make mistakes: at least one move is marked, and the graph shows it.
    marks = page.locator("#move-list .review-mark")
    expect(marks.first).to_be_visible()
    assert marks.count() >= 1
    assert graph.locator(".graph-mark").count() == marks.count()
    expect(page.locator("#review-summary tbody tr")).to_have_count(2)
    # The last position is over: its perfect-play result is the final count.
    page.keyboard.press("End")
    view.expect_ply(last)
    expect(page.locator("#review-here")).to_have_text(
        re.compile(r"^Perfect play from here: (Black wins by \d+|White wins by \d+|a draw)\.$")
    )

    # Clicking the middle of the graph goes to the middle of the game.
    box = graph.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    view.expect_ply(round(last / 2))
    expect(page.locator("#review-here")).not_to_be_empty()
    best = page.locator(".review-best-move")
    expect(best).to_have_text(re.compile(r"^Best: ([a-f][1-6]|pass)$"))
    expect(page.locator("#board .review-best-ring")).to_have_count(1)
    # The line shows on focus (the keyboard's hover).
    best.focus()
    expect(page.locator("#review-line")).to_be_visible()

    # Exploring from the shown position: a move on the side board, then back, then home.
    page.get_by_role("button", name="Try moves from this position").click()
    side = page.locator("#explore-board")
    explore_status = page.locator("#explore-status")
    expect(explore_status).to_contain_text("to move", timeout=ENGINE_TIMEOUT)
    before = side.locator(".stone, circle").count()
    side.locator(".hit.legal").first.click()
    expect(explore_status).to_have_text(re.compile(r"^Tried [a-f][1-6]\. "), timeout=ENGINE_TIMEOUT)
    assert side.locator(".stone, circle").count() != before
    view.expect_ply(round(last / 2))  # the game's board stays where it was
    page.get_by_role("button", name="Step back").click()
    expect(explore_status).not_to_contain_text("Tried", timeout=ENGINE_TIMEOUT)
    page.get_by_role("button", name="Return to the game").click()
    expect(page.locator("#explore-box")).to_be_hidden()

    # Near the end every position is solved: a perfect-play verdict.
    page.goto(f"/games/{game_id}/replay/?ply={last - 3}")
    expect(page.locator("#review-here")).to_have_text(re.compile(r"^Perfect play from here: "))


def test_analyse_a_short_9x9_go_game_with_gnu_go(page: Page, output_path: str) -> None:
    record = dataclasses.replace(random_record("go", 9, seed=3, limit=20), komi=7.0)
    import_record(page, record)
    page.get_by_role("link", name="Analyse this game").click()
    page.wait_for_url(re.compile(r"/replay/"))
    view = ReplayPage(page)
    expect(page.locator("#review-status")).to_have_text(
        "Reviewed by GNU Go 3.8.", timeout=ANALYSIS_TIMEOUT
    )
    graph = page.locator("#review-graph")
    expect(graph).to_be_visible()
    # Twenty random moves: GNU Go finds some of them costly.
    marks = page.locator("#move-list .review-mark")
    expect(marks.first).to_be_visible()
    assert graph.locator(".graph-mark").count() == marks.count()
    expect(page.locator("#review-summary tbody tr")).to_have_count(2)

    # The middle of the graph: the engine's view in points, its best move ringed.
    box = graph.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    view.expect_ply(10)
    expect(page.locator("#review-here")).to_have_text(
        re.compile(r"^(The engine sees (Black|White) ahead by [\d.]+ points?|.* even)\.$")
    )
    expect(page.locator(".review-best-move")).to_have_text(
        re.compile(r"^Best: ([A-HJ][1-9]|pass)$")
    )
    ring = page.locator("#board .review-best-ring")
    expect(ring).to_have_count(1)
    # A ring, not a stone: the page's style reaches it.
    expect(ring).to_have_css("fill", "none")
    page.locator(".review-best-move").focus()
    expect(page.locator("#review-line")).to_be_visible()
    page.locator("#board").scroll_into_view_if_needed()
    page.screenshot(path=f"{output_path}/review-go-9x9.png", full_page=True)

    # Exploring: a stone by the rules at once, the engine's view only when asked.
    page.get_by_role("button", name="Try moves from this position").click()
    side = page.locator("#explore-board")
    status = page.locator("#explore-status")
    expect(status).to_contain_text("to move", timeout=ENGINE_TIMEOUT)
    side.locator(".hit.legal").first.click()
    expect(status).to_have_text(re.compile(r"^Tried [A-HJ][1-9]\. (Black|White) to move\.$"))
    page.get_by_role("button", name="Ask the engine").click()
    expect(status).to_contain_text("Best:", timeout=ENGINE_TIMEOUT)
    expect(status).to_contain_text("The engine sees")
    page.get_by_role("button", name="Pass").click()
    expect(status).not_to_contain_text("The engine sees", timeout=ENGINE_TIMEOUT)
    page.get_by_role("button", name="Return to the game").click()
    expect(page.locator("#explore-box")).to_be_hidden()
    view.expect_ply(10)
