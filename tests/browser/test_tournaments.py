"""Tournaments in the browser: one person creates an arena, two join it (one on a phone),
it starts, they are paired and each page shows the link to their game, live."""

from __future__ import annotations

import datetime
import re
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.test_ratings import sign_up

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SHOTS = Path("/tmp/tournament-shots")


def test_an_arena_is_created_joined_started_and_paired(
    new_context: NewContext, base_url: str
) -> None:
    suffix = uuid.uuid4().hex[:6]
    ann = new_context(viewport=DESKTOP).new_page()
    bob = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    sign_up(ann, f"ann{suffix}")
    sign_up(bob, f"bob{suffix}")
    ann.goto(base_url + "/")
    ann.get_by_role("link", name="Tournaments").click()
    ann.wait_for_url(re.compile(r"/tournaments/$"))
    SHOTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(SHOTS / "list.png"), full_page=True)
    starts = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=8)
    form = ann.locator("#new-tournament-form")
    form.locator('[name="system"]').select_option("arena")
    form.locator('[name="name"]').fill(f"Evening arena {suffix}")
    form.locator('[name="kind"]').select_option("othello")
    form.locator('[name="size"]').select_option("8")
    form.locator('[name="clock"]').select_option("fischer")
    form.locator('[name="main_time"]').fill("60")
    form.locator('[name="increment"]').fill("1")
    form.locator('[name="starts_at"]').fill(starts.isoformat(timespec="seconds"))
    form.locator('[name="duration"]').fill("20")
    form.get_by_role("button", name="Create").click()
    ann.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    page_url = ann.url
    expect(ann.locator("h1")).to_have_text(f"Evening arena {suffix}")
    ann.locator("#join").click()
    expect(ann.locator("#standings")).to_contain_text(f"ann{suffix}")

    # Pause is an arena's while it runs: not yet.
    expect(ann.locator("#pause")).to_be_hidden()
    bob.goto(page_url)
    bob.locator("#join").tap()
    expect(bob.locator("#standings")).to_contain_text(f"bob{suffix}")
    # Ann's page hears Bob join (the tournament's group on the lobby socket).
    expect(ann.locator("#standings")).to_contain_text(f"bob{suffix}")
    # It starts, the loop pairs them: each page shows the link to their game, live.
    for page in (ann, bob):
        expect(page.locator("#your-game")).to_be_visible(timeout=30_000)
        expect(page.locator("#tournament-status")).to_have_text("Running")
    expect(ann.locator("#pairings a")).to_contain_text(f"ann{suffix}")
    # The pages opened before the start offer Pause now, without a reload.
    expect(ann.locator("#pause")).to_be_visible()
    expect(bob.locator("#pause")).to_be_visible()
    ann.screenshot(path=str(SHOTS / "desktop.png"), full_page=True)
    bob.screenshot(path=str(SHOTS / "phone.png"), full_page=True)
    # No sideways scrolling on the phone.
    assert bob.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    ann.locator("#your-game a").click()
    ann.wait_for_url(re.compile(r"/games/[\w-]+/$"))
    bob.locator("#your-game a").tap()
    bob.wait_for_url(re.compile(r"/games/[\w-]+/$"))
    assert ann.url == bob.url
    expect(ann.locator("#tournament-note")).to_contain_text(f"Round 1 of Evening arena {suffix}")
    # Berserk, before one's first move: one's own clock halved (1:00 -> 0:30), once.
    berserk = ann.locator("#berserk-button")
    expect(berserk).to_be_visible()
    ann.screenshot(path=str(SHOTS / "game.png"))
    berserk.click()
    expect(berserk).to_be_hidden()
    you = ann.evaluate("document.querySelector('[data-you]').dataset.you")
    expect(ann.locator(f'.player[data-color="{you}"] .clock-time')).to_contain_text("0:30")
    expect(bob.locator("#berserk-button")).to_be_visible()
