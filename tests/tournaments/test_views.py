"""The tournaments over HTTP and the sockets: the form (302, 400 naming the field, once
per token), the list, join/withdraw/pause, the JSON as pinned, the page, the live
standings on the lobby socket, and berserk on the game socket."""

from __future__ import annotations

import datetime
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from othello_site.asgi import application
from tests.pairing.test_consumers import HEADERS, TIMEOUT
from tests.tournaments.helpers import START, account, joined, tournament
from tournaments import services
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

TOKEN = "a-form-token-0123456789"


def logged_in(name: str) -> Client:
    user = get_user_model().objects.filter(username=name).first() or account(name)
    browser = Client()
    browser.force_login(user)
    return browser


def form(**changes: Any) -> dict[str, Any]:
    starts = timezone.now() + datetime.timedelta(minutes=5)
    fields = {
        "system": "arena",
        "name": "Friday blitz",
        "kind": "othello",
        "size": "8",
        "clock": "fischer",
        "main_time": "180",
        "increment": "2",
        "rated": "1",
        "starts_at": starts.isoformat(),
        "duration": "30",
    }
    fields.update(changes)
    return {name: value for name, value in fields.items() if value is not None}


def test_creating_a_tournament_redirects_to_its_page_once_per_token() -> None:
    browser = logged_in("ann")
    answer = browser.post("/tournaments/new/", form(form_token=TOKEN))
    found = Tournament.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{found.pk}/"
    assert found.system == "arena" and found.rated and found.duration == 30
    assert found.time_control["system"] == "fischer" and found.time_control["main_time"] == 180
    again = browser.post("/tournaments/new/", form(form_token=TOKEN))
    assert again["Location"] == answer["Location"]
    assert Tournament.objects.count() == 1


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"system": "knockout"}, "system"),
        ({"name": " "}, "name"),
        ({"kind": "chess"}, "kind"),
        ({"size": "9"}, "size"),
        ({"clock": "sundial"}, "clock"),
        ({"main_time": None}, "main_time"),
        ({"starts_at": "tomorrow"}, "starts_at"),
        ({"starts_at": "2001-01-01T00:00:00Z"}, "starts_at"),
        ({"duration": None}, "duration"),
        ({"duration": "0"}, "duration"),
        ({"system": "swiss", "rounds": None}, "rounds"),
        ({"system": "mcmahon", "kind": "go", "size": "9", "rounds": "3", "bar": "3p"}, "bar"),
        ({"system": "mcmahon", "rounds": "3", "bar": "3d"}, "kind"),
        ({"clock": "correspondence", "days": "3"}, "clock"),
        ({"form_token": "short"}, "form_token"),
        ({"rated": "maybe"}, "rated"),
    ],
)
def test_a_bad_field_is_a_400_naming_it_and_changes_nothing(
    changes: dict[str, Any], field: str
) -> None:
    answer = logged_in("ann").post("/tournaments/new/", form(**changes))
    assert answer.status_code == 400
    named = answer.content.decode().split('data-error-field="')[1].split('"')[0].split()
    assert field in named
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(("sent", "rated"), [("true", True), ("False", False), (None, False)])
def test_rated_is_a_yes_or_no(sent: str | None, rated: bool) -> None:
    logged_in("ann").post("/tournaments/new/", form(rated=sent))
    assert Tournament.objects.get().rated is rated


def test_creating_needs_an_account() -> None:
    answer = Client().post("/tournaments/new/", form())
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    assert not Tournament.objects.exists()


def test_the_list_shows_upcoming_running_and_finished() -> None:
    upcoming = tournament(name="Later")
    running = tournament(name="Now")
    Tournament.objects.filter(pk=running.pk).update(status="running")
    finished = tournament(name="Done")
    Tournament.objects.filter(pk=finished.pk).update(status="finished")
    page = Client().get("/tournaments/").content.decode()
    assert page.index("Now") < page.index("Later") < page.index("Done")
    assert f"/tournaments/{upcoming.pk}/" in page
    assert 'href="/tournaments/"' in page  # the header's link


def test_join_withdraw_and_pause_through_http() -> None:
    found = tournament()
    browser = logged_in("bob")
    assert browser.post(f"/tournaments/{found.pk}/join/").status_code == 302
    assert Entry.objects.filter(tournament=found, user__username="bob").exists()
    Tournament.objects.filter(pk=found.pk).update(status="running")
    assert browser.post(f"/tournaments/{found.pk}/pause/").status_code == 302
    assert Entry.objects.get(user__username="bob").paused
    assert browser.post(f"/tournaments/{found.pk}/withdraw/").status_code == 302
    assert Entry.objects.get(user__username="bob").withdrawn
    assert browser.post("/tournaments/999/join/").status_code == 404
    assert Client().post(f"/tournaments/{found.pk}/join/").status_code == 302  # to log in
    swiss = tournament("swiss")
    json_please = {"HTTP_ACCEPT": "application/json"}
    assert browser.post(f"/tournaments/{swiss.pk}/pause/", **json_please).status_code == 400


