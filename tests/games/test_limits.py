"""games.limits: the sliding window, and the HTTP limits on creating, joining and
importing games (10 a minute per session, 60 per address; 429 with Retry-After, nothing
stored; shared by every process through Redis; off with RATE_LIMITS=off).

The websocket's message limit is tested in a real daphne process:
tests/site/test_websocket_flow.py.
"""

from __future__ import annotations

import asyncio
import doctest
import urllib.error
from types import SimpleNamespace
from typing import Any

import django_ratelimit.core
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings

from games import limits
from games.limits import SlidingWindow
from games.models import Game
from tests.conftest import Servers
from tests.support.clients import Browser

PER_SESSION = 10
PER_IP = 60
SGF = b"(;GM[1]FF[4]SZ[9];B[ee];W[cc])"


# The window


@pytest.mark.parametrize(
    ("times", "allowed"),
    [
        ([0, 0.1, 0.2], [True, True, False]),  # the third within a second
        ([0, 0.5, 1.0], [True, True, True]),  # a second apart: the first has expired
        ([0, 0.1, 0.9, 1.05], [True, True, False, False]),  # refused ones count too...
        ([0, 0.1, 0.9, 1.95], [True, True, False, True]),  # ...until the rate falls
    ],
)
def test_two_events_a_second(times: list[float], allowed: list[bool]) -> None:
    window = SlidingWindow(limit=2, window=1.0)

    assert [window.hit(now) for now in times] == allowed


def test_the_doctests_hold() -> None:
    assert doctest.testmod(limits).failed == 0


# Over HTTP


@pytest.fixture(autouse=True)
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """django-ratelimit counts in fixed windows of a minute: a test that crossed the end
    of one would start counting again. Its clock stands still in these tests."""
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: 1.8e9))


def create(browser: Client, **fields: Any) -> Any:
    data = {"kind": "othello", "size": 8, "color": "black", "name": "Ann", **fields}
    return browser.post("/games/new/", data)


def assert_limited(response: Any) -> None:
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 60
    assert b"Slow down" in response.content


@pytest.mark.django_db
def test_one_session_creates_10_games_a_minute() -> None:
    ann = Client()
    for _ in range(PER_SESSION):
        assert create(ann).status_code == 302

    assert_limited(create(ann))
    assert Game.objects.count() == PER_SESSION
    # Another browser at the same address is not held back by Ann's games.
    assert create(Client()).status_code == 302


@pytest.mark.django_db
def test_one_address_creates_60_games_a_minute_whatever_its_sessions() -> None:
    for _ in range(PER_IP):
        assert create(Client(REMOTE_ADDR="192.0.2.7")).status_code == 302

    assert_limited(create(Client(REMOTE_ADDR="192.0.2.7")))
    assert Game.objects.count() == PER_IP
    assert create(Client(REMOTE_ADDR="192.0.2.8")).status_code == 302


@pytest.mark.django_db
def test_joining_is_limited_per_session() -> None:
    games = [create(Client()).url for _ in range(PER_SESSION + 1)]
    bob = Client()
    for path in games[:PER_SESSION]:
        assert bob.post(f"{path}join/", {"name": "Bob"}).status_code == 302

    assert_limited(bob.post(f"{games[-1]}join/", {"name": "Bob"}))
    assert Game.objects.filter(status=Game.Status.WAITING).count() == 1


@pytest.mark.django_db
def test_importing_is_limited_per_session() -> None:
    ann = Client()
    assert create(ann).status_code == 302  # a session, as a player has

    def upload() -> Any:
        return ann.post("/games/import/", {"sgf": SimpleUploadedFile("g.sgf", SGF)})

    for _ in range(PER_SESSION):
        assert upload().status_code == 302

    assert_limited(upload())
    assert Game.objects.count() == 1 + PER_SESSION
    assert ann.get("/games/import/").status_code == 200  # reading the form is not counted


@pytest.mark.django_db
@override_settings(RATE_LIMITS=False, RATELIMIT_ENABLE=False)
def test_rate_limits_off_lets_everything_through() -> None:
    ann = Client()
    for _ in range(PER_SESSION + 5):
        assert create(ann).status_code == 302


@pytest.mark.services
async def test_every_process_counts_together(database_url: str, daphnes: Servers) -> None:
    """Through Redis: a session that created 10 games across two processes is held back
    by either. (The servers' clocks run: if the minute's window ended during a try, which
    takes a few seconds, or longer on a loaded machine, the next one, with a new session,
    is unlikely to cross another end; three tries.)"""

    def ten_games_then(first: str, second: str) -> list[int]:
        ann = Browser(first)
        for number in range(PER_SESSION):
            ann.on(first if number % 2 else second).create(
                kind="othello", size=8, color="black", name="Ann"
            )
        statuses = []
        for base in (first, second):
            try:
                ann.on(base).post("/games/new/", {"kind": "go", "size": 9, "name": "Ann"})
                statuses.append(302)
            except urllib.error.HTTPError as error:
                statuses.append(error.code)
                assert error.headers["Retry-After"]
        return statuses

    with daphnes({"DATABASE_URL": database_url}) as servers:
        bases = [server.url for server in servers]
        tries = [await asyncio.to_thread(ten_games_then, *bases) for _ in range(3)]
        assert [429, 429] in tries, tries
