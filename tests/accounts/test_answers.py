"""Every route a page's form posts to answers a page (the site's page with the error in
words, or a redirect back saying why), never a page of raw JSON; a request that asks for
JSON (``Accept: application/json``) or sends it gets the contract's ``{"error", "message",
"field"}``. And a block stays unrevealed in words that read as a refusal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts import services as relations
from accounts.players import Player
from games.models import Game
from games.services import play
from tests.tournaments.helpers import tournament

pytestmark = pytest.mark.django_db

JSON_PLEASE = {"HTTP_ACCEPT": "application/json"}
REFUSED = "You cannot challenge or follow this player."


def person(name: str) -> Client:
    client = Client()
    found = User.objects.filter(username=name).first()
    client.force_login(found or User.objects.create_user(name, password="pw-12345678"))
    return client


def user(name: str) -> User:
    return User.objects.get(username=name)


def main(page: str) -> str:
    return page.split("<main")[1].split("</main>")[0]


def blocked_follow() -> tuple[Client, str, dict[str, Any]]:
    ann, _ = person("ann"), person("bob")
    relations.block(blocker_id=user("bob").pk, blocked_id=user("ann").pk)
    return ann, "/players/bob/follow/", {}


def unknown_unfollow() -> tuple[Client, str, dict[str, Any]]:
    return person("ann"), "/players/nobody/unfollow/", {}


def own_block() -> tuple[Client, str, dict[str, Any]]:
    return person("ann"), "/players/ann/block/", {}


def declined_twice() -> tuple[Client, str, dict[str, Any]]:
    alice, bob = person("alice"), person("bob")
    made = alice.post("/players/bob/challenge/", {"kind": "othello", "size": 8})
    path = f"{made.url}decline/"
    bob.post(path)
    return bob, path, {"reason": "later"}


def notification_ids() -> tuple[Client, str, dict[str, Any]]:
    return person("ann"), "/notifications/read/", {"ids": "1,x"}


def swiss_paused() -> tuple[Client, str, dict[str, Any]]:
    found = tournament("swiss")
    return person("ann"), f"/tournaments/{found.pk}/pause/", {}


def analysis_of_a_game_in_play() -> tuple[Client, str, dict[str, Any]]:
    browser = Client()
    made = browser.post("/games/new/", {"kind": "othello", "size": 8, "name": "Ann"})
    return browser, f"{made.url}analysis/", {}


REFUSALS: dict[str, tuple[Callable[[], tuple[Client, str, dict[str, Any]]], int, str]] = {
    "follow a blocker": (blocked_follow, 400, REFUSED),
    "unfollow nobody": (unknown_unfollow, 400, "No such player."),
    "block oneself": (own_block, 400, "You cannot block yourself."),
    "decline twice": (declined_twice, 400, "This challenge was already answered."),
    "mark read": (notification_ids, 400, "Ids: notification ids, or all=1."),
    "pause a Swiss": (swiss_paused, 302, "Only an arena can be paused."),
    "review a game in play": (analysis_of_a_game_in_play, 302, "only a finished game is analysed"),
}


@pytest.mark.parametrize("route", list(REFUSALS))
def test_a_pages_form_refused_gets_a_page_saying_why(route: str) -> None:
    make, status, words = REFUSALS[route]
    browser, path, fields = make()
    answer = browser.post(path, fields, follow=status == 302)
    if status == 302:
        [(back, code)] = answer.redirect_chain
        assert code == 302 and back != path
    else:
        assert answer.status_code == status
    assert answer["Content-Type"].startswith("text/html")
    assert words in answer.content.decode()
    assert '{"error"' not in answer.content.decode()


@pytest.mark.parametrize("route", list(REFUSALS))
def test_a_request_asking_for_json_gets_the_contracts_refusal(route: str) -> None:
    make, _, _ = REFUSALS[route]
    browser, path, fields = make()
    answer = browser.post(path, fields, **JSON_PLEASE)
    assert 400 <= answer.status_code < 500
    assert answer["Content-Type"] == "application/json"
    assert "error" in answer.json()


def test_a_json_body_is_answered_in_json() -> None:
    browser, path, _ = blocked_follow()
    answer = browser.post(path, "{}", content_type="application/json")
    assert answer.status_code == 400
    assert answer.json() == {
        "error": "bad_request",
        "message": "you cannot challenge or follow this player",
    }


def test_a_blocker_and_a_name_that_is_no_account_get_the_same_refusal() -> None:
    ann, path, _ = blocked_follow()
    blocker = ann.post(path)
    nobody = ann.post("/players/nobody/follow/")
    assert blocker.status_code == nobody.status_code == 400
    page = blocker.content.decode()
    assert main(page) == main(nobody.content.decode())  # the header's tokens aside
    assert REFUSED in page and "no such player" not in page.lower()
    # The profile still offers Follow: the block is not revealed there either.
    profile = ann.get("/players/bob/").content.decode()
    assert 'action="/players/bob/follow/"' in profile


def test_a_challenge_refused_alike_reads_as_a_refusal() -> None:
    ann, _, _ = blocked_follow()
    fields = {"kind": "othello", "size": 8}
    blocker = ann.post("/players/bob/challenge/", fields).content.decode()
    nobody = ann.post("/players/nobody/challenge/", fields).content.decode()
    assert "you cannot challenge or follow this player" in blocker
    assert "you cannot challenge or follow this player" in nobody
    assert "no such player" not in blocker + nobody


def test_a_visitor_not_logged_in_is_sent_to_log_in_or_told_in_json() -> None:
    for path in ("/players/bob/follow/", "/notifications/read/", "/tournaments/1/join/"):
        page = Client().post(path, {"all": "1"})
        assert page.status_code == 302 and "/login/" in page.url
        script = Client().post(path, {"all": "1"}, **JSON_PLEASE)
        assert script.status_code == 401 and script.json()["error"] == "login_required"


def test_the_replay_pages_review_form_comes_back_to_the_replay() -> None:
    browser = Client()
    made = browser.post("/games/new/", {"kind": "othello", "size": 4, "name": "Ann"})
    Client().post(f"{made.url}join/", {"name": "Bob"})
    game = Game.objects.get()
    ann = Player(session_key=browser.cookies["sessionid"].value)
    play.resign(player=ann, game_id=game.public_id)
    asked = browser.post(f"{made.url}analysis/")
    assert asked.status_code == 302 and asked.url == f"/games/{game.public_id}/replay/"
    script = browser.post(f"{made.url}analysis/", **JSON_PLEASE)
    assert script.json() == {"status": "queued"}
