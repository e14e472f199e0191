"""games.views: the lobby, create and join, the game page, state.json and accounts."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.players import Player
from gamerules import go
from games.models import Game
from games.services import play, presence
from live import state as states

pytestmark = pytest.mark.django_db

PASSWORD = "a long pass phrase"


def create(browser: Client, **fields: Any) -> str:
    """POST /games/new/ and return the new game's id (from the 302 to its page)."""
    data = {"kind": "othello", "size": 8, "color": "black", "name": "Ann", **fields}
    response = browser.post("/games/new/", data)
    assert response.status_code == 302, response.content.decode()
    game_id = response.url.strip("/").split("/")[-1]
    assert response.url == f"/games/{game_id}/"
    return game_id


def state(browser: Client, game_id: str) -> dict[str, Any]:
    response = browser.get(f"/games/{game_id}/state.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    result: dict[str, Any] = response.json()
    return result


def player(browser: Client) -> Player:
    return Player(session_key=browser.cookies["sessionid"].value)


# Creating a game


def test_creating_a_game_seats_the_creator_and_redirects_to_it() -> None:
    ann = Client()
    game_id = create(ann, kind="othello", size=6, color="white", name="Ann")

    seen = state(ann, game_id)
    assert (seen["id"], seen["kind"], seen["size"], seen["status"]) == (
        game_id,
        "othello",
        6,
        "waiting",
    )
    assert seen["players"] == {"black": None, "white": "Ann"}
    assert seen["you"] == "white"
    assert len(seen["board"]) == 6


def test_go_defaults_to_19x19_komi_65_and_territory() -> None:
    ann = Client()
    game_id = create(ann, kind="go", size="", color="black", komi="", scoring="")

    seen = state(ann, game_id)
    assert (seen["kind"], seen["size"], seen["komi"], seen["scoring_method"]) == (
        "go",
        19,
        6.5,
        "territory",
    )


def test_go_options_are_kept() -> None:
    game_id = create(Client(), kind="go", size=9, komi="0.5", scoring="area")

    game = Game.objects.get(public_id=game_id)
    assert (game.size, game.komi, game.scoring_method) == (9, 0.5, "area")


def test_othello_defaults_to_8x8_and_ignores_go_options() -> None:
    game_id = create(Client(), kind="othello", size="", komi="3", scoring="area")

    game = Game.objects.get(public_id=game_id)
    assert (game.size, game.komi, game.scoring_method) == (8, None, "")


def test_a_random_colour_seats_the_creator_somewhere() -> None:
    ann = Client()
    game_id = create(ann, color="random")

    seen = state(ann, game_id)
    assert seen["you"] in ("black", "white")
    assert seen["players"][seen["you"]] == "Ann"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        pytest.param({"kind": "chess"}, "kind", id="unknown-kind"),
        pytest.param({"kind": ""}, "kind", id="no-kind"),
        pytest.param({"kind": "othello", "size": 7}, "size", id="othello-odd"),
        pytest.param({"kind": "othello", "size": 2}, "size", id="othello-too-small"),
        pytest.param({"kind": "othello", "size": 18}, "size", id="othello-too-big"),
        pytest.param({"kind": "go", "size": 8}, "size", id="go-even"),
        pytest.param({"kind": "go", "size": 1}, "size", id="go-too-small"),
        pytest.param({"kind": "go", "size": 21}, "size", id="go-too-big"),
        pytest.param({"size": "eight"}, "size", id="size-not-a-number"),
        pytest.param({"color": "purple"}, "color", id="unknown-colour"),
        pytest.param({"name": "x" * 41}, "name", id="name-too-long"),
        pytest.param({"kind": "go", "size": 9, "komi": "lots"}, "komi", id="komi-not-a-number"),
        pytest.param({"kind": "go", "size": 9, "komi": "6.3"}, "komi", id="komi-not-halves"),
        pytest.param({"kind": "go", "size": 9, "komi": "51"}, "komi", id="komi-too-big"),
        pytest.param({"kind": "go", "size": 9, "komi": "nan"}, "komi", id="komi-nan"),
        pytest.param({"kind": "go", "size": 9, "scoring": "stones"}, "scoring", id="scoring"),
        pytest.param({"clock": "sundial"}, "clock", id="unknown-clock"),
        pytest.param({"clock": "fischer", "main_time": 300}, "increment", id="fischer-no-inc"),
        pytest.param({"clock": "absolute"}, "main_time", id="absolute-no-time"),
        pytest.param({"clock": "absolute", "main_time": "1.5"}, "main_time", id="time-float"),
        pytest.param({"clock": "absolute", "main_time": 0}, "main_time", id="no-main-time"),
        pytest.param(
            {"clock": "byoyomi", "main_time": 60, "periods": 0, "period_time": 30},
            "periods",
            id="byoyomi-no-periods",
        ),
        pytest.param(
            {"clock": "canadian", "main_time": 60, "stones": 10}, "period_time", id="canadian"
        ),
        pytest.param({"clock": "correspondence", "days": 31}, "days", id="days-too-many"),
        pytest.param({"kind": "othello", "handicap": 2}, "handicap", id="othello-handicap"),
        pytest.param({"kind": "go", "size": 9, "handicap": 6}, "handicap", id="go9-handicap-6"),
        pytest.param({"kind": "go", "size": 19, "handicap": 1}, "handicap", id="handicap-1"),
        pytest.param({"kind": "go", "size": 19, "handicap": 10}, "handicap", id="handicap-10"),
        pytest.param({"kind": "go", "size": 7, "handicap": 5}, "handicap", id="go7-handicap-5"),
        pytest.param({"kind": "go", "size": 5, "handicap": 2}, "handicap", id="go5-handicap"),
        pytest.param({"kind": "go", "size": 9, "handicap": "two"}, "handicap", id="handicap-word"),
    ],
)
def test_bad_input_is_400_with_the_form_errors_and_stores_nothing(
    fields: dict[str, Any], field: str
) -> None:
    data = {"kind": "othello", "size": 8, "color": "black", "name": "Ann", **fields}
    response = Client().post("/games/new/", data)

    assert response.status_code == 400
    form = response.context["form"]
    assert field in form.errors
    assert form.errors[field][0] in response.content.decode()
    assert 'id="new-game-form"' in response.content.decode()
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("fields", "words", "main_time"),
    [
        ({"clock": "fischer", "main_time": 300, "increment": 3}, "+3 s per move (Fischer)", 300),
        ({"clock": "byoyomi", "main_time": 600, "periods": 5, "period_time": 30}, "5 x 30 s", 600),
        # A setting the system does not use is dropped.
        ({"clock": "correspondence", "days": 3, "main_time": 9}, "3 days a move", None),
    ],
)
def test_a_game_is_created_with_its_clock(
    fields: dict[str, Any], words: str, main_time: int | None
) -> None:
    ann = Client()
    game_id = create(ann, **fields)

    clock = state(ann, game_id)["clock"]
    assert (clock["system"], clock["running"], clock["main_time"]) == (
        fields["clock"],
        None,
        main_time,
    )
    assert words in ann.get(f"/games/{game_id}/").content.decode()


