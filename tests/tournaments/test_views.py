"""The tournaments over HTTP and the sockets: the form (302, 400 naming the field, once
per token), the list, join/withdraw/pause, the JSON as pinned, the page, the live
standings on the lobby socket, and berserk on the game socket."""

from __future__ import annotations

import asyncio
import datetime
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone, translation
from django.utils.translation import gettext

from notifications.models import Notification
from othello_site.asgi import application
from tests.pairing.test_consumers import HEADERS, TIMEOUT
from tests.tournaments.helpers import START, account, joined, tournament, win
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
        ({"name": "Friday blitz\r\nBcc: everyone@example.com"}, "name"),
        ({"name": "Friday\u200bblitz"}, "name"),
        ({"name": "\u202eztilb yadirF"}, "name"),
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


def test_a_name_with_a_line_break_is_refused_before_it_can_reach_an_email() -> None:
    """The entrants' e-mails carry the name in their subject: a line break there would
    make every one of them fail (BadHeaderError). The form refuses it, saying why."""
    answer = logged_in("ann").post("/tournaments/new/", form(name="Friday\nBcc: x@example.com"))

    assert answer.status_code == 400
    assert "U+000A" in answer.content.decode()
    assert not Tournament.objects.exists()
    assert not Notification.objects.exists()
    assert mail.outbox == []


def test_a_name_is_stored_in_nfkc_form_and_trimmed() -> None:
    logged_in("ann").post("/tournaments/new/", form(name=" \uff26riday blitz "))

    assert Tournament.objects.get().name == "Friday blitz"


@pytest.mark.parametrize(("sent", "rated"), [("true", True), ("False", False), (None, False)])
def test_rated_is_a_yes_or_no(sent: str | None, rated: bool) -> None:
    logged_in("ann").post("/tournaments/new/", form(rated=sent))
    assert Tournament.objects.get().rated is rated


def test_past_the_cap_the_form_says_so_with_429() -> None:
    browser = logged_in("ann")
    for number in range(3):
        assert browser.post("/tournaments/new/", form(name=f"T{number}")).status_code == 302
    refused = browser.post("/tournaments/new/", form(name="T3"))
    assert refused.status_code == 429
    assert "at most 3 tournaments not yet finished" in refused.content.decode()
    assert Tournament.objects.count() == 3


def test_a_pickers_time_is_read_in_the_browsers_time_zone() -> None:
    browser = logged_in("ann")
    answer = browser.post(
        "/tournaments/new/", form(starts_at="2030-01-15T18:00", timezone="Asia/Tokyo")
    )
    assert answer.status_code == 302
    tokyo_evening = datetime.datetime(2030, 1, 15, 9, 0, tzinfo=datetime.UTC)
    assert Tournament.objects.get().starts_at == tokyo_evening
    # A time with its own zone keeps it, whatever the browser's.
    browser.post("/tournaments/new/", form(starts_at="2030-01-15T18:00:00Z", timezone="Asia/Tokyo"))
    assert Tournament.objects.latest("pk").starts_at.hour == 18


def test_start_now_starts_a_minute_later() -> None:
    before = timezone.now()
    answer = logged_in("ann").post("/tournaments/new/", form(starts_at=None, start_now="on"))
    assert answer.status_code == 302
    starts = Tournament.objects.get().starts_at
    assert (
        before + datetime.timedelta(seconds=55)
        <= starts
        <= timezone.now() + datetime.timedelta(seconds=61)
    )


@pytest.mark.parametrize(
    "changes",
    [
        {"starts_at": None},
        {"starts_at": None, "start_now": "0"},
        {"starts_at": "2030-01-15T18:00", "timezone": "Mars/Olympus_Mons"},
    ],
)
def test_a_start_missing_or_in_an_unknown_zone_is_a_400_naming_it(changes: dict[str, Any]) -> None:
    answer = logged_in("ann").post("/tournaments/new/", form(**changes))
    assert answer.status_code == 400
    assert 'data-error-field="starts_at"' in answer.content.decode()
    assert not Tournament.objects.exists()


