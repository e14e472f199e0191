"""The bots app through HTTP and the ASGI application: tokens, bot accounts, the bot's
stream, challenges (accept, decline, the 30 s abort with an injected clock)."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import io
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from accounts import selectors as accounts_selectors
from bots import accounts, services
from bots.models import ApiToken, BotConnection
from challenges import services as challenges
from challenges.models import Challenge
from games.models import Game
from games.workers import clockwatch
from othello_site.asgi import application

HEADERS = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
TIMEOUT = 10


def bearer(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def make_bot(name: str = "robo") -> str:
    """``manage.py bot_token name``: the token it prints last."""
    out = io.StringIO()
    call_command("bot_token", name, stdout=out)
    return out.getvalue().strip().splitlines()[-1]


def online(name: str) -> None:
    BotConnection.objects.create(
        user=User.objects.get(username=name),
        process="test",
        channel_name=f"test.{name}",
        opened_at=timezone.now(),
    )


def person(name: str = "ann") -> Client:
    client = Client()
    client.force_login(User.objects.create_user(name, password="pw-12345678"))
    return client


def challenge(client: Client, bot: str = "robo", **fields: Any) -> Any:
    data = {"kind": "go", "size": 9, "color": "black", "name": "Ann", **fields}
    return client.post(f"/players/{bot}/challenge/", data)


# Tokens


@pytest.mark.django_db
def test_a_token_is_shown_once_stored_hashed_and_listed_with_its_last_use() -> None:
    client = person()
    page = client.post("/account/tokens/", {"action": "create", "name": "laptop"})
    assert page.status_code == 200
    token = page.context["created"]
    assert token.startswith("oth_")
    stored = ApiToken.objects.get()
    assert stored.digest == accounts.digest(token) and token not in stored.digest
    assert stored.prefix == token[:12] and stored.last_used_at is None
    assert token not in client.get("/account/tokens/").content.decode()
    assert Client().get("/notifications.json", **bearer(token)).status_code == 200
    stored.refresh_from_db()
    assert stored.last_used_at is not None
    assert "<td>never</td>" not in client.get("/account/tokens/").content.decode()


@pytest.mark.django_db
def test_a_token_acts_on_http_without_csrf_and_a_revoked_or_unknown_one_is_401() -> None:
    client = person()
    token = client.post("/account/tokens/", {"action": "create", "name": "t"}).context["created"]
    api = Client(enforce_csrf_checks=True)
    made = api.post(
        "/games/new/", {"kind": "othello", "size": 8, "color": "black"}, **bearer(token)
    )
    assert made.status_code == 302
    game = Game.objects.get()
    assert game.black_user.username == "ann" and game.black_name == "ann"
    assert api.get("/notifications.json", **bearer(token + "x")).status_code == 401
    assert api.get("/notifications.json", **bearer("nonsense")).status_code == 401
    assert api.get("/notifications.json", **bearer("")).status_code == 401
    stored = ApiToken.objects.get()
    assert (
        client.post("/account/tokens/", {"action": "revoke", "token": stored.pk}).status_code == 302
    )
    response = api.get("/notifications.json", **bearer(token))
    assert response.status_code == 401 and response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.django_db
def test_a_tokens_creations_count_by_account(settings: Any) -> None:
    settings.RATE_LIMITS = True
    token = make_bot()
    api = Client()
    codes = [
        api.post("/games/new/", {"kind": "othello", "size": 8}, **bearer(token)).status_code
        for _ in range(11)
    ]
    assert codes == [302] * 10 + [429]


@pytest.mark.django_db(transaction=True)
async def test_a_token_acts_on_the_websocket_and_a_bad_one_is_refused() -> None:
    token = await database_sync_to_async(make_bot)()
    headers = [*HEADERS, (b"authorization", f"Bearer {token}".encode())]
    socket = WebsocketCommunicator(application, "/ws/bot/", headers=headers)
    connected, _ = await socket.connect(TIMEOUT)
    assert connected
    await socket.disconnect()
    for bad in (f"Bearer {token}x", "Bearer "):
        refused = WebsocketCommunicator(
            application, "/ws/bot/", headers=[*HEADERS, (b"authorization", bad.encode())]
        )
        connected, _ = await refused.connect(TIMEOUT)
        assert not connected
    # A session, without a token, is no bot's stream.
    plain = WebsocketCommunicator(application, "/ws/bot/", headers=HEADERS)
    connected, _ = await plain.connect(TIMEOUT)
    assert not connected


# Bot accounts


@pytest.mark.django_db
def test_bot_token_makes_a_bot_and_an_account_with_games_cannot_become_one() -> None:
    token = make_bot("robo")
    assert accounts_selectors.is_bot(User.objects.get(username="robo"))
    assert accounts.token_user(token) is not None
    second = make_bot("robo")
    assert second != token and ApiToken.objects.count() == 2
    client = person("ann")
    assert not accounts_selectors.is_bot(User.objects.get(username="ann"))
    client.post("/games/new/", {"kind": "othello", "size": 8, "color": "black"})
    refused = client.post("/account/tokens/", {"action": "become_bot", "confirm": "1"})
    assert refused.status_code == 400
    fresh = person("bea")
    confirmed = {"action": "become_bot", "confirm": "1"}
    assert fresh.post("/account/tokens/", confirmed).status_code == 302
    assert accounts_selectors.is_bot(User.objects.get(username="bea"))


@pytest.mark.django_db
def test_becoming_a_bot_needs_a_confirmation_saying_it_is_for_good() -> None:
    client = person("cid")
    page = client.get("/account/tokens/").content.decode()
    assert 'name="confirm" value="1" required' in page
    assert "cid will be a bot for ever" in page and 'href="/help/bots/"' in page

    unconfirmed = client.post("/account/tokens/", {"action": "become_bot"})

    assert unconfirmed.status_code == 400 and "tick the box" in unconfirmed.content.decode()
    assert not accounts_selectors.is_bot(User.objects.get(username="cid"))


@pytest.mark.django_db
def test_the_bots_page_lists_the_bots_online_with_what_they_play() -> None:
    make_bot("robo")
    make_bot("sleepy")
    online("robo")
    services.set_accepts(
        user_id=User.objects.get(username="robo").pk,
        accepts={"kinds": ["go"], "sizes": [9, 19], "clocks": []},
    )
    page = Client().get("/players/bots/").content.decode()
    assert "robo" in page and "sleepy" not in page
    assert "go" in page and "9, 19" in page and "Challenge" in page


# Challenges


@pytest.mark.django_db
def test_a_challenge_is_a_waiting_game_only_the_bot_may_join(
    django_capture_on_commit_callbacks: Any,
) -> None:
    token = make_bot()
    online("robo")
    with django_capture_on_commit_callbacks(execute=True):
        response = challenge(person(), clock="fischer", main_time=300, increment=5, rated=1)
    assert response.status_code == 302
    game = Game.objects.get()
    assert response.url == f"/games/{game.public_id}/"
    assert game.status == "waiting" and Challenge.objects.get().rated
    other = Client()
    other.post(f"/games/{game.public_id}/join/", {"name": "Intruder"})
    game.refresh_from_db()
    assert game.status == "waiting"
    state = Client().get(f"/games/{game.public_id}/state.json").json()
    assert state["challenge"] == {
        "to": "robo",
        "bot": "robo",
        "status": "pending",
        "rated": True,
        "reason": None,
        "message": None,
    }
    joined = Client().post(f"/games/{game.public_id}/join/", **bearer(token))
    assert joined.status_code == 302
    game.refresh_from_db()
    assert game.status == "active" and game.white_user.username == "robo"
    challenges.expire_challenges()  # the clock watch's second: it notes the answer
    assert Challenge.objects.get().status == "accepted"
    state = Client().get(f"/games/{game.public_id}/state.json").json()
    assert state["bots"] == {"black": False, "white": True}


@pytest.mark.django_db
def test_a_challenge_is_refused_to_an_offline_bot_itself_and_a_rated_guest() -> None:
    make_bot()
    person("bea")
    assert challenge(person()).status_code == 400
    online("robo")
    assert challenge(Client(), rated=1, clock="absolute", main_time=60).status_code == 400
    assert challenge(person("cid"), rated=1).status_code == 400  # no clock
    assert challenge(person("dan"), bot="nobody").status_code == 400
    robo = Client()
    robo.force_login(User.objects.get(username="robo"))
    assert challenge(robo).status_code == 400
    assert Game.objects.count() == 0


@pytest.mark.django_db
def test_a_declined_challenge_is_aborted_and_the_challenger_is_told() -> None:
    token = make_bot()
    online("robo")
    client = person()
    challenge(client)
    game = Game.objects.get()
    assert Client().post(f"/games/{game.public_id}/decline/").status_code == 403
    declined = Client().post(f"/games/{game.public_id}/decline/", **bearer(token))
    assert declined.status_code == 200
    game.refresh_from_db()
    assert game.status == "aborted"
    state = client.get(f"/games/{game.public_id}/state.json").json()
    assert state["challenge"]["message"] == (
        "robo declined the challenge: I am not accepting challenges at the moment."
    )
    again = Client().post(f"/games/{game.public_id}/decline/", **bearer(token))
    assert again.status_code == 400


@pytest.mark.django_db
def test_a_challenge_not_answered_in_30_s_is_aborted() -> None:
    make_bot()
    online("robo")
    challenge(person())
    game = Game.objects.get()
    start = Challenge.objects.get().created_at
    assert challenges.expire_challenges(now=start + datetime.timedelta(seconds=29)) == []
    assert challenges.expire_challenges(now=start + datetime.timedelta(seconds=30)) == [
        game.public_id
    ]
    game.refresh_from_db()
    assert game.status == "aborted"
    state = Client().get(f"/games/{game.public_id}/state.json").json()
    assert "did not answer the challenge within 30 s" in state["challenge"]["message"]
    assert challenges.expire_challenges(now=start + datetime.timedelta(seconds=60)) == []


@pytest.mark.django_db(transaction=True)
async def test_the_process_watch_aborts_a_challenge_past_its_time() -> None:
    # What bots registers with games.workers.clockwatch (every_second) runs in the watch.
    def overdue() -> Game:
        make_bot()
        online("robo")
        challenge(person())
        past = timezone.now() - datetime.timedelta(seconds=1)
        Challenge.objects.update(expires_at=past)
        return Game.objects.get()

    game = await database_sync_to_async(overdue)()
    watch = asyncio.create_task(clockwatch.ClockWatch("test-watch").run())
    try:
        for _ in range(100):
            await asyncio.sleep(0.1)
            await database_sync_to_async(game.refresh_from_db)()
            if game.status != "waiting":
                break
    finally:
        watch.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watch
    assert game.status == "aborted"
    assert await database_sync_to_async(lambda: Challenge.objects.get().status)() == "expired"


@pytest.mark.django_db(transaction=True)
async def test_the_bot_stream_sends_challenges_and_on_connect_its_games() -> None:
    token = await database_sync_to_async(make_bot)()
    headers = [*HEADERS, (b"authorization", f"Bearer {token}".encode())]
    socket = WebsocketCommunicator(application, "/ws/bot/", headers=headers)
    assert (await socket.connect(TIMEOUT))[0]
    await socket.send_json_to({"type": "accepts", "kinds": ["go"], "sizes": [9], "clocks": []})
    await socket.send_json_to({"type": "nonsense"})
    assert (await socket.receive_json_from(TIMEOUT))["code"] == "bad_request"
    client = await database_sync_to_async(person)()
    response = await database_sync_to_async(challenge)(client)
    assert response.status_code == 302
    message = await socket.receive_json_from(TIMEOUT)
    game_id = response.url.strip("/").split("/")[-1]
    assert message == {
        "type": "challenge",
        "game_id": game_id,
        "kind": "go",
        "size": 9,
        "komi": 6.5,
        "color": "white",
        "clock": None,
        "rated": False,
        "from": "ann",  # an account's seat is named by its username
    }
    await socket.disconnect()
    assert not await database_sync_to_async(BotConnection.objects.exists)()
    # Reconnected: the challenge still pending; once joined, the game it plays.
    again = WebsocketCommunicator(application, "/ws/bot/", headers=headers)
    assert (await again.connect(TIMEOUT))[0]
    assert (await again.receive_json_from(TIMEOUT))["type"] == "challenge"
    await again.disconnect()
    joined = await database_sync_to_async(Client().post)(
        f"/games/{game_id}/join/", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    assert joined.status_code == 302
    third = WebsocketCommunicator(application, "/ws/bot/", headers=headers)
    assert (await third.connect(TIMEOUT))[0]
    assert await third.receive_json_from(TIMEOUT) == {
        "type": "game",
        "game_id": game_id,
        "kind": "go",
        "size": 9,
        "color": "white",
        "status": "active",
    }
    await third.disconnect()
    accepts = await database_sync_to_async(
        lambda: User.objects.get(username="robo").bot_account.accepts
    )()
    assert accepts == {"kinds": ["go"], "sizes": [9], "clocks": []}