@pytest.mark.parametrize("fields", [{}, {"clock": "none", "main_time": 300}])
def test_without_a_clock_a_game_has_none(fields: dict[str, Any]) -> None:
    ann = Client()
    game_id = create(ann, **fields)
    assert state(ann, game_id)["clock"] is None
    assert "No clock" in ann.get(f"/games/{game_id}/").content.decode()


@pytest.mark.parametrize(
    ("size", "handicap"),
    [(7, 4), (9, 2), (9, 5), (11, 9), (13, 2), (13, 9), (15, 7), (17, 8), (19, 3), (19, 9)],
)
def test_a_handicap_game_starts_with_the_black_stones_and_white_to_move(
    size: int, handicap: int
) -> None:
    ann = Client()
    game_id = create(ann, kind="go", size=size, color="black", handicap=handicap)
    create(Client(), kind="othello")  # another game, not joined
    bob = Client()
    bob.post(f"/games/{game_id}/join/", {"name": "Bob"})

    seen = state(ann, game_id)
    stones = {
        (r, c) for r, line in enumerate(seen["board"]) for c, s in enumerate(line) if s == "B"
    }
    assert stones == set(go.handicap_points(size, handicap))
    assert "W" not in "".join(seen["board"])
    assert (seen["handicap"], seen["komi"], seen["to_move"], seen["ply"]) == (
        handicap,
        0.5,
        "white",
        0,
    )


