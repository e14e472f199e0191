"""Failed logins are limited (docs/api/http.md, "Accounts"): 5 failures for one username
from one address within 15 minutes lock that pair, 30 from one address lock the address,
for 15 minutes; the form says so; a username alone is never locked (anyone could lock
anyone out); the admin's login counts with the site's. Time is moved by a clock that the
limits read, never by sleeping."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "a long pass phrase"
HERE, ELSEWHERE = "10.0.0.1", "10.0.0.2"
LOCKED = "Too many failed log-ins"


def account(username: str = "ann", *, staff: bool = False) -> Any:
    return get_user_model().objects.create_user(
        username, email=f"{username}@example.org", password=PASSWORD, is_staff=staff
    )


def log_in(
    username: str, password: str, *, address: str = HERE, path: str = "/accounts/login/"
) -> tuple[Any, bool]:
    """The answer to a login form sent from ``address``, and whether it logged in."""
    browser = Client(REMOTE_ADDR=address)
    answer = browser.post(path, {"username": username, "password": password})
    return answer, "_auth_user_id" in browser.session


class Clock:
    """The limits' clock (allauth counts with ``time.time()``), moved by the test."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.offset = 0.0

    def time(self) -> float:
        return float(self.real.time()) + self.offset

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)  # monotonic, sleep: the cache lock's own waits


@pytest.fixture
def limits_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    from allauth.core.internal import ratelimit

    clock = Clock(ratelimit.time)
    monkeypatch.setattr(ratelimit, "time", clock)
    yield clock


def test_five_wrong_passwords_lock_that_username_from_that_address() -> None:
    account("ann")
    for _ in range(5):
        answer, logged_in = log_in("ann", "wrong")
        assert answer.status_code == 200 and not logged_in
        assert LOCKED not in answer.content.decode()

    answer, logged_in = log_in("ann", PASSWORD)
    assert not logged_in, "the right password is refused while the pair is locked"
    assert answer.status_code == 429
    page = answer.content.decode()
    assert LOCKED in page and "15 minutes" in page
    assert 'name="username"' in page, "the form, with the reason"

    answer, logged_in = log_in("ann", PASSWORD, address=ELSEWHERE)
    assert logged_in, "the same username from another address is not locked"


def test_a_success_does_not_count_but_failures_before_it_do() -> None:
    account("ann")
    for _ in range(4):
        log_in("ann", "wrong")
    assert log_in("ann", PASSWORD)[1]
    assert log_in("ann", PASSWORD)[1], "a success is not a failure"
    log_in("ann", "wrong")
    assert not log_in("ann", PASSWORD)[1], "the fifth failure within 15 minutes locks"


def test_thirty_failures_from_one_address_lock_the_address() -> None:
    account("ann")
    for number in range(30):
        answer, _ = log_in(f"nobody{number}", "wrong")
        assert LOCKED not in answer.content.decode()

    answer, logged_in = log_in("ann", PASSWORD)
    assert not logged_in and answer.status_code == 429
    assert LOCKED in answer.content.decode()
    assert log_in("ann", PASSWORD, address=ELSEWHERE)[1]


def test_the_lock_ends_after_fifteen_minutes(limits_clock: Clock) -> None:
    account("ann")
    for _ in range(5):
        log_in("ann", "wrong")
    limits_clock.offset = 15 * 60 - 5
    assert not log_in("ann", PASSWORD)[1], "still locked"
    limits_clock.offset = 15 * 60 + 1
    assert log_in("ann", PASSWORD)[1]


def test_the_admin_login_locks_the_same_and_counts_with_the_sites() -> None:
    account("boss", staff=True)
    for _ in range(3):
        answer, logged_in = log_in("boss", "wrong", path="/admin/login/")
        assert answer.status_code == 200 and not logged_in
    for _ in range(2):
        log_in("boss", "wrong")

    answer, logged_in = log_in("boss", PASSWORD, path="/admin/login/")
    assert not logged_in
    assert LOCKED in answer.content.decode()
    answer, logged_in = log_in("boss", PASSWORD, path="/admin/login/", address=ELSEWHERE)
    assert logged_in and answer.status_code == 302


def test_the_admin_login_alone_locks_after_five_failures() -> None:
    account("boss", staff=True)
    for _ in range(5):
        log_in("boss", "wrong", path="/admin/login/")
    assert not log_in("boss", PASSWORD, path="/admin/login/")[1]
    assert not log_in("boss", PASSWORD)[1], "nor through the site's form"


def test_a_password_set_through_the_mailed_link_lifts_the_lock() -> None:
    account("ann")
    for _ in range(5):
        log_in("ann", "wrong")
    browser = Client(REMOTE_ADDR=HERE)
    browser.post("/accounts/password_reset/", {"email": "ann@example.org"})
    [message] = mail.outbox
    link = re.search(r"http://testserver(/accounts/password/reset/key/\S+/)", message.body)
    assert link
    form = browser.get(link.group(1), follow=True)
    browser.post(
        form.redirect_chain[-1][0],
        {"password1": "a new pass phrase", "password2": "a new pass phrase"},
    )

    assert log_in("ann", "a new pass phrase")[1]


def test_sign_ups_from_one_address_are_limited_on_the_sites_page() -> None:
    browser = Client(REMOTE_ADDR=HERE)
    for number in range(20):
        browser.post("/accounts/signup/", {"username": f"x{number}"})  # refused forms count
    answer = browser.post("/accounts/signup/", {"username": "late"})
    assert answer.status_code == 429
    page = answer.content.decode()
    assert "You have sent this form more often than the server allows." in page
    assert 'class="site-header"' in page
