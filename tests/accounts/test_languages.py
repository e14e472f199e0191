"""accounts.languages: the visitor's language from the browser's Accept-Language, unless
chosen in the language menu (kept in a cookie, and for an account in its settings);
URLs carry no language."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from accounts import languages
from accounts.models import Account
from othello_site.asgi import application
from tests.pairing.test_consumers import HEADERS, TIMEOUT, Lobby, visit
from tests.support import catalogues

pytestmark = pytest.mark.django_db

PASSWORD = "a long pass phrase"


def lang_of(page: str) -> str:
    return page.split('<html lang="', 1)[1].split('"', 1)[0]


@pytest.mark.parametrize(
    ("accept", "language"),
    [
        ("ja", "ja"),
        ("ja-JP,ja;q=0.9,en;q=0.8", "ja"),
        ("ko-KR", "ko"),
        ("zh-CN,zh;q=0.9", "zh-hans"),
        ("fr-FR", "fr"),
        ("de-DE", "en"),
        ("", "en"),
    ],
)
def test_the_browsers_accept_language_chooses_by_default(accept: str, language: str) -> None:
    response = Client(HTTP_ACCEPT_LANGUAGE=accept).get("/games/")

    assert lang_of(response.content.decode()) == language
    assert response["Content-Language"] == language
    assert "Accept-Language" in response["Vary"]


def test_the_menu_keeps_the_choice_in_a_cookie_and_goes_back() -> None:
    browser = Client(HTTP_ACCEPT_LANGUAGE="ja")
    chosen = browser.post("/language/", {"language": "fr", "next": "/games/?kind=go"})

    assert (chosen.status_code, chosen.url) == (302, "/games/?kind=go")
    assert lang_of(browser.get("/players/top/").content.decode()) == "fr"
    assert browser.post("/language/", {"language": "xx"}).status_code == 400
    assert (
        browser.post("/language/", {"language": "ko", "next": "https://evil.example/"}).url == "/"
    )


def test_an_accounts_choice_follows_it_to_another_browser() -> None:
    User.objects.create_user("ann", password=PASSWORD)
    here = Client()
    here.login(username="ann", password=PASSWORD)
    here.post("/language/", {"language": "ko"})
    assert Account.objects.get(user__username="ann").language == "ko"

    elsewhere = Client(HTTP_ACCEPT_LANGUAGE="fr")
    assert lang_of(elsewhere.get("/").content.decode()) == "fr"
    elsewhere.post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    assert lang_of(elsewhere.get("/").content.decode()) == "ko"


def test_every_page_offers_the_menu_in_the_header_and_the_footer() -> None:
    page = Client().get("/").content.decode()

    assert 'id="language-header"' in page and 'id="language-footer"' in page
    for code in ("en", "ja", "ko", "zh-hans", "fr"):
        assert f'<option value="{code}" lang="{code}"' in page
    assert '<script src="/jsi18n/"></script>' in page


@pytest.mark.parametrize(
    ("cookie", "accept", "language"),
    [
        (None, "ja-JP,ja;q=0.9", "ja"),
        (None, "de-DE,zh-CN;q=0.5", "zh-hans"),
        (None, "de-DE", "en"),
        (None, "", "en"),
        ("ko", "ja", "ko"),
        ("xx", "fr", "fr"),
    ],
)
def test_a_websockets_language_is_its_cookies_else_its_handshakes(
    cookie: str | None, accept: str, language: str
) -> None:
    scope = {
        "cookies": {settings.LANGUAGE_COOKIE_NAME: cookie} if cookie else {},
        "headers": [(b"accept-language", accept.encode())],
    }

    assert languages.of_scope(scope) == language


@pytest.mark.django_db(transaction=True)
async def test_a_sockets_errors_are_in_its_visitors_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    catalogues.fill(monkeypatch, "fr", {"binary frames are not accepted": "pas de trames binaires"})
    cookie = await database_sync_to_async(visit)()
    for chosen, said in (
        ("fr", "pas de trames binaires"),
        ("en", "binary frames are not accepted"),
    ):
        cookies = f"sessionid={cookie}; {settings.LANGUAGE_COOKIE_NAME}={chosen}"
        headers = [*HEADERS, (b"cookie", cookies.encode())]
        communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
        assert (await communicator.connect(timeout=TIMEOUT))[0]
        try:
            ws = Lobby(communicator)
            await ws.receive()
            await communicator.send_to(bytes_data=b"{}")
            error = await ws.receive_until("error")
            assert (error["code"], error["message"]) == ("bad_request", said)
        finally:
            await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_lobby_says_each_sockets_clocks_in_its_language() -> None:
    from django.utils import translation

    from games import selectors
    from games.models import Game
    from tests.live.test_consumers import socket, table

    cookie = await database_sync_to_async(visit)()
    sockets = {}
    for chosen in ("fr", "ja", "en"):
        cookies = f"sessionid={cookie}; {settings.LANGUAGE_COOKIE_NAME}={chosen}"
        headers = [*HEADERS, (b"cookie", cookies.encode())]
        communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
        assert (await communicator.connect(timeout=TIMEOUT))[0]
        sockets[chosen] = Lobby(communicator)
        await sockets[chosen].receive_until("lobby")  # as the lobby was when it opened
    try:
        seats = await table(full=False)
        game = await database_sync_to_async(Game.objects.get)(public_id=seats.game_id)
        heard = {}
        async with socket(seats.game_id, seats.black):  # its creator there: the game is open
            for chosen, ws in sockets.items():
                lobby = await ws.receive_until("lobby")
                heard[chosen] = {g["id"]: g["time_control"] for g in lobby["games"]}[game.public_id]
                with translation.override(chosen):
                    assert heard[chosen] == selectors.time_control_text(game)
        assert len(set(heard.values())) == 3  # three languages, three wordings
    finally:
        for ws in sockets.values():
            await ws.communicator.disconnect()