def test_a_handicap_game_keeps_the_komi_given() -> None:
    game_id = create(Client(), kind="go", size=9, handicap=2, komi="5.5")
    assert Game.objects.get(public_id=game_id).komi == 5.5


@pytest.mark.parametrize(
    "fields", [{"kind": "go", "size": 9}, {"kind": "go", "size": 9, "handicap": 0}, {}]
)
def test_without_a_handicap_black_moves_first_on_an_empty_board(fields: dict[str, Any]) -> None:
    ann = Client()
    game_id = create(ann, **fields)
    seen = state(ann, game_id)
    assert seen["handicap"] == (0 if seen["kind"] == "go" else None)
    assert Game.objects.get(public_id=game_id).start is None


def test_new_game_is_post_only() -> None:
    assert Client().get("/games/new/").status_code == 405


def test_the_name_given_is_remembered_for_next_time() -> None:
    ann = Client()
    create(ann, name="Ann")

    home = ann.get("/")
    assert home.context["form"]["name"].value() == "Ann"
    assert 'value="Ann"' in home.content.decode()
    game_id = create(ann, name="")
    assert state(ann, game_id)["players"]["black"] == "Ann"


def test_a_guest_who_never_gave_a_name_is_seated_as_guest() -> None:
    ann = Client()
    game_id = create(ann, name="")
    assert state(ann, game_id)["players"]["black"] == "Guest"


# Joining and watching


def test_joining_takes_the_free_seat() -> None:
    ann, bob = Client(), Client()
    game_id = create(ann, color="black")

    response = bob.post(f"/games/{game_id}/join/", {"name": "Bob"})
    assert response.status_code == 302
    assert response.url == f"/games/{game_id}/"
    seen = state(bob, game_id)
    assert (seen["you"], seen["status"], seen["to_move"]) == ("white", "active", "black")
    assert seen["players"] == {"black": "Ann", "white": "Bob"}
    assert state(ann, game_id)["you"] == "black"


def test_joining_a_full_game_watches_it() -> None:
    ann, bob, cy = Client(), Client(), Client()
    game_id = create(ann)
    bob.post(f"/games/{game_id}/join/", {"name": "Bob"})

    response = cy.post(f"/games/{game_id}/join/", {"name": "Cy"})
    assert response.status_code == 302
    assert response.url == f"/games/{game_id}/"
    seen = state(cy, game_id)
    assert seen["you"] is None
    assert seen["players"] == {"black": "Ann", "white": "Bob"}
    # ... and says so: Cy clicked Join on a row whose seat was just taken.
    page = cy.get(response.url).content.decode()
    assert "This seat was just taken: you are watching the game." in page
    assert "just taken" not in bob.get(response.url).content.decode()


def test_a_client_that_checks_csrf_can_create_and_join_after_reading_a_page() -> None:
    ann, bob, cy = (Client(enforce_csrf_checks=True) for _ in range(3))
    assert ann.post("/games/new/", {"kind": "go", "size": 9}).status_code == 403

    ann.get("/")
    response = ann.post(
        "/games/new/",
        {
            "kind": "go",
            "size": 9,
            "name": "Ann",
            "csrfmiddlewaretoken": ann.cookies["csrftoken"].value,
        },
    )
    assert response.status_code == 302
    for browser, name in ((bob, "Bob"), (cy, "Cy")):
        browser.get(response.url)
        token = browser.cookies["csrftoken"].value
        joined = browser.post(f"{response.url}join/", {"name": name, "csrfmiddlewaretoken": token})
        assert (joined.status_code, joined.url) == (302, response.url)
    assert state(bob, response.url.strip("/").split("/")[-1])["you"] is not None


def test_the_creator_joining_their_own_game_changes_nothing() -> None:
    ann = Client()
    game_id = create(ann)
    ann.post(f"/games/{game_id}/join/", {"name": "Ann again"})

    seen = state(ann, game_id)
    assert (seen["status"], seen["players"]) == ("waiting", {"black": "Ann", "white": None})


def test_joining_with_a_name_too_long_is_400_and_takes_no_seat() -> None:
    game_id = create(Client())
    response = Client().post(f"/games/{game_id}/join/", {"name": "x" * 41})

    assert response.status_code == 400
    assert response.context["join_form"].errors["name"]
    assert Game.objects.get(public_id=game_id).status == "waiting"


# The game page and state.json


