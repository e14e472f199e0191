"""One name per player (DESIGN.md, fourth edition): an account's seat is named by its
username whatever a form says, and a guest cannot sit down under an account's name."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.players import Player
from games import services
from games.models import ChatMessage, Game
from games.services import GameError
from tests.games.views.test_game import PASSWORD, create, state

pytestmark = pytest.mark.django_db


def logged_in(username: str) -> Client:
    browser = Client()
    browser.force_login(User.objects.create_user(username, password=PASSWORD))
    return browser


def test_an_accounts_seat_is_its_username_whatever_it_posts() -> None:
    alice, bob = logged_in("alice"), logged_in("bob_w")
    game_id = create(alice, name="bob_w", color="black")
    joined = bob.post(f"/games/{game_id}/join/", {"name": "alice"})

    assert joined.status_code == 302
    seen = state(alice, game_id)
    assert seen["players"] == {"black": "alice", "white": "bob_w"}
    assert seen["accounts"] == {"black": "alice", "white": "bob_w"}
    assert (seen["you"], state(bob, game_id)["you"]) == ("black", "white")


def test_an_account_is_not_offered_a_name_field() -> None:
    page = logged_in("alice").get("/").content.decode()

    assert 'name="name"' not in page
    assert "You play as <strong>alice</strong>" in page
    assert 'name="name"' in Client().get("/").content.decode()


@pytest.mark.parametrize("typed", ["bob_w", "BOB_W", "  Bob_W "])
def test_a_guest_cannot_create_under_an_accounts_name(typed: str) -> None:
    User.objects.create_user("bob_w")
    guest = Client()

    response = guest.post("/games/new/", {"kind": "othello", "size": 8, "name": typed})

    assert response.status_code == 400
    assert response.context["form"].errors["name"] == [
        f"the name {typed.strip()} belongs to an account: log in to play as {typed.strip()}, "
        "or choose another name"
    ]
    assert not Game.objects.exists()
    assert guest.session.get("player_name") is None, "a refused name is not remembered"


@pytest.mark.parametrize("typed", ["bob_w", "Bob_W"])
def test_a_guest_cannot_join_under_an_accounts_name(typed: str) -> None:
    User.objects.create_user("bob_w")
    game_id = create(Client(), name="Carl")

    response = Client().post(f"/games/{game_id}/join/", {"name": typed})

    assert response.status_code == 400
    assert "belongs to an account" in " ".join(response.context["join_form"].errors["name"])
    game = Game.objects.get(public_id=game_id)
    assert (game.status, game.white_name, game.white_session_key) == ("waiting", "", "")


def test_the_services_refuse_it_too_naming_the_field() -> None:
    User.objects.create_user("bob_w")

    with pytest.raises(GameError) as refused:
        services.create_game(
            player=Player(session_key="g"), kind="go", size=9, color="black", name="BOB_w"
        )

    assert (refused.value.code, refused.value.field) == ("bad_request", "name")


def test_a_guests_name_taken_by_an_account_since_is_not_used_again() -> None:
    """A guest who played as "dana" before the account dana was made starts its next game
    as Guest (its form is prefilled so), never as dana."""
    guest = Client()
    create(guest, name="dana")
    User.objects.create_user("dana")

    page = guest.get("/")

    assert page.context["form"].initial["name"] == ""
    game_id = create(guest, name="")
    assert state(guest, game_id)["players"]["black"] == "Guest"


def test_the_chat_names_an_account_by_its_username() -> None:
    alice = User.objects.create_user("alice")
    game = services.create_game(
        player=Player(session_key="g"), kind="othello", size=8, color="black", name="Gil"
    )

    said = services.say(
        player=Player(session_key="s", user_id=alice.pk, username="alice"),
        game_id=game.public_id,
        name="alice",
        text="good luck",
    )

    assert ChatMessage.objects.get(pk=said.pk).name == "alice"


def test_a_renamed_account_takes_its_seats_along(client: Any) -> None:
    carol = User.objects.create_user("carol")
    game = services.create_game(
        player=Player(user_id=carol.pk), kind="othello", size=8, color="white", name="x"
    )

    carol.username = "caroline"
    carol.save()

    assert Game.objects.get(pk=game.pk).white_name == "caroline"
    assert state(Client(), game.public_id)["accounts"]["white"] == "caroline"


def test_nobody_signs_up_as_the_guests_name() -> None:
    response = Client().post(
        "/accounts/signup/", {"username": "guest", "password1": PASSWORD, "password2": PASSWORD}
    )

    assert response.status_code == 400
    assert "the name of every guest" in response.content.decode()
    assert not User.objects.exists()
