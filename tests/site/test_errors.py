"""The site's error pages (docs/operations.md#two-ways-to-run-it): with DEBUG off, 400, 403, 404 and
500 wear the site's look and say what happened, never Django's debug pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import selectors

pytestmark = pytest.mark.django_db

SITE = 'class="site-header"'


def test_a_404_is_the_sites_page_and_lists_no_url_pattern(client: Client) -> None:
    response = client.get("/no/such/page/")

    assert response.status_code == 404
    page = response.content.decode()
    assert SITE in page and "There is nothing here" in page
    assert "URLconf" not in page and "games/&lt;str:game_id&gt;" not in page


def test_an_unknown_game_is_the_sites_404(client: Client) -> None:
    response = client.get("/games/no-such-game/")

    assert response.status_code == 404 and SITE in response.content.decode()


def test_a_bad_ply_on_a_replay_says_why_in_the_sites_look(client: Client) -> None:
    created = client.post("/games/new/", {"kind": "othello", "size": 8, "name": "Ann"})

    response = client.get(f"{created.url}replay/?ply=abc")

    assert response.status_code == 400
    page = response.content.decode()
    assert SITE in page and "Ply must be an integer move number" in page


def test_a_form_without_its_csrf_token_is_the_sites_403() -> None:
    response = Client(enforce_csrf_checks=True).post("/games/new/", {"kind": "othello"})

    assert response.status_code == 403
    page = response.content.decode()
    assert SITE in page and "The form could not be checked" in page


def test_a_server_error_is_the_sites_500(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(selectors, "lobby_of", broken)
    client = Client(raise_request_exception=False)

    response = client.get("/")

    assert response.status_code == 500
    page = response.content.decode()
    assert SITE in page and "Something went wrong on the server" in page
    assert "a bug" not in page and "Traceback" not in page


def test_calling_off_someone_elses_game_says_why(client: Client) -> None:
    created = Client().post("/games/new/", {"kind": "othello", "size": 8, "name": "Ann"})

    response = client.post(f"{created.url}abort/")

    assert response.status_code == 400
    page = response.content.decode()
    assert SITE in page and "Only the player who created the game can abort it." in page
