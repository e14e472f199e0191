"""players.views and the rated fields of games.views: create and join over HTTP, the game
page's tag, profiles (page and JSON), leaderboards (page and JSON), the archive's filter,
the admin's lists and its "annul rating"."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.players import Player
from accounts.services import make_bot
from gamerules.clock import TimeControl
from games.models import Game
from games.services import lobby, play
from players import glicko2
from players.models import Rating, RatingChange
from tests.players.test_ratings import account, opening, rated_game

pytestmark = pytest.mark.django_db

PASSWORD = "a long pass phrase"
CLOCK = {"clock": "fischer", "main_time": 300, "increment": 3}


def logged_in(name: str) -> Client:
    User.objects.create_user(name, password=PASSWORD)
    browser = Client()
    assert browser.login(username=name, password=PASSWORD)
    return browser


def post_new(browser: Client, **fields: Any) -> Any:
    data = {"kind": "othello", "size": 8, "color": "black", "name": "Ann", **fields}
    return browser.post("/games/new/", data)


# Create and join


def test_a_logged_in_player_creates_a_rated_game() -> None:
    ann = logged_in("ann")
    response = post_new(ann, rated="1", **CLOCK)
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.rated
    page = ann.get(response.url).content.decode()
    assert 'id="rated-tag">Rated<' in page
    # The "?" of a provisional rating by a seat (js/game/panel.js copies it) explains itself.
    assert re.search(
        r'<template id="provisional-mark"><a class="rating-help" '
        r'href="/help/ratings/#provisional" title="Provisional rating[^"]+">\?</a></template>',
        page,
    )
    state = ann.get(f"{response.url}state.json").json()
    assert state["rated"] is True and state["ratings"]["category"] == "othello8-blitz"


@pytest.mark.parametrize(
    ("who", "fields"),
    [
        ("guest", CLOCK),
        ("account", {}),  # no clock
        ("account", {**CLOCK, "opponent": "computer", "level": 3}),
    ],
)
def test_a_rated_game_refused_is_a_400_naming_rated(who: str, fields: dict[str, Any]) -> None:
    browser = Client() if who == "guest" else logged_in("ann")
    response = post_new(browser, rated="1", **fields)
    assert response.status_code == 400
    assert "rated" in response.content.decode()
    assert not Game.objects.exists()


def test_casual_is_the_default_and_says_so() -> None:
    ann = Client()
    response = post_new(ann, **CLOCK)
    assert not Game.objects.get().rated
    assert 'id="rated-tag">Casual<' in ann.get(response.url).content.decode()


def test_a_guest_joining_a_rated_game_is_told_to_log_in_and_watches() -> None:
    ann = logged_in("ann")
    url = post_new(ann, rated="1", **CLOCK).url
    guest = Client()
    response = guest.post(f"{url}join/", {"name": "Guest"})
    assert response.status_code == 400
    assert "log in" in response.content.decode()
    assert Game.objects.get().status == Game.Status.WAITING
    assert guest.get(url).status_code == 200  # still watches
    bob = logged_in("bob")
    assert bob.post(f"{url}join/", {"name": "Bob"}).status_code == 302
    assert Game.objects.get().status == Game.Status.ACTIVE


# Profiles


def finished_rated_game(winner: Any, loser: Any) -> Game:
    game = rated_game(winner, loser)
    opening(game, winner, loser)
    play.resign(player=loser, game_id=game.public_id)
    return Game.objects.get(pk=game.pk)


def test_profile_json_as_pinned() -> None:
    ann, bob = account("ann"), account("bob")
    finished_rated_game(ann, bob)
    go = rated_game(ann, bob, kind="go", size=19)  # being played
    rating = Rating.objects.get(user_id=ann.user_id)

    data = Client().get("/players/ann.json").json()

    joined = User.objects.get(username="ann").date_joined.isoformat()
    assert data == {
        "username": "ann",
        "bot": False,
        "engine": False,
        "closed": False,
        "joined": joined,
        "online": False,
        "ratings": {
            "othello8-blitz": {
                "rating": rating.rating,
                "rd": rating.rd,
                "volatility": rating.volatility,
                "games": 1,
                "provisional": True,
                "rank": None,
            }
        },
        "results": {"won": 1, "lost": 0, "drawn": 0},
        "playing": [go.public_id],
        "followers": 0,
    }
    assert Client().get("/players/bob.json").json()["results"] == {
        "won": 0,
        "lost": 1,
        "drawn": 0,
    }


def test_go_categories_carry_the_rank() -> None:
    ann, bob = account("ann"), account("bob")
    control = TimeControl.byoyomi(main_time=1200, periods=5, period_time=30)
    game = rated_game(ann, bob, kind="go", size=19, control=control)
    play.play(player=ann, game_id=game.public_id, ply=0, point=[3, 3])
    play.play(player=bob, game_id=game.public_id, ply=1, point=[15, 15])
    play.resign(player=bob, game_id=game.public_id)
    ratings = Client().get("/players/ann.json").json()["ratings"]
    entry = ratings["go19-classical"]
    assert entry["rank"] == glicko2.go_rank(entry["rating"])


def test_unknown_players_are_404() -> None:
    assert Client().get("/players/nobody.json").status_code == 404
    assert Client().get("/players/nobody/").status_code == 404


def test_the_profile_page_shows_ratings_graph_results_and_games() -> None:
    ann, bob = account("ann"), account("bob")
    finished_rated_game(ann, bob)
    finished_rated_game(bob, ann)
    casual = lobby.create_game(
        player=ann, new=lobby.NewGame(kind="go", size=9, color="black", name="ann")
    )

    page = Client().get("/players/ann/").content.decode()

    assert "Othello 8\N{MULTIPLICATION SIGN}8 blitz" in page
    assert page.count('<circle class="point') == 3  # the graph: the start, then each game
    assert "1 won, 1 lost, 0 drawn" in page
    assert page.count("<tr data-game=") == 3
    assert casual.public_id in page
    assert 'href="/players/bob/"' in page


def test_the_profile_explains_the_question_mark_rd_and_provisional() -> None:
    ann, bob = account("ann"), account("bob")
    finished_rated_game(ann, bob)

    page = Client().get("/players/ann/").content.decode()
    card = page.split('class="rating-card"')[1].split("</section>")[0]

    assert re.search(
        r'<strong>\d+<a class="rating-help" href="/help/ratings/#provisional" '
        r'title="Provisional rating: not settled yet \(RD above 110\)\.[^"]*">\?</a></strong>',
        card,
    )
    assert re.search(r'class="rating-help" href="/help/ratings/#rd" title="[^"]+">RD</a> \d+', card)
    assert re.search(r'href="/help/ratings/#provisional" title="[^"]+">provisional</a>', card)


def test_the_profile_graph_starts_at_the_rating_before_the_first_game() -> None:
    ann, bob = account("ann"), account("bob")
    finished_rated_game(ann, bob)
    change = RatingChange.objects.get(user__username="ann")

    page = Client().get("/players/ann/").content.decode()

    assert change.rating_before == glicko2.BASE
    assert page.count('<circle class="point') == 2
    assert f"from 1500 to {change.rating_after:.0f} over 1 game" in page


def test_a_settled_rating_has_no_question_mark() -> None:
    settled("sam", 1700)

    page = Client().get("/players/sam/").content.decode()

    assert "<strong>1700</strong>" in page and "#provisional" not in page


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ("", 3),
        ("?rated=1", 2),
        ("?rated=0", 1),
        ("?result=won", 1),
        ("?result=lost", 1),
        ("?kind=go", 1),
        ("?size=9", 1),
        ("?size=8&result=won", 1),
        ("?rated=banana&kind=chess", 3),  # not a choice: ignored
    ],
)
def test_the_profile_games_filters(query: str, count: int) -> None:
    ann, bob = account("ann"), account("bob")
    finished_rated_game(ann, bob)
    finished_rated_game(bob, ann)
    lobby.create_game(player=ann, new=lobby.NewGame(kind="go", size=9, color="black", name="ann"))
    page = Client().get(f"/players/ann/{query}").content.decode()
    assert page.count("<tr data-game=") == count


def test_the_profile_games_are_paged() -> None:
    ann = account("ann")
    for _ in range(25):
        lobby.create_game(
            player=ann, new=lobby.NewGame(kind="othello", size=8, color="black", name="ann")
        )
    first = Client().get("/players/ann/").content.decode()
    second = Client().get("/players/ann/?page=2").content.decode()
    assert first.count("<tr data-game=") == 20 and second.count("<tr data-game=") == 5
    assert "Page 1 of 2" in first


# Leaderboards


def settled(name: str, rating: float, *, rd: float = 60, category: str = "othello8-blitz") -> None:
    user = User.objects.create_user(name)
    Rating.objects.create(user=user, category=category, rating=rating, rd=rd, games=30)


def test_top_json_lists_the_best_non_provisional_best_first() -> None:
    settled("low", 1400)
    settled("high", 1900)
    settled("unsure", 2500, rd=150)
    settled("goer", 2000, category="go19-classical")
    data = Client().get("/players/top.json?category=othello8-blitz").json()
    assert data == {
        "category": "othello8-blitz",
        "players": [
            {"username": "high", "rating": 1900.0, "rd": 60.0, "games": 30},
            {"username": "low", "rating": 1400.0, "rd": 60.0, "games": 30},
        ],
    }
    assert Client().get("/players/top.json?category=nothing").json()["players"] == []


def test_top_json_stops_at_100() -> None:
    users = User.objects.bulk_create([User(username=f"u{n}") for n in range(105)])
    Rating.objects.bulk_create(
        Rating(user=user, category="go9-blitz", rating=1500 + n, rd=50, games=10)
        for n, user in enumerate(users)
    )
    players = Client().get("/players/top.json?category=go9-blitz").json()["players"]
    assert len(players) == 100
    assert players[0]["username"] == "u104"


def test_the_top_page_has_a_table_per_category() -> None:
    settled("high", 1900)
    settled("goer", 2000, category="go19-classical")
    page = Client().get("/players/top/").content.decode()
    assert (
        "Othello 8\N{MULTIPLICATION SIGN}8 blitz" in page
        and "Go 19\N{MULTIPLICATION SIGN}19 classical" in page
    )
    assert 'href="/players/high/"' in page
    assert re.search(r'href="/help/ratings/#provisional" title="[^"]+">settled</a>', page)
    assert re.search(r'href="/help/ratings/#rd" title="[^"]+">RD</a> 110 or less', page)


# Names link to profiles


def test_names_of_accounts_link_to_their_profiles() -> None:
    ann, bob = account("ann"), account("bob")
    game = finished_rated_game(ann, bob)
    guest_game = lobby.create_game(
        player=Player(session_key="guest"),
        new=lobby.NewGame(kind="go", size=9, color="black", name="G"),
    )
    archive = Client().get("/games/").content.decode()
    assert 'href="/players/ann/"' in archive and 'href="/players/bob/"' in archive
    page = Client().get(f"/games/{game.public_id}/").content.decode()
    assert 'href="/players/ann/"' in page
    assert (
        'href="/players/G/"' not in Client().get(f"/games/{guest_game.public_id}/").content.decode()
    )


def test_the_archive_filters_rated_games() -> None:
    ann, bob = account("ann"), account("bob")
    finished_rated_game(ann, bob)
    lobby.create_game(
        player=ann, new=lobby.NewGame(kind="othello", size=8, color="black", name="ann")
    )
    assert Client().get("/games/?rated=rated").content.decode().count("<tr data-game=") == 1
    assert Client().get("/games/?rated=casual").content.decode().count("<tr data-game=") == 1


# The admin


@pytest.fixture
def admin_client_logged() -> Client:
    User.objects.create_superuser("boss", password=PASSWORD)
    browser = Client()
    assert browser.login(username="boss", password=PASSWORD)
    return browser


def test_the_admin_lists_ratings_and_history_read_only(admin_client_logged: Client) -> None:
    ann, bob = account("ann"), account("bob")
    game = finished_rated_game(ann, bob)
    ratings = admin_client_logged.get("/admin/players/rating/?q=ann")
    assert ratings.status_code == 200 and "othello8-blitz" in ratings.content.decode()
    history = admin_client_logged.get(f"/admin/players/ratingchange/?q={game.public_id}")
    assert history.status_code == 200 and game.public_id in history.content.decode()
    change = RatingChange.objects.first()
    assert change is not None
    url = f"/admin/players/ratingchange/{change.pk}/change/"
    assert admin_client_logged.post(url, {"change": 0}).status_code == 403
    games = admin_client_logged.get("/admin/games/game/?rated__exact=1").content.decode()
    assert game.public_id in games


def test_the_admin_annuls_a_games_rating(admin_client_logged: Client) -> None:
    ann, bob = account("ann"), account("bob")
    game = finished_rated_game(ann, bob)
    response = admin_client_logged.post(
        "/admin/games/game/",
        {"action": "annul_ratings", "_selected_action": [game.pk]},
        follow=True,
    )
    assert "Annulled the ratings of 1 game" in response.content.decode()
    assert Rating.objects.get(user_id=ann.user_id).value == glicko2.NEW_PLAYER
    assert Game.objects.filter(pk=game.pk).exists()


def test_rd_in_the_json_is_the_stored_one() -> None:
    """The JSON gives the rating as the last game left it (inactivity grows the RD only
    when the next game is rated)."""
    ann, bob = account("ann"), account("bob")
    finished_rated_game(ann, bob)
    Rating.objects.update(last_played_at=timezone.now() - datetime.timedelta(days=100))
    stored = Rating.objects.get(user_id=ann.user_id)
    assert Client().get("/players/ann.json").json()["ratings"]["othello8-blitz"]["rd"] == (
        stored.rd
    )


def test_a_bots_profile_json_says_bot() -> None:
    robo = User.objects.create_user("robo")
    make_bot(user=robo)
    assert Client().get("/players/robo.json").json()["bot"] is True


def test_bots_have_a_leaderboard_of_their_own() -> None:
    settled("person", 1600)
    settled("robo", 2400)
    make_bot(user=User.objects.get(username="robo"))
    people = Client().get("/players/top.json?category=othello8-blitz").json()["players"]
    bots = Client().get("/players/top.json?category=othello8-blitz&bots=1").json()["players"]
    assert [row["username"] for row in people] == ["person"]
    assert [row["username"] for row in bots] == ["robo"]
    page = Client().get("/players/top/").content.decode()
    people_part, bots_part = page.split('id="bots-heading"')
    assert 'href="/players/person/"' in people_part and "/players/robo/" not in people_part
    assert 'href="/players/robo/"' in bots_part
