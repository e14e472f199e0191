"""The engines' review on the replay page, in a browser: a finished 6x6 Othello game is
analysed by the server's engines (asked for from the game page); the graph and the
marks appear; clicking the graph moves the board; the best move and the perfect-play
verdict show; other moves are tried on a side board and the player comes back."""

from __future__ import annotations

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