def test_the_form_offers_othello_its_even_sizes_and_go_its_odd_ones() -> None:
    page = logged_in("ann").get("/tournaments/new/").content.decode()
    sizes = re.search(r'<select name="size".*?</select>', page, re.DOTALL)
    assert sizes is not None
    groups = dict(re.findall(r'<optgroup label="(\w+)">(.*?)</optgroup>', sizes[0], re.DOTALL))
    offered = {
        kind: [int(n) for n in re.findall(r'value="(\d+)"', options)]
        for kind, options in groups.items()
    }
    assert offered["Othello"] and all(size % 2 == 0 for size in offered["Othello"])
    assert offered["Go"] and all(size % 2 == 1 for size in offered["Go"])
    assert '<input type="datetime-local" name="starts_at"' in page
    assert 'name="start_now"' in page and 'name="timezone"' in page


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
        "chat",
    }
    assert data["status"] == "running" and data["round"] == 1 and data["system"] == "swiss"
    player = data["players"][0]
    assert set(player) == {"username", "rating", "score", "tiebreaks", "rank", "games", "sheet"}
    assert set(player["tiebreaks"]) == {"buchholz", "sonneborn_berger", "disc_difference"}
    [bye] = [p for p in data["pairings"] if p["game_id"] is None]
    assert bye["white"] is None and bye["result"] == "bye" and bye["round"] == 1
    [played] = [p for p in data["pairings"] if p["game_id"] is not None]
    assert played["game_id"] == game.public_id and played["result"] is None
    games = {p["username"]: p["games"] for p in data["players"]}
    assert games[played["black"]] == [game.public_id]
    sheets = {p["username"]: p["sheet"] for p in data["players"]}
    assert sheets[bye["black"]] == [{"round": 1, "opponent": None, "color": None, "result": "bye"}]
    assert sheets[played["black"]] == [
        {"round": 1, "opponent": played["white"], "color": "black", "result": None}
    ]
    assert data["chat"] == []
    assert Client().get("/tournaments/999.json").status_code == 404
    arena = tournament()
    joined(arena, "dan")
    [row] = Client().get(f"/tournaments/{arena.pk}.json").json()["players"]
    assert row["fire"] is False and row["tiebreaks"] == {} and row["score"] == 0
    assert row["sheet"] == [] and row["performance"] is None


def test_the_page_shows_the_standings_and_the_games() -> None:
    found = tournament("swiss")
    joined(found, "ann", "bob")
    [game] = services.advance(tournament_id=found.pk, now=START)
    page = logged_in("ann").get(f"/tournaments/{found.pk}/").content.decode()
    assert "ann" in page and "bob" in page
    assert f"/games/{game.public_id}/" in page
    assert 'id="withdraw"' in page


def test_the_page_shows_a_cross_table_with_tiebreaks_by_name_in_its_language() -> None:
    found = tournament("swiss")
    joined(found, "ann", "bob", "cid")
    [game] = services.advance(tournament_id=found.pk, now=START)
    game.refresh_from_db()
    winner, loser = game.black_user.username, game.white_user.username
    win(game, game.black_user)
    page = Client(headers={"accept-language": "ja"}).get(f"/tournaments/{found.pk}/").content
    text = page.decode()
    # The tiebreaks by their names (and what each sums), never the JSON's keys.
    for name in ("ブッフホルツ", "ゾンネボルン・ベルガー", "石数差"):
        assert f">{name}</abbr>" in text
    assert "sonneborn_berger 0" not in text and "buchholz 0" not in text
    # The names link to the profiles; a round's cell says the result and the opponent.
    for name in ("ann", "bob", "cid"):
        assert f'<a href="/players/{name}/">{name}</a>' in text
    with translation.override("ja"):
        won = gettext("Round %(round)s: won against %(opponent)s") % {"round": 1, "opponent": loser}
        lost = gettext("Round %(round)s: lost to %(opponent)s") % {"round": 1, "opponent": winner}
        of_three = gettext("Round %(round)s of %(rounds)s") % {"round": 1, "rounds": 3}
    assert won != "Round 1: won against " + loser  # in Japanese
    assert f'title="{won}"' in text and f'title="{lost}"' in text and of_three in text
    cell = '<span class="mark">1</span> <span class="colour">●</span><span class="opponent">'
    assert f"{cell}{loser}</span>" in text
    # The result in the pairings as players write it, not "black".
    dash = "\N{EN DASH}"
    assert f'{winner} {dash} {loser}</a> <span class="muted">1{dash}0</span>' in text