@pytest.mark.usefixtures("frozen_clock")  # G's away_ms is as of the moment it is built
def test_the_game_page_offers_the_free_seat_to_a_visitor_only() -> None:
    ann, bob = Client(), Client()
    game_id = create(ann)

    visitor_page = bob.get(f"/games/{game_id}/")
    assert visitor_page.status_code == 200
    assert visitor_page.context["game"].public_id == game_id
    assert visitor_page.context["state"] == state(bob, game_id)
    assert visitor_page.context["join_form"] is not None
    assert f'action="/games/{game_id}/join/"' in visitor_page.content.decode()
    assert 'id="game-state"' in visitor_page.content.decode()

    creator_page = ann.get(f"/games/{game_id}/")
    assert "join_form" not in creator_page.context
    assert creator_page.context["state"]["you"] == "black"

    bob.post(f"/games/{game_id}/join/", {"name": "Bob"})
    assert "join_form" not in Client().get(f"/games/{game_id}/").context


# Calling off a game nobody joined


def test_the_creator_calls_off_a_waiting_game_and_it_leaves_the_lobby() -> None:
    ann = Client()
    game_id = create(ann)
    assert (
        'action="/games/' + game_id + '/abort/"' in ann.get(f"/games/{game_id}/").content.decode()
    )

    response = ann.post(f"/games/{game_id}/abort/")
    assert (response.status_code, response.url) == (302, "/")
    assert state(ann, game_id)["status"] == "aborted"
    assert Client().post(f"/games/{game_id}/join/", {"name": "Bob"}).status_code == 302
    assert state(ann, game_id)["players"]["white"] is None
    assert game_id not in Client().get("/").content.decode()


@pytest.mark.parametrize("who", ["a visitor", "the creator once the game started"])
def test_only_the_creator_calls_off_only_a_waiting_game(who: str) -> None:
    ann, bob = Client(), Client()
    game_id = create(ann)
    if who == "a visitor":
        response = bob.post(f"/games/{game_id}/abort/")
        expected = "waiting"
    else:
        bob.post(f"/games/{game_id}/join/", {"name": "Bob"})
        response = ann.post(f"/games/{game_id}/abort/")
        expected = "active"
    assert response.status_code == 400
    assert response.content.decode()
    assert state(ann, game_id)["status"] == expected


@pytest.mark.usefixtures("frozen_clock")
def test_state_json_is_the_selectors_state_for_this_viewer() -> None:
    ann = Client()
    game_id = create(ann, kind="go", size=9)
    game = Game.objects.get(public_id=game_id)

    assert state(ann, game_id) == states.game_state(game, you="black")
    assert state(Client(), game_id) == states.game_state(game, you=None)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/games/nosuchgame123/"),
        ("get", "/games/nosuchgame123/state.json"),
        ("post", "/games/nosuchgame123/join/"),
        ("post", "/games/nosuchgame123/abort/"),
    ],
)
def test_an_unknown_game_is_404(method: str, path: str) -> None:
    create(Client())
    assert getattr(Client(), method)(path).status_code == 404


# The home page


def test_home_lists_open_games_your_games_and_finished_games() -> None:
    ann, bob, cy = Client(), Client(), Client()
    open_id = create(ann, kind="go", size=13, name="Ann")
    hidden_id = create(Client(), name="Dee")  # its creator never opened the game's page
    presence.connected(player=player(ann), game_id=open_id, process="p", channel_name="ann")
    finished_id = create(bob, name="Bob")
    cy.post(f"/games/{finished_id}/join/", {"name": "Cy"})
    play.resign(player=player(bob), game_id=finished_id)

    home = cy.get("/")
    assert home.status_code == 200
    # The lobby lists only the games whose creator is online.
    assert [game.public_id for game in home.context["open_games"]] == [open_id]
    page = home.content.decode()
    assert hidden_id not in page
    assert f'action="/games/{open_id}/join/"' in page
    assert 'value="Cy"' in page  # the join form is prefilled with Cy's name
    assert [game.public_id for game in home.context["finished_games"]] == [finished_id]
    assert 'White wins by resignation <span class="result-code muted">W+R</span>' in page
    assert list(home.context["my_games"]) == []

    own = ann.get("/")
    assert [game.public_id for game in own.context["my_games"]] == [open_id]
    # Your own open game is not offered to you to join.
    assert list(own.context["open_games"]) == []


