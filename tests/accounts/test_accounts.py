"""Accounts beyond signing up: the header names the account, a new account is welcomed,
and the password pages (change; reset by e-mail) work and look like the site."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "a long pass phrase"
NEW_PASSWORD = "another long phrase"
SITE_LOOK = 'class="site-header"'


def logged_in(username: str = "ann", email: str = "") -> Client:
    get_user_model().objects.create_user(username, email=email, password=PASSWORD)
    client = Client()
    assert client.login(username=username, password=PASSWORD)
    return client


def test_a_new_account_is_welcomed_and_named_in_the_header() -> None:
    browser = Client()
    response = browser.post(
        "/accounts/signup/",
        {
            "username": "ann",
            "email": "ann@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        follow=True,
    )
    assert get_user_model().objects.get(username="ann").email == "ann@example.org"
    html = response.content.decode()
    assert "Welcome, ann!" in html
    header = re.search(r'<header class="site-header">.*?</header>', html, re.S)
    assert header, "no header"
    assert "ann" in header.group()
    for link in ("/accounts/games/", "/accounts/password_change/", "/accounts/logout/"):
        assert link in header.group()
    assert "Welcome" not in browser.get("/").content.decode(), "said once"


def test_the_login_page_offers_a_password_reset() -> None:
    html = Client().get("/accounts/login/").content.decode()
    assert "Forgot your password?" in html
    assert 'href="/accounts/password_reset/"' in html


@pytest.mark.parametrize(
    "path",
    [
        "/accounts/password_reset/",
        "/accounts/password_reset/done/",
        "/accounts/password/reset/key/done/",
        "/accounts/password/reset/key/1-bad-token/",
    ],
)
def test_the_password_reset_pages_look_like_the_site(path: str) -> None:
    response = Client().get(path)
    assert response.status_code == 200
    html = response.content.decode()
    assert SITE_LOOK in html
    assert "Django administration" not in html


@pytest.mark.parametrize("path", ["/accounts/password_change/", "/accounts/password_change/done/"])
def test_the_password_change_pages_look_like_the_site(path: str) -> None:
    html = logged_in().get(path).content.decode()
    assert SITE_LOOK in html
    assert "Django administration" not in html


def test_a_password_reset_mails_a_link_that_sets_a_new_password(settings: Any) -> None:
    assert settings.EMAIL_BACKEND == "django.core.mail.backends.locmem.EmailBackend"
    get_user_model().objects.create_user("ann", email="ann@example.org", password=PASSWORD)
    browser = Client()
    response = browser.post("/accounts/password_reset/", {"email": "ann@example.org"})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password_reset/done/"

    [message] = mail.outbox
    assert message.to == ["ann@example.org"]
    assert message.from_email == settings.DEFAULT_FROM_EMAIL
    assert "ann" in message.body
    link = re.search(r"http://testserver(/accounts/password/reset/key/\S+/)", message.body)
    assert link, message.body

    form = browser.get(link.group(1), follow=True)
    assert form.status_code == 200
    assert 'name="password1"' in form.content.decode()
    assert SITE_LOOK in form.content.decode()
    done = browser.post(
        form.redirect_chain[-1][0], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    )
    assert done["Location"] == "/accounts/password/reset/key/done/"
    assert Client().login(username="ann", password=NEW_PASSWORD)
    again = browser.get(link.group(1))
    assert "This link no longer works" in again.content.decode(), "the link works once"


def test_an_unknown_address_gets_the_same_answer_and_no_mail() -> None:
    response = Client().post("/accounts/password_reset/", {"email": "nobody@example.org"})
    assert response["Location"] == "/accounts/password_reset/done/"
    assert mail.outbox == []


def test_a_logged_in_player_changes_the_password() -> None:
    browser = logged_in()
    response = browser.post(
        "/accounts/password_change/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response["Location"] == "/accounts/password_change/done/"
    assert browser.get("/accounts/password_change/done/").context["user"].is_authenticated
    assert Client().login(username="ann", password=NEW_PASSWORD)


def test_a_wrong_old_password_changes_nothing() -> None:
    browser = logged_in()
    response = browser.post(
        "/accounts/password_change/",
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["old_password"]
    assert Client().login(username="ann", password=PASSWORD)


def test_the_mail_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from othello_site import settings as site

    assert site.email_settings({})["EMAIL_BACKEND"] == (
        "django.core.mail.backends.console.EmailBackend"
    )
    smtp = site.email_settings(
        {
            "EMAIL_HOST": "smtp.example.org",
            "EMAIL_PORT": "2525",
            "EMAIL_HOST_USER": "games",
            "EMAIL_HOST_PASSWORD": "secret",
            "EMAIL_USE_TLS": "on",
            "DEFAULT_FROM_EMAIL": "Othello & Go <games@example.org>",
        }
    )
    assert smtp == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "smtp.example.org",
        "EMAIL_PORT": 2525,
        "EMAIL_HOST_USER": "games",
        "EMAIL_HOST_PASSWORD": "secret",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
        "EMAIL_TIMEOUT": 10,
        "DEFAULT_FROM_EMAIL": "Othello & Go <games@example.org>",
        "SERVER_EMAIL": "Othello & Go <games@example.org>",
    }
