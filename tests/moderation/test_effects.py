"""What each staff action does, seen as the players see it: through the game and lobby
sockets and over HTTP. A muted account's chat lines and challenges to people are refused
with ``muted`` and ``until``, and it creates no tournament; an account marked for engine
use plays no rated game (``not_allowed``), leaves the leaderboards and its profile says
so; a closed account cannot log in, its games in progress are resigned, its profile says
"closed"."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from moderation import services
from players.models import Rating
from tests.live.test_consumers import accounts_table, players
from tests.moderation.helpers import PASSWORD, account, game_between, logged_in, staff
from tests.pairing.test_consumers import BLITZ, lobby, visit
from tests.tournaments.helpers import joined
from tests.tournaments.helpers import tournament as new_tournament
from tests.tournaments.test_views import heard_of, socket_of

JSON = {"HTTP_ACCEPT": "application/json"}
CHALLENGE = {"kind": "othello", "size": 8, "color": "black", "name": "x"}
RATED = {"clock": "fischer", "main_time": 300, "increment": 5, "rated": 1}


def act(username: str, action: str, **fields: Any) -> None:
    mod = get_user_model().objects.filter(username="mod").first() or staff()
    services.act(staff_id=mod.pk, username=username, action=action, reason="seen", **fields)


@pytest.mark.django_db(transaction=True)
async def test_a_muted_entrants_tournament_chat_line_is_refused_with_until() -> None:
    def made() -> Any:
        found = new_tournament(system="swiss")
        joined(found, "ann", "bob")
        act("ann", "mute", hours=1)
        return found

    found = await database_sync_to_async(made)()
    path = f"/ws/lobby/?bell=1&tournament={found.pk}"
    async with socket_of("ann", path) as ann, socket_of("bob", path) as bob:
        await ann.send_json_to({"type": "chat", "text": "you will all lose"})
        refusal = await heard_of(ann, "error")
        assert refusal["code"] == "muted"
        assert datetime.datetime.fromisoformat(refusal["until"]) > timezone.now()
        await bob.send_json_to({"type": "chat", "text": "good luck"})
        assert (await heard_of(ann, "chat"))["text"] == "good luck"  # Ann heard nothing before


# Muted


@pytest.mark.django_db(transaction=True)
async def test_a_muted_players_chat_line_is_refused_with_until_and_reaches_nobody() -> None:
    seats, _, _ = await database_sync_to_async(accounts_table)()
    await database_sync_to_async(act)("ann", "mute", hours=2)
    async with players(seats) as (black, white):
        await black.send({"type": "chat", "text": "you will lose"})
        refusal = await black.receive()
        assert refusal["type"] == "error" and refusal["code"] == "muted"
        until = datetime.datetime.fromisoformat(refusal["until"])
        assert (
            datetime.timedelta(hours=1, minutes=59)
            < until - timezone.now()
            <= datetime.timedelta(hours=2)
        )
        assert refusal["message"].startswith("you are muted until ")
        assert refusal["message"].endswith(" UTC")

        await database_sync_to_async(act)("ann", "mute")  # now for good
        await black.send({"type": "chat", "text": "still here"})
        refusal = await black.receive()
        assert (refusal["code"], refusal["until"]) == ("muted", None)
        assert refusal["message"] == "you are muted for good"

        # Bob never heard Ann; he still speaks, and once unmuted so does she.
        await white.send({"type": "chat", "text": "gg"})
        assert (await white.receive())["message"]["text"] == "gg"
        assert (await black.receive())["message"]["text"] == "gg"
        await database_sync_to_async(act)("ann", "unmute")
        await black.send({"type": "chat", "text": "sorry"})
        assert (await white.receive())["message"]["text"] == "sorry"


@pytest.mark.django_db
def test_a_muted_account_challenges_no_person_and_creates_no_tournament() -> None:
    ann, _ = account("ann"), account("bob")
    act("ann", "mute", hours=5)
    client = logged_in(ann)

    refused = client.post("/players/bob/challenge/", CHALLENGE, **JSON)
    page = client.post("/players/bob/challenge/", CHALLENGE)
    tournament = client.post(
        "/tournaments/new/",
        {
            "system": "arena",
            "name": "Mine",
            "kind": "othello",
            "size": 8,
            "clock": "fischer",
            "main_time": 180,
            "increment": 2,
            "duration": 30,
            "starts_at": (timezone.now() + datetime.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
        },
    )

    assert refused.status_code == 400
    body = refused.json()
    assert (body["error"], body["message"][:19]) == ("muted", "you are muted until")
    assert datetime.datetime.fromisoformat(body["until"]) > timezone.now()
    assert page.status_code == 400 and "refused: you are muted until" in page.content.decode()
    assert tournament.status_code == 400 and "you are muted until" in tournament.content.decode()


# Marked for engine use


@pytest.mark.django_db(transaction=True)
async def test_an_engines_rated_seek_is_not_allowed_its_casual_seek_is_taken() -> None:
    cookie = await database_sync_to_async(visit)("ann")
    await database_sync_to_async(act)("ann", "mark_engine")
    async with lobby(cookie) as ws:
        await ws.send({**BLITZ, "rated": True})
        refusal = await ws.receive_until("error")
        assert (refusal["code"], refusal["field"]) == ("not_allowed", "rated")
        assert refusal["message"] == "an account marked for engine use plays no rated game"
        await ws.send(BLITZ)
        assert (await ws.receive_until("seeking"))["seek"]["rated"] is False


@pytest.mark.django_db
def test_an_engine_plays_no_rated_game_over_http() -> None:
    ann, bob, carol = account("ann"), account("bob"), account("carol")
    act("ann", "mark_engine")
    ann_client, bob_client = logged_in(ann), logged_in(bob)
    rated_open = bob_client.post("/games/new/", {**CHALLENGE, **RATED})
    game_id = rated_open.url.strip("/").split("/")[-1]
    rated_arena = new_tournament(rated=True)

    creating = ann_client.post("/games/new/", {**CHALLENGE, **RATED}, **JSON)
    joining = ann_client.post(f"/games/{game_id}/join/", **JSON)
    challenging = ann_client.post("/players/carol/challenge/", {**CHALLENGE, **RATED}, **JSON)
    challenged = bob_client.post("/players/ann/challenge/", {**CHALLENGE, **RATED}, **JSON)
    entering = ann_client.post(f"/tournaments/{rated_arena.pk}/join/", **JSON)

    for refused in (joining, challenging, challenged, entering):
        assert refused.status_code == 400 and refused.json()["error"] == "not_allowed", refused
    assert challenging.json()["field"] == challenged.json()["field"] == "rated"
    assert "ann is marked for engine use" in challenged.json()["message"]
    assert creating.status_code == 400
    assert "an account marked for engine use plays no rated game" in creating.content.decode()
    # Casual games stay open to it.
    casual = ann_client.post("/players/carol/challenge/", CHALLENGE)
    assert casual.status_code == 302
    assert carol.pk  # challenged, casually


@pytest.mark.django_db
def test_an_engine_and_a_closed_account_leave_the_leaderboards() -> None:
    for name, rating in (("ann", 2100), ("bob", 2000), ("carol", 1900)):
        user = account(name)
        Rating.objects.create(user=user, category="othello8-blitz", rating=rating, rd=60, games=30)
    act("ann", "mark_engine")
    act("bob", "close")

    board = Client().get("/players/top.json?category=othello8-blitz").json()["players"]
    page = Client().get("/players/top/").content.decode()

    assert [row["username"] for row in board] == ["carol"]
    assert "/players/ann/" not in page and "/players/carol/" in page


@pytest.mark.django_db
def test_the_profile_says_an_account_is_marked_for_engine_use() -> None:
    account("ann")
    before = Client().get("/players/ann/").content.decode()
    act("ann", "mark_engine")

    page = Client().get("/players/ann/").content.decode()

    assert "marked for engine use" not in before
    assert 'id="engine-tag"' in page and "marked for engine use" in page
    assert Client().get("/players/ann.json").json()["engine"] is True


# Closed


@pytest.mark.django_db
def test_a_closed_account_cannot_log_in_and_its_sessions_end() -> None:
    ann = account("ann")
    client = logged_in(ann)
    assert client.get("/").context["user"].is_authenticated

    act("ann", "close")

    assert not client.get("/").context["user"].is_authenticated
    assert not Client().login(username="ann", password=PASSWORD)
    form = Client().post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    assert "_auth_user_id" not in form.wsgi_request.session
    assert not form.wsgi_request.user.is_authenticated


@pytest.mark.django_db
def test_a_closed_accounts_games_in_progress_are_resigned_and_its_profile_says_closed() -> None:
    ann, bob = account("ann"), account("bob")
    game = game_between(ann, bob)

    act("ann", "close")

    state = Client().get(f"/games/{game.public_id}/state.json").json()
    assert (state["status"], state["result"]) == ("finished", "W+R")
    page = logged_in(bob).get("/players/ann/").content.decode()
    assert 'id="closed-tag"' in page and ">closed<" in page
    assert 'id="report-button"' not in page and "challenge-form" not in page
    assert Client().get("/players/ann.json").json()["closed"] is True


@pytest.mark.django_db(transaction=True)
async def test_a_closed_players_socket_hears_its_game_resigned() -> None:
    seats, _, _ = await database_sync_to_async(accounts_table)()
    async with players(seats) as (black, white):
        await database_sync_to_async(act)("ann", "close")
        for ws in (black, white):
            moved = await ws.receive()
            assert moved["type"] == "moved" and moved["move"]["action"] == "resign"
            assert moved["game"]["result"] == "W+R"
        await black.send({"type": "chat", "text": "bye"})
        assert (await black.receive())["code"] == "muted"


# The profile's JSON


@pytest.mark.django_db
def test_the_profile_json_says_engine_and_closed_to_all_and_muted_until_to_staff() -> None:
    ann, bob = account("ann"), account("bob")
    mod = staff()
    act("ann", "mute", hours=3)

    seen_by = {
        "guest": Client().get("/players/ann.json").json(),
        "bob": logged_in(bob).get("/players/ann.json").json(),
        "ann": logged_in(ann).get("/players/ann.json").json(),
        "staff": logged_in(mod).get("/players/ann.json").json(),
    }

    for name, profile in seen_by.items():
        assert (profile["engine"], profile["closed"]) == (False, False), name
    for name in ("guest", "bob", "ann"):
        assert "muted_until" not in seen_by[name], name
    until = datetime.datetime.fromisoformat(seen_by["staff"]["muted_until"])
    assert until > timezone.now() + datetime.timedelta(hours=2)
    assert seen_by["staff"]["muted_for_good"] is False
    act("ann", "mute")
    staff_view = logged_in(mod).get("/players/ann.json").json()
    assert (staff_view["muted_until"], staff_view["muted_for_good"]) == (None, True)
    assert logged_in(mod).get("/players/bob.json").json()["muted_until"] is None