def test_home_gives_a_visitor_a_session() -> None:
    """docs/api/README.md#who-you-are: every page gives a visitor a session, so
    that a guest's seek, seat and lobby socket share it."""
    browser = Client()
    response = browser.get("/")
    assert response.status_code == 200
    session_key = browser.cookies["sessionid"].value
    assert browser.get("/").status_code == 200
    assert browser.cookies["sessionid"].value == session_key
    assert response.context["form"]["kind"].value() == "othello"


# Accounts


def test_sign_up_log_in_and_see_my_games(django_user_model: Any) -> None:
    browser = Client()
    assert browser.get("/accounts/signup/").status_code == 200
    response = browser.post(
        "/accounts/signup/",
        {
            "username": "ann",
            "email": "ann@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    assert django_user_model.objects.filter(username="ann").exists()

    game_id = create(browser, name="")
    seen = state(browser, game_id)
    assert (seen["you"], seen["players"]["black"]) == ("black", "ann")

    browser.post("/accounts/logout/")
    assert browser.get("/accounts/games/").status_code == 302  # to the login page

    other_browser = Client()
    response = other_browser.post(
        "/accounts/login/", {"username": "ann", "password": PASSWORD}, follow=True
    )
    assert response.context["user"].is_authenticated
    mine = other_browser.get("/accounts/games/")
    assert mine.status_code == 200
    assert [game.public_id for game in mine.context["games"]] == [game_id]
    assert f"/games/{game_id}/" in mine.content.decode()
    # The seat follows the account into the new browser.
    assert state(other_browser, game_id)["you"] == "black"
    assert [game.public_id for game in other_browser.get("/").context["my_games"]] == [game_id]


def test_a_bad_sign_up_is_400_and_creates_no_account(django_user_model: Any) -> None:
    response = Client().post(
        "/accounts/signup/",
        {
            "username": "ann",
            "email": "ann@example.org",
            "password1": PASSWORD,
            "password2": "other",
        },
    )
    assert response.status_code == 400
    assert response.context["form"].errors["password2"]
    assert not django_user_model.objects.exists()


def test_the_login_page_renders() -> None:
    response = Client().get("/accounts/login/")
    assert response.status_code == 200
    assert 'name="password"' in response.content.decode()


# The home page's lobby


def test_the_home_page_lists_others_open_games_and_how_many_are_being_played() -> None:
    ann, bob, cy = Client(), Client(), Client()
    waiting = create(ann)
    # Open games are listed while their creator is online (a socket open on the game).
    presence.connected(player=player(ann), game_id=waiting, process="p", channel_name="ann")
    playing = create(bob, name="Bob")
    assert cy.post(f"/games/{playing}/join/", {"name": "Cy"}).status_code == 302
    assert "No games being played right now." in cy.get("/").content.decode()  # no move yet
    play.play(player=player(bob), game_id=playing, ply=0, point=[2, 3])

    seen_by_cy = cy.get("/")
    seen_by_ann = ann.get("/")

    assert [game.public_id for game in seen_by_cy.context["open_games"]] == [waiting]
    assert (
        '1 game being played right now: <a href="/games/?status=playing">watch it</a>.'
        in seen_by_cy.content.decode()
    )
    # The link lists the games it counts.
    watched = cy.get("/games/?status=playing")
    assert [game.public_id for game in watched.context["page"]] == [playing]
    # Ann's own open game is hers, not one to join; the live list (static/js/lobby.js)
    # leaves it out too.
    assert seen_by_ann.context["open_games"] == []
    assert seen_by_ann.context["lobby_mine"] == [waiting]
    assert f'<script id="lobby-mine" type="application/json">["{waiting}"]</script>' in (
        seen_by_ann.content.decode()
    )


def test_your_games_put_those_waiting_for_your_move_first_and_mark_them() -> None:
    ann, bob = Client(), Client()
    mine_to_play = create(ann)  # Ann is Black: her move once Bob joins
    bob.post(f"/games/{mine_to_play}/join/", {"name": "Bob"})
    theirs = create(bob, name="Bob")  # created later, Bob is Black: his move
    ann.post(f"/games/{theirs}/join/", {"name": "Ann"})

    response = ann.get("/")

    assert [game.public_id for game in response.context["my_games"]] == [mine_to_play, theirs]
    assert response.context["your_move"] == {mine_to_play}
    html = response.content.decode()
    assert html.count('<span class="your-move">Your move</span>') == 1