def test_the_json_is_as_pinned() -> None:
    found = tournament("swiss", rounds=2)
    joined(found, "ann", "bob", "cid")
    [game] = services.advance(tournament_id=found.pk, now=START)
    data = Client().get(f"/tournaments/{found.pk}.json").json()
    assert set(data) == {
        "id",
        "system",
        "name",
        "kind",
        "size",
        "clock",
        "rated",
        "status",
        "starts_at",
        "ends_at",
        "round",
        "players",
        "pairings",
    }
    assert data["status"] == "running" and data["round"] == 1 and data["system"] == "swiss"
    player = data["players"][0]
    assert set(player) == {"username", "rating", "score", "tiebreaks", "rank", "games"}
    assert set(player["tiebreaks"]) == {"buchholz", "sonneborn_berger", "disc_difference"}
    [bye] = [p for p in data["pairings"] if p["game_id"] is None]
    assert bye["white"] is None and bye["result"] == "bye" and bye["round"] == 1
    [played] = [p for p in data["pairings"] if p["game_id"] is not None]
    assert played["game_id"] == game.public_id and played["result"] is None
    games = {p["username"]: p["games"] for p in data["players"]}
    assert games[played["black"]] == [game.public_id]
    assert Client().get("/tournaments/999.json").status_code == 404
    arena = tournament()
    joined(arena, "dan")
    [row] = Client().get(f"/tournaments/{arena.pk}.json").json()["players"]
    assert row["fire"] is False and row["tiebreaks"] == {} and row["score"] == 0


def test_the_page_shows_the_standings_and_the_games() -> None:
    found = tournament("swiss")
    joined(found, "ann", "bob")
    [game] = services.advance(tournament_id=found.pk, now=START)
    page = logged_in("ann").get(f"/tournaments/{found.pk}/").content.decode()
    assert "ann" in page and "bob" in page
    assert f"/games/{game.public_id}/" in page
    assert 'id="withdraw"' in page


def test_a_tournaments_game_page_links_its_tournament() -> None:
    found = tournament("swiss")
    joined(found, "ann", "bob")
    [game] = services.advance(tournament_id=found.pk, now=START)
    page = Client().get(f"/games/{game.public_id}/").content.decode()
    assert f'Round 1 of <a href="/tournaments/{found.pk}/">{found.name}</a>' in page


@asynccontextmanager
async def socket_of(username: str, path: str) -> AsyncIterator[WebsocketCommunicator]:
    """A websocket at ``path`` opened by ``username``'s browser (its session cookie)."""

    def cookie() -> str:
        browser = logged_in(username)
        browser.get("/tournaments/")
        return browser.cookies["sessionid"].value

    headers = [
        *HEADERS,
        (b"cookie", f"sessionid={await database_sync_to_async(cookie)()}".encode()),
    ]
    socket = WebsocketCommunicator(application, path, headers=headers)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    try:
        yield socket
    finally:
        await socket.disconnect()


async def test_the_page_hears_the_standings_when_a_player_joins() -> None:
    found = await database_sync_to_async(tournament)()
    async with socket_of("watcher", f"/ws/lobby/?bell=1&tournament={found.pk}") as socket:
        await database_sync_to_async(joined)(found, "ann")
        heard: dict[str, Any] = await socket.receive_json_from(timeout=TIMEOUT)
        assert heard["type"] == "standings"
        assert heard["tournament"]["id"] == found.pk
        assert [row["username"] for row in heard["tournament"]["players"]] == ["ann"]


async def test_berserk_on_the_game_socket_halves_the_clock() -> None:
    def paired() -> tuple[str, str]:
        found = tournament()
        joined(found, "ann", "bob")
        [game] = services.advance(tournament_id=found.pk, now=START, seed=1)
        return game.public_id, "black" if game.black_user.username == "ann" else "white"

    game_id, color = await database_sync_to_async(paired)()
    async with socket_of("ann", f"/ws/games/{game_id}/") as socket:
        state = await socket.receive_json_from(timeout=TIMEOUT)
        assert state["game"]["tournament"]["round"] == 1
        await socket.receive_json_from(timeout=TIMEOUT)  # the chat so far
        await socket.send_json_to({"type": "berserk"})
        for _ in range(5):
            heard = await socket.receive_json_from(timeout=TIMEOUT)
            if heard["type"] == "state":
                break
        assert heard["game"]["clock"][color]["remaining_ms"] <= 90_000
        await socket.send_json_to({"type": "berserk"})
        for _ in range(5):
            heard = await socket.receive_json_from(timeout=TIMEOUT)
            if heard["type"] == "error":
                break
        assert heard["code"] == "bad_request"
