"""Following and blocking from a profile, the profile JSON's followers and following, the
home page's Following list, and the players' search (JSON and the header's form)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import Block, Follow
from accounts.services import make_bot
from tests.players.test_ratings import account, rated_game

pytestmark = pytest.mark.django_db


def person(name: str) -> Client:
    client = Client()
    found = User.objects.filter(username=name).first()
    client.force_login(found or User.objects.create_user(name, password="pw-12345678"))
    return client


def test_following_shows_on_the_profile_and_the_home_page_with_games_to_watch() -> None:
    ann, bob = account("ann"), account("bob")
    game = rated_game(ann, bob)  # being played
    carol = person("carol")
    person("dan")
    assert carol.post("/players/ann/follow/").url == "/players/ann/"
    carol.post("/players/ann/follow/")  # again: still one follow
    carol.post("/players/dan/follow/")
    assert Follow.objects.count() == 2
    assert Client().get("/players/ann.json").json()["followers"] == 1
    own = carol.get("/players/carol.json").json()
    assert own["following"] == [
        {"username": "ann", "online": False, "playing": [game.public_id]},
        {"username": "dan", "online": False, "playing": []},
    ]
    assert "following" not in carol.get("/players/ann.json").json()
    assert "following" not in Client().get("/players/carol.json").json()

    page = carol.get("/players/ann/").content.decode()
    assert "1 follower" in page and "Unfollow" in page
    home = carol.get("/").content.decode()
    assert 'id="following"' in home and f"/games/{game.public_id}/" in home
    assert 'id="following"' not in Client().get("/").content.decode()

    carol.post("/players/ann/unfollow/")
    assert [row["username"] for row in carol.get("/players/carol.json").json()["following"]] == [
        "dan"
    ]


def test_following_and_blocking_need_an_account_and_another_player() -> None:
    ann = person("ann")
    assert Client().post("/players/ann/follow/").status_code == 302  # to the login page
    assert "/login/" in Client().post("/players/ann/follow/").url
    assert ann.post("/players/ann/follow/").status_code == 400
    assert ann.post("/players/ann/block/").status_code == 400
    unknown = ann.post("/players/nobody/follow/", HTTP_ACCEPT="application/json")
    assert unknown.json()["error"] == "bad_request"
    assert ann.get("/players/ann/follow/").status_code == 405
    assert (Follow.objects.count(), Block.objects.count()) == (0, 0)


def test_a_block_ends_follows_both_ways_and_the_blocked_cannot_follow_again() -> None:
    ann, bob = person("ann"), person("bob")
    ann.post("/players/bob/follow/")
    bob.post("/players/ann/follow/")
    assert ann.post("/players/bob/block/").url == "/players/bob/"
    assert Follow.objects.count() == 0
    refused = bob.post("/players/ann/follow/", HTTP_ACCEPT="application/json")
    assert refused.status_code == 400
    # The block is not revealed: the words of a name that is no account.
    assert refused.json()["message"] == "you cannot challenge or follow this player"
    assert "Unblock" in ann.get("/players/bob/").content.decode()
    ann.post("/players/bob/unblock/")
    assert Block.objects.count() == 0
    assert bob.post("/players/ann/follow/").status_code == 302


def test_the_search_gives_up_to_10_names_by_prefix_in_any_case_bots_marked() -> None:
    for number in range(12):
        User.objects.create_user(f"Player{number:02d}")
    make_bot(user=User.objects.create_user("playbot"))
    User.objects.create_user("other")
    found = Client().get("/players/search.json?q=PLAY").json()["players"]
    assert len(found) == 10
    assert found[0] == {"username": "playbot", "bot": True}
    assert all(row["username"].lower().startswith("play") for row in found)
    assert {"username": "Player00", "bot": False} in found
    assert Client().get("/players/search.json?q=").json() == {"players": []}
    assert Client().get("/players/search.json?q=zzz").json() == {"players": []}


def test_the_header_search_form_opens_the_profile() -> None:
    User.objects.create_user("Bob")
    page = Client().get("/").content.decode()
    assert 'id="player-search"' in page and 'action="/players/search/"' in page
    assert Client().get("/players/search/?q=bob").url == "/players/Bob/"
    assert Client().get("/players/search/?q=B").url == "/players/Bob/"
    assert Client().get("/players/search/?q=nobody").status_code == 404
