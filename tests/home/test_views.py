"""home.views: the home page gathers the games waiting for your move (first), the pools,
the create form and the lobby."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.players import Player
from gamerules.clock import TimeControl
from games.services import lobby

pytestmark = pytest.mark.django_db


def test_the_home_page_shows_the_pools_the_form_and_the_lobby() -> None:
    page = Client().get("/").content.decode()

    assert 'id="pools"' in page
    assert "js/pairing.js" in page
    assert 'id="new-game-form"' in page and "js/new_game.js" in page
    assert 'id="open-games"' in page and 'id="lobby-mine"' in page


def test_rated_pools_are_offered_to_accounts_only() -> None:
    logged_in = Client()
    logged_in.force_login(User.objects.create_user("ann"))

    assert 'id="seek-rated"' in logged_in.get("/").content.decode()
    assert 'id="seek-rated"' not in Client().get("/").content.decode()


def test_the_form_is_filled_from_the_query() -> None:
    """ "New game with these settings" links here with the game's fields."""
    page = Client().get("/?kind=go&size=13&komi=0.5")

    assert page.context["form"].initial["size"] == "13"
    assert page.context["form"].initial["komi"] == "0.5"


def test_a_refused_form_comes_back_alone_with_its_reasons() -> None:
    page = Client().post("/games/new/", {"kind": "go", "size": 8, "name": "Ann"})

    assert page.status_code == 400
    assert page.context["form"].errors["size"]
    assert 'id="new-game-form"' in page.content.decode() and 'id="pools"' not in (
        page.content.decode()
    )


def test_a_profile_page_gathers_the_players_profile_and_the_challenge_button() -> None:
    User.objects.create_user("bob")
    alice = Client()
    alice.force_login(User.objects.create_user("alice"))

    page = alice.get("/players/bob/")
    text = page.content.decode()
    assert page.status_code == 200
    assert 'id="profile-heading"' in text and 'id="follow-button"' in text  # the players'
    assert 'action="/players/bob/challenge/"' in text  # the challenges'
    assert alice.get("/players/nobody/").status_code == 404


def test_the_games_waiting_for_your_move_come_first_with_the_time_left() -> None:
    ann, bob = User.objects.create_user("ann"), User.objects.create_user("bob")
    ann_player = Player(session_key="a", user_id=ann.pk, username="ann")
    bob_player = Player(session_key="b", user_id=bob.pk, username="bob")
    three_days = TimeControl.correspondence(days=3)
    by_post = lobby.create_game(
        player=ann_player,
        new=lobby.NewGame(kind="othello", size=8, color="black", name="", time_control=three_days),
    )
    lobby.join_game(player=bob_player, game_id=by_post.public_id, name="")
    theirs = lobby.create_game(
        player=bob_player,
        new=lobby.NewGame(kind="go", size=9, color="black", name="", time_control=three_days),
    )
    lobby.join_game(player=ann_player, game_id=theirs.public_id, name="")
    browser = Client()
    browser.force_login(ann)

    page = browser.get("/").content.decode()

    first, _, rest = page.partition('id="pairing"')
    assert 'id="your-move"' in first and 'id="your-move"' not in rest
    top = first.split('id="your-move"', 1)[1]
    assert f'href="/games/{by_post.public_id}/"' in top  # her move: first
    assert "Othello 8\N{MULTIPLICATION SIGN}8 against bob" in top
    assert "2\xa0days, 23\xa0hours left" in top
    assert theirs.public_id not in top  # Bob's move: only among her games, below
    assert f'href="/games/{theirs.public_id}/"' in rest


def test_nothing_waits_for_a_visitor_without_games() -> None:
    page = Client().get("/").content.decode()
    assert '<section class="card lobby-your-move" id="your-move" aria-labelledby' in page
    assert 'aria-labelledby="your-move-heading" hidden>' in page
