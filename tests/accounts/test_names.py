"""One name per player (docs/api/README.md): an account's seat is named by its
username whatever a form says, and a guest cannot sit down under an account's name; nor
under one that looks like it, nor hold an invisible
or control character in a name (accounts.names)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts import names
from accounts.models import Account
from accounts.players import Player
from games.models import ChatMessage, Game
from games.services import lobby, table
from games.services.errors import GameError
from tests.live.test_views import PASSWORD, create, state

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
        lobby.create_game(
            player=Player(session_key="g"),
            new=lobby.NewGame(kind="go", size=9, color="black", name="BOB_w"),
        )

    assert (refused.value.code, refused.value.field) == ("name_taken", "name")


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
    game = lobby.create_game(
        player=Player(session_key="g"),
        new=lobby.NewGame(kind="othello", size=8, color="black", name="Gil"),
    )

    said = table.say(
        player=Player(session_key="s", user_id=alice.pk, username="alice"),
        game_id=game.public_id,
        name="alice",
        text="good luck",
    )

    assert ChatMessage.objects.get(pk=said.pk).name == "alice"


def test_a_renamed_account_takes_its_seats_along(client: Any) -> None:
    carol = User.objects.create_user("carol")
    game = lobby.create_game(
        player=Player(user_id=carol.pk),
        new=lobby.NewGame(kind="othello", size=8, color="white", name="x"),
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


# Look-alike names (accounts.names): a table of what a guest types, with an account
# "alice" made first. None: the name is free; else the refusal's code.

CYRILLIC_A = "\u0430"
FULL_WIDTH = "\uff41\uff4c\uff49\uff43\uff45"
LOOK_ALIKES = [
    ("alice", "name_taken"),
    ("ALICE", "name_taken"),
    (f"{CYRILLIC_A}lice", "name_taken"),
    (FULL_WIDTH, "name_taken"),
    ("a1ice", "name_taken"),  # TR39: "1" looks like "l"
    ("  Alice ", "name_taken"),
    ("alice\u200b", "bad_request"),  # a zero-width space
    ("al\u00adice", "bad_request"),  # a soft hyphen
    ("\u202eecila", "bad_request"),  # a right-to-left override: shown as "alice"
    ("\u2066alice\u2069", "bad_request"),  # an isolate and its end
    ("\ufeffalice", "bad_request"),  # a zero-width no-break space
    ("alice\r\nBcc: eve@example.com", "bad_request"),
    ("alice\n", "bad_request"),
    ("\u200b", "bad_request"),  # refused as invisible, not as blank
    ("ali\x00ce", "bad_request"),
    ("alice\u2028", "bad_request"),  # a line separator
    ("alicia", None),  # similar, not confusable
    ("malice", None),
    ("Alice Liddell", None),
    ("al ice", None),
    ("ali\u0107e", None),  # "alice" with an acute accent: a letter of its own
]


@pytest.mark.parametrize(("typed", "refused"), LOOK_ALIKES)
def test_a_guest_name_that_looks_like_an_account_or_hides_a_character_is_refused(
    typed: str, refused: str | None
) -> None:
    User.objects.create_user("alice")
    guest = Player(session_key="g")

    if refused is None:
        game = lobby.create_game(
            player=guest, new=lobby.NewGame(kind="go", size=9, color="black", name=typed)
        )
        assert game.black_name == typed.strip()
        return
    with pytest.raises(GameError) as error:
        lobby.create_game(
            player=guest, new=lobby.NewGame(kind="go", size=9, color="black", name=typed)
        )
    assert (error.value.code, error.value.field) == (refused, "name")
    assert not Game.objects.exists()


def test_the_look_alikes_are_one_skeleton_and_the_others_are_not() -> None:
    taken = [typed.strip() for typed, refused in LOOK_ALIKES if refused == "name_taken"]
    free = [typed for typed, refused in LOOK_ALIKES if refused is None]

    assert {names.skeleton(typed) for typed in taken} == {"alice"}
    assert "alice" not in {names.skeleton(typed) for typed in free}
    # Refused anyway, but one name with "alice" all the same (docs/api/README.md).
    assert names.skeleton("alice\u200b") == names.skeleton("al\u00adice") == "alice"


def test_a_name_in_full_width_letters_is_seated_in_plain_ones() -> None:
    game = lobby.create_game(
        player=Player(session_key="g"),
        new=lobby.NewGame(kind="go", size=9, color="black", name="\uff22\uff4f"),
    )

    assert game.black_name == "Bo"


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        (f"{CYRILLIC_A}lice", "looks too much like alice, an account's name"),
        ("ALICE", "belongs to an account: log in to play as ALICE"),
        ("alice\u200b", "may not hold U+200B (ZERO WIDTH SPACE)"),
        ("ali\r\nce", "may not hold U+000D"),
    ],
)
def test_a_guest_creating_or_joining_under_such_a_name_gets_400_naming_it(
    typed: str, said: str
) -> None:
    User.objects.create_user("alice")
    creator = Client()
    response = creator.post("/games/new/", {"kind": "othello", "size": 8, "name": typed})

    assert response.status_code == 400
    assert said in " ".join(response.context["form"].errors["name"])
    assert not Game.objects.exists()
    assert creator.session.get("player_name") is None, "a refused name is not remembered"

    game_id = create(Client(), name="Carl")
    joining = Client().post(f"/games/{game_id}/join/", {"name": typed})

    assert joining.status_code == 400
    assert said in " ".join(joining.context["join_form"].errors["name"])
    game = Game.objects.get(public_id=game_id)
    assert (game.status, game.white_name, game.white_session_key) == ("waiting", "", "")


def test_joining_refuses_a_look_alike_with_name_taken() -> None:
    User.objects.create_user("alice")
    game = lobby.create_game(
        player=Player(session_key="c"),
        new=lobby.NewGame(kind="go", size=9, color="black", name="Carl"),
    )

    with pytest.raises(GameError) as refused:
        lobby.join_game(
            player=Player(session_key="g"), game_id=game.public_id, name=f"{CYRILLIC_A}LICE"
        )

    assert (refused.value.code, refused.value.field) == ("name_taken", "name")


def test_an_account_keeps_its_skeleton_as_its_username_changes() -> None:
    alice = User.objects.create_user("alice")
    guest = Player(session_key="g")

    alice.username = "Carol"
    alice.save()

    assert Account.objects.get(user=alice).skeleton == "carol"
    with pytest.raises(GameError):
        lobby.create_game(
            player=guest, new=lobby.NewGame(kind="go", size=9, color="black", name="caro1")
        )
    game = lobby.create_game(
        player=guest, new=lobby.NewGame(kind="go", size=9, color="black", name="alice")
    )
    assert game.black_name == "alice"


def test_a_name_remembered_before_the_rules_is_not_used_again() -> None:
    """A guest's session may hold a name given before control characters were refused:
    its next seat is "Guest", never that name."""
    guest = Client()
    create(guest, name="Dana")
    session = guest.session
    session["player_name"] = "Dana\u202e"
    session.save()

    assert guest.get("/").context["form"].initial["name"] == ""
    assert state(guest, create(guest, name=""))["players"]["black"] == "Guest"


@pytest.mark.parametrize(
    ("username", "said"),
    [
        (f"{CYRILLIC_A}lice", "looks too much like alice, an account&#x27;s name"),
        ("a1ice", "looks too much like alice, an account&#x27;s name"),
        ("ALICE", "A user with that username already exists."),
        (FULL_WIDTH, "looks too much like alice, an account&#x27;s name"),
        ("Gu\u0435st", "the name of every guest"),  # a Cyrillic e
    ],
)
def test_nobody_signs_up_under_a_name_that_looks_like_an_accounts(username: str, said: str) -> None:
    User.objects.create_user("alice")

    response = Client().post(
        "/accounts/signup/",
        {
            "username": username,
            "email": "x@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 400
    assert said in response.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]


def test_a_name_merely_similar_signs_up() -> None:
    User.objects.create_user("alice")

    response = Client().post(
        "/accounts/signup/",
        {
            "username": "alicia",
            "email": "x@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 302
    assert Account.objects.get(user__username="alicia").skeleton == "alicia"
