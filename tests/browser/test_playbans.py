"""A playban in the browser, on a desktop and on a phone: the home page's pools and a
tournament's page say until when and why, a pool's click and Join are refused in those
words, and the pages pass axe."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import DaphneServer
from tests.browser.test_accessibility import violations
from tests.browser.test_accounts import DESKTOP, PHONE, shoot, sign_up
from tests.support.daphne import ROOT

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
REFUSAL = "cannot seek a game, join a pool or join a tournament until"

# The playban as the server gives it, and a tournament to join, in the server's database.
SETUP = """
import datetime
from django.contrib.auth.models import User
from django.utils import timezone
from accounts.models import Account
from gamerules.clock import TimeControl
from tournaments import services

now = timezone.now()
Account.objects.filter(user__username={username!r}).update(
    playban_until=now + datetime.timedelta(minutes=15), playban_reason="no_move"
)
host = User.objects.create_user("host")
found = services.create(
    user_id=host.pk, system="arena", name="Evening arena", kind="othello", size=8,
    time_control=TimeControl.fischer(main_time=180, increment=2), rated=False,
    starts_at=now + datetime.timedelta(hours=1), duration=30,
)
print(found.pk)
"""


@pytest.fixture
def browser_context_args(
    browser_context_args: dict[str, Any], own_server: DaphneServer
) -> dict[str, Any]:
    return {**browser_context_args, "base_url": own_server.url}


@pytest.mark.parametrize(
    "screen",
    [{"viewport": DESKTOP}, {"viewport": PHONE, "is_mobile": True, "has_touch": True}],
    ids=["desktop", "phone"],
)
def test_the_pools_and_a_tournaments_join_say_until_when_and_why(
    new_context: NewContext, own_server: DaphneServer, output_path: str, screen: dict[str, Any]
) -> None:
    folder = f"{output_path}/playbans/{screen['viewport']['width']}"
    page = new_context(**screen).new_page()
    username = sign_up(page)
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SETUP.format(username=username)],
        cwd=ROOT,
        env=own_server.env,
        check=True,
        capture_output=True,
        text=True,
    )
    tournament_id = made.stdout.split()[-1]

    page.goto("/")
    note = page.locator("#pairing #playban-note")
    expect(note).to_contain_text(f"You {REFUSAL}")
    expect(note).to_contain_text("you let games end without making your first move")
    expect(note.get_by_role("link", name="How playbans work")).to_have_attribute(
        "href", "/help/fair-play/#playbans"
    )
    page.locator("#pools .pool").first.click()
    expect(page.locator("#seek-error")).to_contain_text(f"you {REFUSAL}")
    expect(page.locator("#seek-status")).to_be_hidden()
    shoot(page, folder, "home.png")
    assert violations(page) == []

    page.goto(f"/tournaments/{tournament_id}/")
    expect(page.locator("#playban-note")).to_contain_text(f"You {REFUSAL}")
    page.locator("#join").click()
    expect(page.locator(".flash-error")).to_contain_text(f"you {REFUSAL}")
    expect(page.locator("#withdraw")).to_have_count(0)  # not in
    shoot(page, folder, "tournament.png")
    assert violations(page) == []
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width
