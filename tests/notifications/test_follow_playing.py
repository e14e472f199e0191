# ruff: noqa: RUF001 (the words name a board with the multiplication sign, as the site does)
"""``follow_playing``: an account that follows a player, and turned the kind on (it is off
by default), is told when that player starts a game, once a game; never when it blocks, or
is blocked by, one of the game's players."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts import services as relations
from accounts.players import Player
from games.models import Game
from games.services import lobby, tell
from notifications import services as notifications
from notifications.models import Kind, Notification
from tests.support.helpers import verified_account

pytestmark = pytest.mark.django_db


def player(name: str) -> tuple[User, Player]:
    user = verified_account(name, email=f"{name}@example.org")
    return user, Player(session_key=f"{name}-session", user_id=user.pk, username=name)


def listening(name: str, *, follows: list[User]) -> User:
    """An account that follows ``follows`` and turned ``follow_playing`` on."""
    user = verified_account(name, email=f"{name}@example.org")
    for followed in follows:
        relations.follow(follower_id=user.pk, followed_id=followed.pk)
    notifications.choose(
        user_id=user.pk, kind=Kind.FOLLOW_PLAYING, site=True, email=False, push=False
    )
    return user


def start(black: Player, white: Player) -> Game:
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="othello", size=8, color="black", name="")
    )
    return lobby.join_game(player=white, game_id=game.public_id, name="")


def against_the_computer(black: Player) -> Game:
    return lobby.create_game(
        player=black,
        new=lobby.NewGame(
            kind="othello", size=8, color="black", name="", opponent="computer", level=1
        ),
    )


def told(user: User) -> list[tuple[str, str, str]]:
    return [(n.kind, n.text, n.url) for n in Notification.objects.filter(user=user).order_by("pk")]


def test_a_follower_who_turned_it_on_is_told_once_when_the_game_starts() -> None:
    (ann, black), (bob, white) = player("ann"), player("bob")
    cy = listening("cy", follows=[ann, bob])  # both players: one notification still

    lobby.create_game(
        player=black, new=lobby.NewGame(kind="othello", size=8, color="black", name="")
    )
    assert told(cy) == []  # waiting for an opponent: not started yet
    game = start(black, white)

    assert told(cy) == [
        (
            "follow_playing",
            "ann and bob have started a game of Othello 8×8",
            f"/games/{game.public_id}/",
        )
    ]
    assert told(ann) == told(bob) == []


def test_off_by_default_a_follower_is_told_nothing() -> None:
    (ann, black), (_, white) = player("ann"), player("bob")
    dee = verified_account("dee", email="dee@example.org")
    relations.follow(follower_id=dee.pk, followed_id=ann.pk)

    start(black, white)

    assert told(dee) == []
    assert notifications.choices(user_id=dee.pk, kind=Kind.FOLLOW_PLAYING).site is False


def test_no_follower_blocked_by_or_blocking_a_player_is_told() -> None:
    (ann, black), (bob, white) = player("ann"), player("bob")
    blocked = listening("blocked", follows=[bob])
    blocking = listening("blocking", follows=[bob])
    other = listening("other", follows=[bob])
    relations.block(blocker_id=ann.pk, blocked_id=blocked.pk)  # ann keeps it away
    relations.block(blocker_id=blocking.pk, blocked_id=ann.pk)  # it keeps ann away

    start(black, white)

    assert told(blocked) == told(blocking) == []
    assert [kind for kind, _, _ in told(other)] == ["follow_playing"]


def test_games_started_by_the_pools_and_against_the_computer_tell_followers_too() -> None:
    (ann, ann_player), (_, bob_player) = player("ann"), player("bob")
    (cy, cy_player), (_, dee_player) = player("cy"), player("dee")
    erin = listening("erin", follows=[ann, cy])
    pairs = [
        lobby.NewPair(
            first=lobby.Entrant(first, ""),
            second=lobby.Entrant(second, ""),
            kind="othello",
            size=8,
            time_control=None,
            rated=False,
        )
        for first, second in ((ann_player, bob_player), (cy_player, dee_player))
    ]
    lobby.start_games(pairs)
    assert len(told(erin)) == 2  # one a game

    against_the_computer(bob_player)
    assert len(told(erin)) == 2  # erin does not follow bob
    against_the_computer(ann_player)
    [*_, (_, words, _)] = told(erin)
    assert words.startswith("ann and ") and words.endswith("Othello 8×8")


def test_nobody_following_costs_a_game_start_one_query(
    django_assert_num_queries: Any,
) -> None:
    _, black = player("ann")
    game = lobby.create_game(
        player=black, new=lobby.NewGame(kind="othello", size=8, color="black", name="")
    )
    with django_assert_num_queries(1):
        tell.started([game])


def test_the_settings_page_turns_it_on_and_off() -> None:
    (ann, black), (_, white) = player("ann"), player("bob")
    cy = verified_account("cy", email="cy@example.org")
    relations.follow(follower_id=cy.pk, followed_id=ann.pk)
    browser = Client()
    browser.force_login(cy)
    page = browser.get("/notifications/settings/").content.decode()
    assert 'name="follow_playing-site"' in page
    assert 'name="follow_playing-site" value="1" checked' not in page
    assert 'name="challenge-site"' not in page  # every other kind always shows

    saved = browser.post(
        "/notifications/settings/",
        {"follow_playing-site": "1", "follow_playing-push": "1", "challenge-email": "1"},
    )
    assert saved.status_code == 302
    assert 'name="follow_playing-site" value="1" checked' in browser.get(saved.url).content.decode()
    start(black, white)
    assert [kind for kind, _, _ in told(cy)] == ["follow_playing"]

    browser.post("/notifications/settings/", {"challenge-email": "1"})
    start(black, white)
    assert len(told(cy)) == 1
