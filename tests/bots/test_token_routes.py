"""Where an API token is taken (bots.middleware, accounts.api): the API's routes and the
websockets, never a page, a form that answers a page, the admin, nor the account's
tokens, password, e-mail and settings. Elsewhere a Bearer header is refused (403), so a
leaked token of a staff account is no admin credential."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from accounts import api
from bots import services
from bots.models import ApiToken
from games.models import Game
from notifications.models import Preference, PushSubscription
from othello_site.asgi import application
from tests.bots.test_bots import HEADERS, TIMEOUT, bearer, make_bot, online
from tests.site.test_docs import API_README
from tests.support.push_service import Device

pytestmark = pytest.mark.django_db


def staff_token(name: str = "boss") -> tuple[User, str]:
    """A superuser (with a password) and an API token of its own."""
    boss = User.objects.create_superuser(name, f"{name}@example.org", "pw-12345678")
    return boss, services.create_token(user=boss, name="script")[1]


def api_client() -> Client:
    """A client that sends no CSRF token, as a script does."""
    return Client(enforce_csrf_checks=True)


def test_a_staff_accounts_token_cannot_change_a_user_in_the_admin() -> None:
    _, token = staff_token()
    victim = User.objects.create_user("victim", password="pw-12345678")
    change = {
        "username": "victim",
        "is_active": "on",
        "is_staff": "on",
        "is_superuser": "on",
        "date_joined_0": "2024-01-01",
        "date_joined_1": "00:00:00",
        "initial-date_joined_0": "2024-01-01",
        "initial-date_joined_1": "00:00:00",
    }

    answer = api_client().post(f"/admin/auth/user/{victim.pk}/change/", change, **bearer(token))

    assert answer.status_code == 403
    assert json.loads(answer.content)["error"] == "token_not_accepted"
    victim.refresh_from_db()
    assert not victim.is_superuser and not victim.is_staff
    assert api_client().get("/admin/", **bearer(token)).status_code == 403


def test_a_token_cannot_make_tokens_nor_change_the_password_email_or_settings() -> None:
    boss, token = staff_token()
    api = api_client()

    made = api.post("/account/tokens/", {"action": "create", "name": "more"}, **bearer(token))
    password = api.post(
        "/accounts/password_change/",
        {
            "old_password": "pw-12345678",
            "new_password1": "another-pw-9876",
            "new_password2": "another-pw-9876",
        },
        **bearer(token),
    )
    settings = api.post("/notifications/settings/", {"challenge-push": "1"}, **bearer(token))
    device = api.post(
        "/notifications/push/",
        json.dumps(Device("https://push.example/1").subscription()),
        content_type="application/json",
        **bearer(token),
    )
    language = api.post("/language/", {"language": "fr", "next": "/"}, **bearer(token))

    assert [r.status_code for r in (made, password, settings, device, language)] == [403] * 5
    assert ApiToken.objects.filter(user=boss).count() == 1
    boss.refresh_from_db()
    assert boss.check_password("pw-12345678")
    assert not Preference.objects.exists() and not PushSubscription.objects.exists()


def test_a_page_is_no_place_for_a_token_and_says_why() -> None:
    _, token = staff_token()
    for page in ("/", "/accounts/games/", "/account/tokens/", "/notifications/settings/"):
        answer = api_client().get(page, **bearer(token))
        assert answer.status_code == 403, page
        assert answer["Content-Type"] == "application/json"
        assert "not accepted" in json.loads(answer.content)["message"]


def test_the_routes_bots_and_scripts_use_still_take_a_token() -> None:
    token = make_bot("robo")
    person = User.objects.create_user("ann", password="pw-12345678")
    person_token = services.create_token(user=person, name="script")[1]
    api = api_client()

    made = api.post("/games/new/", {"kind": "othello", "size": 8}, **bearer(person_token))
    assert made.status_code == 302
    game = Game.objects.get()
    assert api.get(f"/games/{game.public_id}/state.json", **bearer(person_token)).json()["you"] in (
        "black",
        "white",
    )
    assert api.get(f"/games/{game.public_id}/sgf", **bearer(token)).status_code == 200
    assert api.get("/players/robo.json", **bearer(token)).json()["bot"] is True
    assert api.get("/notifications.json", **bearer(person_token)).status_code == 200
    online("robo")
    challenged = api.post(
        "/players/robo/challenge/", {"kind": "go", "size": 9}, **bearer(person_token)
    )
    assert challenged.status_code == 302
    challenge = Game.objects.exclude(pk=game.pk).get()
    joined = api.post(f"/games/{challenge.public_id}/join/", **bearer(token))
    assert joined.status_code == 302
    challenge.refresh_from_db()
    assert challenge.status == Game.Status.ACTIVE


def test_a_tokens_refusal_on_a_form_route_is_json_not_a_page() -> None:
    person = User.objects.create_user("ann")
    token = services.create_token(user=person, name="script")[1]

    answer = api_client().post("/games/new/", {"kind": "chess"}, **bearer(token))

    assert answer.status_code == 400
    assert answer["Content-Type"] == "application/json"
    assert json.loads(answer.content)["field"] == "kind"


def test_a_tokens_not_found_is_json_too() -> None:
    person = User.objects.create_user("ann")
    token = services.create_token(user=person, name="script")[1]

    missing = api_client().get("/games/nosuchgame0000/state.json", **bearer(token))
    gone = api_client().post("/games/nosuchgame0000/abort/", **bearer(token))

    assert (missing.status_code, missing.json()["error"]) == (404, "not_found")
    assert (gone.status_code, gone["Content-Type"]) == (404, "application/json")
    assert b"<html" in api_client().get("/games/nosuchgame0000/").content  # a browser's


def test_a_bad_token_is_still_401_where_tokens_are_taken() -> None:
    assert api_client().get("/notifications.json", **bearer("oth_nonsense")).status_code == 401
    # Elsewhere the token is not even read: 403 either way.
    assert api_client().get("/", **bearer("oth_nonsense")).status_code == 403


@pytest.mark.django_db(transaction=True)
async def test_a_token_still_opens_the_websockets() -> None:
    token = await database_sync_to_async(make_bot)()
    headers = [*HEADERS, (b"authorization", f"Bearer {token}".encode())]
    for path in ("/ws/bot/", "/ws/lobby/"):
        socket = WebsocketCommunicator(application, path, headers=headers)
        connected, _ = await socket.connect(TIMEOUT)
        assert connected, path
        await socket.disconnect()


def token_routes() -> set[str]:
    """The routes whose view is marked ``accounts.api.token_route``, as ``/path`` with
    every converter written ``<>``."""
    found: set[str] = set()

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern) and api.takes_token(pattern.callback):
                found.add("/" + _placeholders(route))

    walk(get_resolver().url_patterns, "")
    return found


def _placeholders(route: str) -> str:
    return re.sub(r"<[^<>]*>", "<>", route)


def test_the_routes_that_take_a_token_are_the_ones_the_conventions_list() -> None:
    text = API_README.read_text()
    section = text.split("### Where a token is taken", 1)[1].split("\n#", 1)[0]
    listed = {
        _placeholders(path)
        for path in re.findall(r"`(?:GET|POST)(?:, POST)? (/[^`\s?]*)`", section)
    }
    assert listed == token_routes()


def test_nothing_below_the_api_takes_a_token_by_accident() -> None:
    routes = token_routes()
    for never in ("/account/tokens/", "/notifications/settings/", "/notifications/push/", "/"):
        assert never not in routes
    assert not any(route.startswith(("/admin", "/accounts/")) for route in routes)
