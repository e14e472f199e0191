"""The links of notification e-mails: ``SITE_URL`` when set; else the address of the
request (or the websocket) that caused the notification; else the default, logged. A
server that starts without ``SITE_URL`` says so."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core import mail
from django.test import Client, RequestFactory
from twisted.internet import reactor

from games.models import Game
from notifications import channels, outbox, services, site
from notifications.models import Kind
from othello_site.asgi import application
from tests.pairing.test_consumers import TIMEOUT
from tests.support.daphne import embedded
from tests.support.helpers import verified_account

pytestmark = pytest.mark.django_db(transaction=True)

PLAYED_ON = "http://testserver:8123"
CORRESPONDENCE = {
    "kind": "othello",
    "size": 8,
    "color": "black",
    "name": "x",
    "clock": "correspondence",
    "days": 3,
}


@pytest.fixture
def mails(settings: Any) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def browser(name: str) -> Client:
    """A logged-in browser on ``PLAYED_ON``."""
    client = Client(HTTP_HOST="testserver:8123")
    client.force_login(verified_account(name, email=f"{name}@example.org"))
    return client


def sent() -> list[Any]:
    """The e-mails the outbox sends now."""
    outbox.deliver(process="test", send=channels.send)
    return list(mail.outbox)


def links(message: Any) -> set[str]:
    """Where every link of ``message`` (both parts) starts: ``scheme://host[:port]``."""
    [(html, _)] = message.alternatives
    found = re.findall(r"(https?://[^/\s\"<>]+)/", message.body + html)
    assert found
    return set(found)


def challenged_and_accepted() -> tuple[Game, Client]:
    """Ann challenges Bob to a correspondence game on ``PLAYED_ON``, and he accepts there."""
    ann, bob = browser("ann"), browser("bob")
    assert ann.post("/players/bob/challenge/", CORRESPONDENCE).status_code == 302
    game = Game.objects.get()
    assert bob.post(f"/games/{game.public_id}/join/").status_code == 302
    return game, ann


async def test_a_game_played_on_a_host_mails_links_to_that_host(settings: Any, mails: None) -> None:
    settings.SITE_URL = ""
    game, ann = await database_sync_to_async(challenged_and_accepted)()
    headers = [
        (b"origin", PLAYED_ON.encode()),
        (b"host", b"testserver:8123"),
        (b"cookie", f"sessionid={ann.cookies['sessionid'].value}".encode()),
    ]
    socket = WebsocketCommunicator(application, f"/ws/games/{game.public_id}/", headers=headers)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    try:
        await socket.send_json_to({"type": "play", "ply": 0, "point": [2, 3]})  # Ann's move
        while (await socket.receive_json_from(timeout=TIMEOUT))["type"] != "moved":
            pass
    finally:
        await socket.disconnect()

    challenge, your_move = await database_sync_to_async(sent)()

    assert "challenges you" in challenge.subject and "Your move" in your_move.subject
    for message in (challenge, your_move):
        assert message.to == ["bob@example.org"]
        assert links(message) == {PLAYED_ON}
        assert f"{PLAYED_ON}/games/{game.public_id}/" in message.body
        assert message.extra_headers["List-Unsubscribe"].startswith(f"<{PLAYED_ON}/")


def test_site_url_when_set_wins_over_the_requests_address(settings: Any, mails: None) -> None:
    settings.SITE_URL = "https://games.example.org"
    game, _ = challenged_and_accepted()

    [challenge] = sent()

    assert links(challenge) == {"https://games.example.org"}
    assert f"https://games.example.org/games/{game.public_id}/" in challenge.body


def test_without_a_request_the_links_use_the_default_and_the_log_says_so(
    settings: Any, mails: None, caplog: pytest.LogCaptureFixture
) -> None:
    settings.SITE_URL = ""
    ann = verified_account("ann", email="ann@example.org")
    told = services.notify(  # a worker's: no request being served
        user_id=ann.pk,
        kind=Kind.CHALLENGE,
        params={"name": "bob", "kind": "othello", "size": 8},
        url="/games/g/",
    )
    assert told is not None and told.site == ""

    with caplog.at_level(logging.WARNING, logger="notifications.site"):
        [message] = sent()

    assert links(message) == {"http://127.0.0.1:8000"}
    assert f"no request caused notification {told.pk}" in caplog.text


def test_a_server_starting_without_site_url_says_so_once(
    settings: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    started: list[Any] = []
    monkeypatch.setattr(  # daphne's reactor, starting
        reactor, "callWhenRunning", lambda call, *args: started.append((call, args))
    )
    settings.SITE_URL = "https://games.example.org"
    site.warn_when_serving()
    assert started == []

    settings.SITE_URL = ""
    with caplog.at_level(logging.WARNING, logger="notifications.site"):
        site.warn_when_serving()
        [(call, args)] = started
        call(*args)

    [record] = caplog.records
    assert record.getMessage().startswith("SITE_URL is not set: the links in notification e-mails")
    assert "http://127.0.0.1:8000" in record.getMessage()


def test_daphne_started_without_site_url_logs_it(tmp_path: Path) -> None:
    with embedded(tmp_path, SITE_URL=None) as daphne:
        pass
    log = daphne.log.read_text()
    assert log.count("SITE_URL is not set") == 1, log


def test_an_address_too_long_to_keep_is_not_kept() -> None:
    heard: list[str] = []
    middleware = site.RequestSite(lambda request: heard.append(site.current()))  # type: ignore[arg-type,return-value]
    factory = RequestFactory()

    middleware(factory.get("/", HTTP_HOST="testserver:8123"))
    middleware(factory.get("/", HTTP_HOST="testserver:" + "1" * 200))
    middleware(factory.get("/", HTTP_HOST="elsewhere.example"))  # not an allowed host

    assert heard == [PLAYED_ON, "", ""]
    assert site.current() == ""  # outside of a request
