"""othello_site.origins: a websocket's ``Origin`` must be the site's own, scheme, host and
port, else the handshake is refused (HTTP 403 from daphne)."""

from __future__ import annotations

import pytest
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from othello_site.asgi import application
from othello_site.origins import SameOriginValidator

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 10
SITE = "games.example.org"


class Accepting(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()


async def handshake(app: object, headers: dict[str, str], path: str = "/") -> bool:
    """Whether a handshake with ``headers`` is accepted."""
    communicator = WebsocketCommunicator(
        app,
        path,
        headers=[(name.lower().encode(), value.encode()) for name, value in headers.items()],
    )
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    await communicator.disconnect()
    return connected


# (Origin, Host, what the proxy reports: X-Forwarded-Proto and X-Forwarded-Port), accepted?
DIRECT = [
    ("http://127.0.0.1", "127.0.0.1", {}, True),
    ("http://127.0.0.1:80", "127.0.0.1", {}, True),
    ("http://127.0.0.1:8000", "127.0.0.1:8000", {}, True),
    ("http://[::1]:8000", "[::1]:8000", {}, True),
    ("http://localhost:8000", "localhost:8000", {}, True),
    # Another port, another scheme, another host of the site: another origin.
    ("http://127.0.0.1:9000", "127.0.0.1:8000", {}, False),
    ("http://127.0.0.1:8000", "127.0.0.1", {}, False),
    ("http://127.0.0.1", "127.0.0.1:8000", {}, False),
    ("https://127.0.0.1", "127.0.0.1", {}, False),
    ("https://127.0.0.1:8000", "127.0.0.1:8000", {}, False),
    ("http://localhost:8000", "127.0.0.1:8000", {}, False),
    # A host that is not the site's, even when the request names it (DNS rebinding).
    ("http://rebound.example:8000", "rebound.example:8000", {}, False),
    # Not an origin.
    ("null", "127.0.0.1", {}, False),
    ("http://127.0.0.1:8000/games/", "127.0.0.1:8000", {}, False),
    ("http://user@127.0.0.1:8000", "127.0.0.1:8000", {}, False),
    ("ws://127.0.0.1:8000", "127.0.0.1:8000", {}, False),
    ("http://127.0.0.1:port", "127.0.0.1:8000", {}, False),
    ("", "127.0.0.1", {}, False),
]
PROXIED = [
    (f"https://{SITE}", SITE, {"X-Forwarded-Proto": "https", "X-Forwarded-Port": "443"}, True),
    (f"https://{SITE}", SITE, {"X-Forwarded-Proto": "https"}, True),
    (
        f"https://{SITE}:8443",
        SITE,
        {"X-Forwarded-Proto": "https", "X-Forwarded-Port": "8443"},
        True,
    ),
    (f"http://{SITE}:8080", SITE, {"X-Forwarded-Proto": "http", "X-Forwarded-Port": "8080"}, True),
    (f"http://{SITE}", SITE, {"X-Forwarded-Proto": "https", "X-Forwarded-Port": "443"}, False),
    (
        f"https://{SITE}:8443",
        SITE,
        {"X-Forwarded-Proto": "https", "X-Forwarded-Port": "443"},
        False,
    ),
    (f"https://{SITE}", SITE, {"X-Forwarded-Proto": "https", "X-Forwarded-Port": "8443"}, False),
    (f"https://{SITE}", SITE, {}, False),
    # Another of the site's hosts: with the port the proxy reports.
    (f"https://www.{SITE}", SITE, {"X-Forwarded-Proto": "https", "X-Forwarded-Port": "443"}, True),
    (f"https://www.{SITE}", SITE, {"X-Forwarded-Proto": "https"}, False),
    (
        "https://elsewhere.example",
        SITE,
        {"X-Forwarded-Proto": "https", "X-Forwarded-Port": "443"},
        False,
    ),
]


@pytest.mark.parametrize(("origin", "host", "proxy", "accepted"), DIRECT)
async def test_the_origin_is_the_requests_own_scheme_host_and_port(
    origin: str, host: str, proxy: dict[str, str], accepted: bool
) -> None:
    validator = SameOriginValidator(Accepting.as_asgi())
    headers = {"Origin": origin, "Host": host, **proxy} if origin else {"Host": host}
    assert await handshake(validator, headers) is accepted


@pytest.mark.parametrize(("origin", "host", "proxy", "accepted"), PROXIED)
async def test_behind_a_proxy_the_scheme_and_port_are_the_ones_it_reports(
    origin: str, host: str, proxy: dict[str, str], accepted: bool
) -> None:
    validator = SameOriginValidator(Accepting.as_asgi())
    with override_settings(ALLOWED_HOSTS=[SITE, f"www.{SITE}"]):
        assert await handshake(validator, {"Origin": origin, "Host": host, **proxy}) is accepted


@pytest.mark.parametrize(
    ("origin", "accepted"),
    [
        ("http://127.0.0.1:8000", True),
        ("http://127.0.0.1:9000", False),
        ("https://127.0.0.1:8000", False),
        ("http://127.0.0.1", False),
    ],
)
async def test_the_sites_sockets_check_it(origin: str, accepted: bool) -> None:
    headers = {"Origin": origin, "Host": "127.0.0.1:8000"}
    assert await handshake(application, headers, "/ws/lobby/") is accepted
