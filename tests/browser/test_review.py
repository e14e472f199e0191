"""The engines' review on the replay page, in a browser: a finished 6x6 Othello game is
analysed by the server's engines (asked for from the game page); the graph and the
marks appear; clicking the graph moves the board; the best move and the perfect-play
verdict show; other moves are tried on a side board and the player comes back. A short
9x9 Go game is reviewed by GNU Go the same way, in points. On a desktop and a phone: at a
blunder the panel says what it cost its mover and what the mover should have played,
the graph has its scale and zero line and shows values on hover and on focus, and the
summary each player's accuracy (a 4x4 game, solved at once), and axe finds nothing amiss.
An aborted game is offered no review."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.game_page import create_game
from tests.browser.test_accessibility import VIEWPORTS, violations
from tests.browser.test_replay import ReplayPage, import_record, random_record

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]


def click_graph_at(page: Page, ply: int) -> None:
    """Click the review's graph above the mark of move ``ply`` on its scale of moves."""
    graph = page.locator("#review-graph")
    graph.scroll_into_view_if_needed()
    label = graph.locator(".graph-move", has_text=re.compile(rf"^{ply}$")).bounding_box()
    box = graph.bounding_box()
    assert label is not None and box is not None
    page.mouse.click(label["x"] + label["width"] / 2, box["y"] + box["height"] / 2)


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

    # Clicking the graph above its move 10 mark goes to move 10.
    middle = 10
    click_graph_at(page, middle)
    view.expect_ply(middle)
    expect(page.locator("#review-here")).not_to_be_empty()
    best = page.locator(".review-best-move")
    expect(best).to_have_text(re.compile(r"^Best for (Black|White): ([a-f][1-6]|pass)$"))
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
    view.expect_ply(middle)  # the game's board stays where it was
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
    click_graph_at(page, 10)
    view.expect_ply(10)
    expect(page.locator("#review-here")).to_have_text(
        re.compile(r"^(The engine sees (Black|White) ahead by [\d.]+ points?|.* even)\.$")
    )
    expect(page.locator(".review-best-move")).to_have_text(
        re.compile(r"^Best for (Black|White): ([A-HJ][1-9]|pass)$")
    )
    # The move that led here, for its mover, in points.
    expect(page.locator("#review-move")).to_have_text(
        re.compile(
            r"^White's ([A-HJ][1-9]|pass)(\?!|\?|\?\?)?"
            r"( was the best move\.| cost nothing; ([A-HJ][1-9]|pass) was as good\."
            r"| cost [\d.]+ points?(, an? \w+)?; ([A-HJ][1-9]|pass) was best\.)$"
        )
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


def othello_name(point: list[int] | str) -> str:
    """A point in Othello's notation, as the move list writes it: [2, 0] is a3."""
    if isinstance(point, str):
        return point
    return f"{chr(ord('a') + point[1])}{point[0] + 1}"


def reviewed_4x4(page: Page) -> tuple[str, dict[str, Any]]:
    """A random 4x4 Othello game imported and reviewed (every position solved at once):
    its id and its analysis.json."""
    game_id = import_record(page, random_record("othello", 4, seed=1, limit=200))
    page.get_by_role("link", name="Analyse this game").click()
    expect(page.locator("#review-status")).to_have_text(
        re.compile(r"^Reviewed by "), timeout=ANALYSIS_TIMEOUT
    )
    review: dict[str, Any] = page.request.get(f"/games/{game_id}/analysis.json").json()
    return game_id, review


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_at_a_blunder_the_review_says_what_it_cost_and_what_was_better_for_its_mover(
    new_context: NewContext, screen: str, output_path: str
) -> None:
    page = new_context(**VIEWPORTS[screen]).new_page()
    game_id, review = reviewed_4x4(page)
    plies = review["plies"]
    blunder = next(entry for entry in plies if entry.get("judgement") == "blunder")
    ply = blunder["ply"]
    before = plies[ply - 1]
    page.goto(f"/games/{game_id}/replay/?ply={ply}")
    view = ReplayPage(page)
    view.expect_ply(ply)
    played = page.locator(f'#move-list .move[data-ply="{ply}"]')
    expect(played).to_contain_text("??")
    mover = before["to_move"].title()
    notation = played.inner_text().replace("??", "").strip()
    # The mover's view: what the move cost, and the best move of the position before it
    # (not the opponent's best reply, which the position shown has).
    loss = blunder["loss"]
    expect(page.locator("#review-move")).to_have_text(
        f"{mover}'s {notation}?? cost {loss:g} discs, a blunder; "
        f"{othello_name(before['best'])} was best."
    )
    expect(page.locator("#board .review-better-ring")).to_have_count(1)
    reply = "Black" if mover == "White" else "White"
    expect(page.locator(".review-best-move")).to_have_text(
        re.compile(rf"^Best for {reply}: ([a-d][1-4]|pass)$")
    )

    # Each player's accuracy beside their judgements, as the JSON gives them.
    for color in ("black", "white"):
        accuracy = review["summary"][color]["accuracy"]
        row = page.locator(f'#review-summary tr[data-color="{color}"]')
        expect(row.locator(".review-accuracy")).to_have_text(f"{accuracy}%")
    page.locator("#review-summary").scroll_into_view_if_needed()
    page.screenshot(path=f"{output_path}/review-4x4-{screen}.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_the_graph_has_a_scale_a_zero_line_and_values_on_hover_and_focus(
    new_context: NewContext, screen: str
) -> None:
    page = new_context(**VIEWPORTS[screen]).new_page()
    game_id, review = reviewed_4x4(page)
    plies = review["plies"]
    page.goto(f"/games/{game_id}/replay/?ply=0")
    graph = page.locator("#review-graph")
    expect(graph).to_be_visible()
    # The scale, in discs from Black's side, round the widest eval; the zero line.
    widest = max(abs(entry["eval"]) for entry in plies)
    ticks = graph.locator(".graph-tick:not(.graph-move)")
    expect(ticks).to_have_count(5)
    top, half, zero, _, bottom = ticks.all_text_contents()
    assert (zero, top[:2], bottom[:2]) == ("0", "B+", "W+")
    assert widest <= int(top[2:]) <= 16 and int(half[2:]) * 2 == int(top[2:])
    expect(graph.locator(".graph-zero")).to_have_count(1)
    expect(page.locator("#graph-unit")).to_contain_text("Discs, from Black's side")
    # The judged moves as dots, each named by its advice.
    judged = [entry for entry in plies if entry.get("judgement")]
    dots = graph.locator(".graph-mark")
    expect(dots).to_have_count(len(judged))
    expect(dots.first.locator("title")).to_have_text(judged[0]["advice"])

    # Hover: the value under the pointer, without leaving the move shown.
    readout = page.locator("#graph-readout")
    expect(readout).to_have_text(
        re.compile(r"^Start: (Black|White) wins by \d+ discs? with perfect play$")
    )
    target = judged[-1]
    graph.scroll_into_view_if_needed()
    box = dots.last.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(readout).to_have_text(
        re.compile(rf"^Move {target['ply']}, (Black|White) [a-d][1-4](\?!|\?|\?\?): ")
    )
    expect(page.locator("#replay")).to_have_attribute("data-ply", "0")

    # Focus: the graph is a slider over the moves, its value in words; the keys step.
    page.mouse.move(0, 0)
    graph.focus()
    expect(graph).to_have_attribute("aria-valuenow", "0")
    expect(graph).to_have_attribute("aria-valuetext", re.compile(r"^Start: "))
    page.keyboard.press("ArrowRight")
    expect(graph).to_have_attribute("aria-valuenow", "1")
    text = re.compile(r"^Move 1, Black [a-d][1-4](\?!|\?|\?\?)?: (Black|White) wins by \d+")
    expect(graph).to_have_attribute("aria-valuetext", text)
    expect(readout).to_have_text(text)
    page.keyboard.press("ArrowUp")
    expect(graph).to_have_attribute("aria-valuenow", "2")
    expect(page.locator("#replay")).to_have_attribute("data-ply", "2")


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_an_aborted_game_is_not_offered_a_review(new_context: NewContext, screen: str) -> None:
    alice = create_game(
        new_context(**VIEWPORTS[screen]).new_page(), kind="othello", size=6, name="Alice"
    )
    page = alice.page
    game_url = alice.url
    page.click("#abort-button")
    page.click("#abort-yes")
    expect(page.locator(".flash")).to_have_text("The game was called off.")
    page.goto(game_url)
    expect(alice.status).to_have_text(re.compile(r"^Aborted"))
    expect(page.locator("#after-game")).to_be_visible()
    # Never played: nothing to replay or download, nor to analyse.
    expect(page.get_by_role("link", name="Replay")).to_have_count(0)
    expect(page.get_by_role("link", name="Download SGF")).to_have_count(0)
    expect(page.get_by_role("link", name="Analyse this game")).to_have_count(0)

    page.goto(f"{game_url}replay/")  # its address still answers
    expect(page.get_by_role("button", name="Analyse this game")).to_have_count(0)
    expect(page.get_by_role("heading", name="Engine review")).to_have_count(0)
    expect(page.get_by_text("The engines review a game once it is finished")).to_be_hidden()
    # Asked for on the address anyway: nothing is asked.
    page.goto(f"{game_url}replay/?analyse")
    expect(page.locator("#review-status")).to_be_hidden()
    assert page.request.get(f"{game_url}analysis.json").status == 404


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_a_reviewed_replay_has_no_accessibility_violations(
    new_context: NewContext, screen: str
) -> None:
    page = new_context(**VIEWPORTS[screen]).new_page()
    game_id, review = reviewed_4x4(page)
    blunder = next(entry for entry in review["plies"] if entry.get("judgement") == "blunder")
    page.goto(f"/games/{game_id}/replay/?ply={blunder['ply']}")
    expect(page.locator("#review-move")).to_contain_text("??")
    found = {"at a blunder": violations(page)}
    page.locator("#review-graph").focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#review-graph")).to_have_attribute(
        "aria-valuenow", str(blunder["ply"] + 1)
    )
    found["the graph focused"] = violations(page)
    assert {what: rules for what, rules in found.items() if rules} == {}