def test_an_arenas_page_shows_score_sheets() -> None:
    found = tournament()
    ann, _bob = joined(found, "ann", "bob")
    [game] = services.advance(tournament_id=found.pk, now=START, seed=1)
    win(game, ann)
    text = Client().get(f"/tournaments/{found.pk}/").content.decode()
    assert "Score sheet" in text and "Performance" in text
    assert f'<a href="/games/{game.public_id}/" class="sheet-game">2</a>' in text
    assert f'<a href="/games/{game.public_id}/" class="sheet-game">0</a>' in text


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


async def heard_of(socket: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` on ``socket`` (others passed over)."""
    for _ in range(10):
        heard: dict[str, Any] = await socket.receive_json_from(timeout=TIMEOUT)
        if heard["type"] == kind:
            return heard
    raise AssertionError(f"no {kind}")


async def test_every_socket_of_a_paired_account_hears_game_ready_within_two_seconds() -> None:
    def made() -> Tournament:
        found = tournament("swiss", rounds=1)
        joined(found, "ann", "bob")
        account("cid")
        return found

    found = await database_sync_to_async(made)()
    async with (
        socket_of("ann", "/ws/lobby/?bell=1") as bell,
        socket_of("ann", f"/ws/lobby/?bell=1&tournament={found.pk}") as page,
        socket_of("cid", "/ws/lobby/?bell=1") as other,
    ):
        paired = asyncio.get_running_loop().time()
        [game] = await database_sync_to_async(services.advance)(tournament_id=found.pk, now=START)
        for socket in (bell, page):
            heard = await heard_of(socket, "game_ready")
            assert heard == {"type": "game_ready", "game": game.public_id, "tournament": found.pk}
        assert asyncio.get_running_loop().time() - paired < 2
        assert await other.receive_nothing(timeout=0.3)


async def test_the_tournaments_chat_on_its_pages_socket() -> None:
    def made() -> Tournament:
        found = tournament("swiss")
        joined(found, "ann")
        account("stranger")
        return found

    found = await database_sync_to_async(made)()
    path = f"/ws/lobby/?bell=1&tournament={found.pk}"
    async with socket_of("ann", path) as ann, socket_of("stranger", path) as stranger:
        await ann.send_json_to({"type": "chat", "text": "hello all"})
        for socket in (ann, stranger):
            said = await heard_of(socket, "chat")
            assert (said["username"], said["text"]) == ("ann", "hello all")
        await stranger.send_json_to({"type": "chat", "text": "let me in"})
        refused = await heard_of(stranger, "error")
        assert refused["code"] == "not_a_player"
        await ann.send_json_to({"type": "chat", "text": "x" * 301})
        assert (await heard_of(ann, "error"))["field"] == "text"
        # The game chat's limit: 5 lines said within 10 s (the one refused above not counted).
        for n in range(4):
            await ann.send_json_to({"type": "chat", "text": f"line {n}"})
            await heard_of(ann, "chat")
        await ann.send_json_to({"type": "chat", "text": "one too many"})
        assert (await heard_of(ann, "error"))["code"] == "rate_limited"
    chat = await database_sync_to_async(lambda: services.selectors.chat(found))()
    assert [line["text"] for line in chat] == ["hello all", "line 0", "line 1", "line 2", "line 3"]
    # A socket that follows no tournament has no chat.
    async with socket_of("ann", "/ws/lobby/?bell=1") as bell:
        await bell.send_json_to({"type": "chat", "text": "hello"})
        assert (await heard_of(bell, "error"))["code"] == "bad_request"
