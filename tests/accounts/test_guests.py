"""accounts.guests: a guest who logs in or signs up keeps the seats taken as a guest.

Django's login gives the session a new key, and guest seats are bound to the session's
key; these tests go the way a browser does, over HTTP with Django's test client, then
over the websocket with the new session cookie.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.test import Client

from accounts import guests
from games.models import Game
from tests.live.test_consumers import play, socket
from tests.live.test_views import PASSWORD, create, state

pytestmark = pytest.mark.django_db(transaction=True)


def session_of(browser: Client) -> str:
    return browser.cookies["sessionid"].value


@dataclass(frozen=True)
class SignedUp:
    """Ann created a game as a guest, Bob joined it, then Ann signed up."""

    game_id: str
    ann: Client
    bob: Client
    guest_session: str
    response: Any


def guest_signs_up() -> SignedUp:
    ann, bob = Client(), Client()
    game_id = create(ann, name="Ann")
    assert bob.post(f"/games/{game_id}/join/", {"name": "Bob"}).status_code == 302
    guest_session = session_of(ann)
    response = ann.post(
        "/accounts/signup/",
        {
            "username": "ann",
            "email": "ann@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    return SignedUp(game_id, ann, bob, guest_session, response)


def test_a_guest_who_signs_up_keeps_the_seat_now_the_accounts() -> None:
    signed_up = guest_signs_up()
    ann, game_id = signed_up.ann, signed_up.game_id

    assert signed_up.response.status_code == 302
    assert session_of(ann) != signed_up.guest_session, "login gave the session a new key"
    seen = state(ann, game_id)
    # The seat now the account's, under its username (docs/api/README.md#one-name-per-player).
    assert (seen["you"], seen["players"]["black"], seen["accounts"]["black"]) == (
        "black",
        "ann",
        "ann",
    )
    assert Game.objects.get(public_id=game_id).black_user == User.objects.get(username="ann")
    mine = ann.get("/accounts/games/")
    assert [game.public_id for game in mine.context["games"]] == [game_id]
    assert state(signed_up.bob, game_id)["you"] == "white"


async def test_a_guest_who_signs_up_plays_on_over_the_websocket() -> None:
    signed_up = await database_sync_to_async(guest_signs_up)()
    game_id = signed_up.game_id

    # Ann's new session plays Black; the guest session's old key holds no seat.
    async with (
        socket(game_id, session_of(signed_up.ann)) as black,
        socket(game_id, session_of(signed_up.bob)) as white,
        socket(game_id, signed_up.guest_session) as old_session,
    ):
        assert (await black.receive())["game"]["online"]["white"]  # Bob arrived
        assert (await black.state())["you"] == "black"
        assert (await old_session.state())["you"] is None
        await play(black, 0, [2, 3])
        for ws in (black, white, old_session):
            event = await ws.receive()
            assert (event["type"], event["move"]["color"], event["game"]["ply"]) == (
                "moved",
                "black",
                1,
            )
        assert await white.error({"type": "play", "ply": 0, "point": [2, 2]}) == "stale"
        assert await old_session.error({"type": "play", "ply": 1, "point": [2, 2]}) == (
            "not_a_player"
        )


def test_a_guest_who_logs_in_keeps_every_seat_taken_as_a_guest() -> None:
    User.objects.create_user("ann", password=PASSWORD)
    ann = Client()
    created = create(ann, name="Annie")
    other = Client()
    waiting = create(other, name="Carl")
    assert ann.post(f"/games/{waiting}/join/", {"name": "Annie"}).status_code == 302

    response = ann.post("/accounts/login/", {"username": "ann", "password": PASSWORD})

    assert response.status_code == 302
    assert state(ann, created)["you"] == "black"
    assert state(ann, waiting)["you"] == "white"
    assert state(other, waiting)["you"] == "black"
    # The seats the account keeps take its username; the stranger's stays.
    assert state(ann, waiting)["players"] == {"black": "Carl", "white": "ann"}
    assert state(ann, created)["players"]["black"] == "ann"
    # The seats follow the account into another browser.
    elsewhere = Client()
    elsewhere.login(username="ann", password=PASSWORD)
    assert (state(elsewhere, created)["you"], state(elsewhere, waiting)["you"]) == (
        "black",
        "white",
    )


def test_every_login_keeps_the_seats_the_test_clients_too() -> None:
    User.objects.create_user("ann", password=PASSWORD)
    ann = Client()
    game_id = create(ann, name="Annie")

    assert ann.login(username="ann", password=PASSWORD)

    assert state(ann, game_id)["you"] == "black"


def test_logging_in_elsewhere_claims_nothing_and_a_stranger_keeps_the_seat() -> None:
    User.objects.create_user("ann", password=PASSWORD)
    stranger = Client()
    game_id = create(stranger, name="Stranger")
    ann = Client()
    ann.get("/")

    ann.post("/accounts/login/", {"username": "ann", "password": PASSWORD})

    assert state(ann, game_id)["you"] is None
    assert state(stranger, game_id)["you"] == "black"


def test_a_login_without_a_request_carries_nothing_over() -> None:
    # channels.auth.login (a login over a websocket) sends user_logged_in without one.
    ann = User.objects.create_user("ann")

    guests.logged_in(sender=User, request=None, user=ann)

    assert not Game.objects.exists()
