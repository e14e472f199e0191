"""The proxy recipe of docs/operations.md, run: Debian's nginx in front of daphne.

The recipe is read from the page and rendered with this test's ports and host
(tests/support/nginx.py), nginx runs it as a process of the test's own, and the daphne
processes behind it run as the page says (``--proxy-headers``). Through it:

- two players play a game over websockets (the upgrade passes; the ``Origin`` is the
  site's own, its port the proxy's), and a page of another port or scheme cannot open
  a socket;
- a spoofed ``X-Forwarded-For`` does not escape the per-address limits: the recipe
  overwrites it with the address nginx saw;
- a body over 2 MiB is answered 413 by nginx; one of 2 MiB reaches daphne.

One daphne on the embedded default in the test command; two on PostgreSQL and Redis (the
``services`` parameter, CI's service-backed part), a player's sockets landing on either.
"""

from __future__ import annotations

import asyncio
import os
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
import redis
from django.conf import settings
from django_ratelimit.core import _get_window
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from games.limits import HTTP_BODY_BYTES, HTTP_PER_IP
from tests.site.test_daphne import LINE
from tests.support.clients import Browser, open_socket, play, seat_two, upload
from tests.support.daphne import HOST, Daphne, embedded, environment, running
from tests.support.nginx import NGINX, Nginx
from tests.support.processes import fresh_database

PROXY_HEADERS = ["--proxy-headers"]
PER_IP = int(HTTP_PER_IP.split("/")[0])


def own_redis() -> str:
    """A Redis database of this module's own (12), its counts of the limits deleted: they
    start from nothing, and no other run deletes them meanwhile (every run on a Redis
    deletes the counts of REDIS_URL's database at each test's start and end:
    tests/conftest.py)."""
    url = os.environ["REDIS_URL"].rsplit("/", 1)[0] + "/12"
    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(match=f"{settings.CACHES['default']['KEY_PREFIX']}:*"))
    if keys:
        client.delete(*keys)
    return url


@pytest.fixture(
    scope="module",
    params=[1, pytest.param(2, marks=pytest.mark.services)],
    ids=["one daphne", "two daphnes"],
)
def proxy(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Nginx]:
    """nginx running the recipe in front of one daphne (embedded) or two (PostgreSQL and
    Redis), for the module's tests (they count against different limits)."""
    if not NGINX.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{NGINX} is missing: sh scripts/test.sh installs Debian's nginx")
        pytest.skip(f"{NGINX} is missing: sh scripts/test.sh installs Debian's nginx")
    work = tmp_path_factory.mktemp("proxy")
    with ExitStack() as stack:
        if request.param == 1:
            servers = [embedded(work, options=PROXY_HEADERS)]
        else:
            url = stack.enter_context(fresh_database(os.environ["DATABASE_URL"], "othello_proxy"))
            env = environment({"DATABASE_URL": url, "REDIS_URL": own_redis()})
            servers = [
                Daphne(env, work / f"daphne-{number}.log", options=PROXY_HEADERS)
                for number in (1, 2)
            ]
        stack.enter_context(running(servers))
        yield stack.enter_context(Nginx(work, [server.port for server in servers]))


async def test_a_game_is_played_over_websockets_through_the_proxy(proxy: Nginx) -> None:
    game_id, ann, bob = await asyncio.to_thread(seat_two, proxy.url, proxy.url, size=4)
    ann_ws, bob_ws = await open_socket(ann, game_id), await open_socket(bob, game_id)
    try:
        for ws, you in ((ann_ws, "black"), (bob_ws, "white")):
            assert (await ws.receive_until("state"))["game"]["you"] == you
        await play(ann_ws, bob_ws, LINE)
        for ws in (ann_ws, bob_ws):
            event = await ws.receive_until("moved")
            assert (event["move"]["ply"], event["move"]["action"]) == (5, "pass")
    finally:
        await ann_ws.close()
        await bob_ws.close()

    # Another origin of the same host, its port or its scheme, is refused.
    other_port = f"http://{HOST}:{proxy.port + 1}"
    for origin in (other_port, f"https://{HOST}:{proxy.port}", f"http://{HOST}"):
        with pytest.raises(InvalidStatus) as refused:
            await connect(
                proxy.url.replace("http://", "ws://") + f"/ws/games/{game_id}/",
                origin=Origin(origin),
            )
        assert refused.value.response.status_code == 403, origin


def spoofed_import(base: str, token: str, number: int) -> int:
    """An empty ``POST /games/import/`` (400: no file) from a browser with a new session
    each time, claiming to come from another address: the status."""
    request = urllib.request.Request(
        base + "/games/import/",
        data=urllib.parse.urlencode({"csrfmiddlewaretoken": token}).encode(),
        headers={
            "Cookie": f"csrftoken={token}",
            "Origin": base,
            "X-Forwarded-For": f"198.51.100.{number % 250 + 1}, 203.0.113.{number // 250 + 1}",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_a_spoofed_forwarded_for_does_not_escape_the_per_address_limit(proxy: Nginx) -> None:
    browser = Browser(proxy.url)
    browser.get("/games/import/")
    token = browser.cookie("csrftoken")
    # django-ratelimit counts in fixed windows of a minute (their ends its own function
    # says): one that ends meanwhile starts the count again.
    window = _get_window(HOST, 60)
    statuses: list[int] = []
    while 429 not in statuses and len(statuses) <= 2 * PER_IP:
        statuses.append(spoofed_import(proxy.url, token, len(statuses)))

    # Every request counted from the address nginx saw; none was refused by CSRF (the
    # browser's Origin is the host and port it asked for).
    assert statuses[-1] == 429, f"{len(statuses)} requests, none limited"
    assert set(statuses[:-1]) == {400}
    if _get_window(HOST, 60) == window:
        assert len(statuses) == PER_IP + 1


def test_a_body_over_2_mib_is_answered_413_by_the_proxy(proxy: Nginx) -> None:
    browser = Browser(proxy.url)
    browser.get("/")
    token = browser.cookie("csrftoken")
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"csrftoken={token}",
        "X-CSRFToken": token,
    }
    over = upload(proxy.url, "/games/new/", HTTP_BODY_BYTES + 1, headers=headers)
    assert over.status == 413
    assert b"nginx" in over.body  # answered by the proxy, never passed on

    # 2 MiB pass (a form without its fields: 400).
    at_limit = upload(proxy.url, "/games/new/", HTTP_BODY_BYTES, headers=headers)
    assert at_limit.status == 400
    assert b"nginx" not in at_limit.body
