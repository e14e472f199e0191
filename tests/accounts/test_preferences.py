"""accounts.preferences and ``/accounts/settings/``: an account's ``confirm_moves``, chosen
on its settings page (a form) or from the game page (JSON), read by the game page."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts import preferences

pytestmark = pytest.mark.django_db

JSON = "application/json"


def logged_in(name: str = "ann") -> tuple[Client, User]:
    user = User.objects.create_user(name)
    browser = Client()
    browser.force_login(user)
    return browser, user


def test_an_account_chooses_on_its_settings_page() -> None:
    browser, ann = logged_in()
    page = browser.get("/accounts/settings/")
    assert page.status_code == 200
    assert 'id="confirm-moves-unset"' in page.content.decode()  # not chosen yet
    assert preferences.confirm_moves_of(ann) == ""

    saved = browser.post("/accounts/settings/", {"confirm_moves": "always"})

    assert (saved.status_code, saved.url) == (302, "/accounts/settings/")
    assert preferences.confirm_moves_of(ann) == "always"
    again = browser.get("/accounts/settings/").content.decode()
    assert 'value="always" checked' in again and 'id="confirm-moves-unset"' not in again
    assert "Your game settings are saved." in again


def test_the_game_page_chooses_in_json() -> None:
    browser, ann = logged_in()
    assert browser.get("/accounts/settings/", HTTP_ACCEPT=JSON).json() == {"confirm_moves": ""}

    answer = browser.post(
        "/accounts/settings/", json.dumps({"confirm_moves": "never"}), content_type=JSON
    )

    assert (answer.status_code, answer.json()) == (200, {"confirm_moves": "never"})
    assert preferences.confirm_moves_of(ann) == "never"


@pytest.mark.parametrize("value", ["sometimes", "", None, 1, ["always"]])
def test_anything_else_is_refused_and_changes_nothing(value: object) -> None:
    browser, ann = logged_in()
    preferences.choose_confirm_moves(user=ann, value="correspondence")

    answer = browser.post(
        "/accounts/settings/", json.dumps({"confirm_moves": value}), content_type=JSON
    )
    form = browser.post("/accounts/settings/", {"confirm_moves": str(value)})

    assert answer.status_code == 400
    assert answer.json() == {
        "error": "bad_request",
        "message": "confirm_moves must be never, correspondence or always",
        "field": "confirm_moves",
    }
    assert form.status_code == 400
    assert "confirm_moves must be never, correspondence or always" in form.content.decode()
    assert preferences.confirm_moves_of(ann) == "correspondence"


def test_a_visitor_is_asked_to_log_in() -> None:
    page = Client().get("/accounts/settings/")
    assert page.status_code == 302 and page.url.startswith("/accounts/login/?next=")
    answer = Client().post(
        "/accounts/settings/", json.dumps({"confirm_moves": "never"}), content_type=JSON
    )
    assert answer.status_code == 401 and answer.json()["error"] == "login_required"
    assert preferences.confirm_moves_of(None) == ""


def test_the_game_page_carries_the_accounts_choice_and_a_guest_none() -> None:
    browser, ann = logged_in()
    game = browser.post("/games/new/", {"kind": "othello", "size": 8}).url
    assert 'data-confirm-moves=""' in browser.get(game).content.decode()

    preferences.choose_confirm_moves(user=ann, value="always")

    page = browser.get(game).content.decode()
    assert 'data-confirm-moves="always"' in page
    assert '<option value="correspondence">In correspondence games</option>' in page
    assert 'data-confirm-moves=""' in Client().get(game).content.decode()


def test_the_account_menu_links_the_game_settings() -> None:
    browser, _ = logged_in()
    assert '<a href="/accounts/settings/">Game settings</a>' in browser.get("/").content.decode()
