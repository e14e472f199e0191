"""home.views: the home page gathers the pools, the create form and the lobby."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

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
