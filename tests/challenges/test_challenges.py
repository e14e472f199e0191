"""Challenges between people through HTTP: a challenge is a waiting game reserved for one
account, which is notified and accepts (joins) or declines; unanswered it expires (24
hours, 7 days by correspondence: an injected clock); the 400s (no such player, oneself, a
player who blocks you: all alike), the form sent twice, the limit of open challenges."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from accounts import services as relations
from accounts.players import Player
from bots import services as bots
from challenges import services
from challenges.models import Challenge
from games.models import Game
from games.services import lobby
from games.services.errors import GameError
from notifications import channels, outbox
from notifications.models import Kind, Notification
from tests.bots.test_bots import make_bot, online
from tests.conftest import FrozenClock
from tests.support.helpers import verified_account

pytestmark = pytest.mark.django_db

FIELDS = {"kind": "othello", "size": 8, "color": "black", "name": "x"}


def person(name: str, *, email: str = "") -> Client:
    client = Client()
    client.force_login(verified_account(name, email=email, password="pw-12345678"))
    return client


def user(name: str) -> User:
    return User.objects.get(username=name)


def challenge(client: Client, target: str = "bob", **fields: Any) -> Any:
    return client.post(f"/players/{target}/challenge/", {**FIELDS, **fields})


def test_a_challenge_is_a_game_waiting_for_that_person_who_is_notified_and_accepts(
    django_capture_on_commit_callbacks: Any,
) -> None:
    alice, bob, carol = person("alice"), person("bob", email="bob@example.org"), person("carol")
    with django_capture_on_commit_callbacks(execute=True):
        response = challenge(alice, clock="fischer", main_time=300, increment=5, rated=1)
    assert response.status_code == 302
    game = Game.objects.get()
    assert response.url == f"/games/{game.public_id}/"
    assert (game.status, game.reserved_for, game.black_name) == ("waiting", user("bob"), "alice")
    assert game.rated and Challenge.objects.get().rated

    told = Notification.objects.get(user=user("bob"))
    assert told.kind == Kind.CHALLENGE
    assert told.text == "alice challenges you to a game of Othello 8\N{MULTIPLICATION SIGN}8"
    assert told.url == f"/games/{game.public_id}/"
    assert told.deliveries.get().channel == "email"  # e-mail on by default for a challenge

    state = bob.get(f"/games/{game.public_id}/state.json").json()
    assert state["challenge"] == {
        "to": "bob",
        "bot": None,
        "status": "pending",
        "rated": True,
        "reason": None,
        "message": None,
    }
    page = bob.get(f"/games/{game.public_id}/").content.decode()
    assert "challenges you to this game" in page and 'id="decline-challenge"' in page
    assert "challenges you" not in carol.get(f"/games/{game.public_id}/").content.decode()

    carol.post(f"/games/{game.public_id}/join/")  # not hers: she only watches
    game.refresh_from_db()
    assert game.status == "waiting"
    assert bob.post(f"/games/{game.public_id}/join/").status_code == 302
    game.refresh_from_db()
    assert (game.status, game.white_name) == ("active", "bob")
    services.expire_challenges()  # the watch's second notes the answer
    assert Challenge.objects.get().status == "accepted"
    told.refresh_from_db()
    assert told.read_at is not None


def test_a_declined_challenge_is_aborted_and_the_challenger_is_notified(
    django_capture_on_commit_callbacks: Any,
) -> None:
    alice, bob = person("alice"), person("bob")
    challenge(alice)
    game = Game.objects.get()
    assert alice.post(f"/games/{game.public_id}/decline/").status_code == 403
    assert Client().post(f"/games/{game.public_id}/decline/").status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        declined = bob.post(f"/games/{game.public_id}/decline/", HTTP_ACCEPT="text/html")
    assert declined.status_code == 302 and declined.url == f"/games/{game.public_id}/"
    game.refresh_from_db()
    assert game.status == "aborted"
    state = alice.get(f"/games/{game.public_id}/state.json").json()
    assert state["challenge"]["status"] == "declined"
    assert state["challenge"]["reason"] == "generic"  # none given
    assert state["challenge"]["message"] == (
        "bob declined the challenge: I am not accepting challenges at the moment."
    )
    told = Notification.objects.get(user=user("alice"))
    assert (told.kind, told.text) == (
        Kind.CHALLENGE_DECLINED,
        "bob declined your challenge (Othello 8\N{MULTIPLICATION SIGN}8):"
        " I am not accepting challenges at the moment.",
    )
    again = bob.post(f"/games/{game.public_id}/decline/", HTTP_ACCEPT="application/json")
    assert again.status_code == 400 and again.json()["error"] == "bad_request"


@pytest.mark.parametrize(
    ("fields", "waits"),
    [
        ({}, datetime.timedelta(hours=24)),
        ({"clock": "correspondence", "days": 3}, datetime.timedelta(days=7)),
    ],
)
def test_an_unanswered_challenge_expires_and_is_aborted(
    fields: dict[str, Any], waits: datetime.timedelta
) -> None:
    alice, _ = person("alice"), person("bob")
    challenge(alice, **fields)
    game = Game.objects.get()
    start = Challenge.objects.get().created_at
    assert services.expire_challenges(now=start + waits - datetime.timedelta(seconds=1)) == []
    assert services.expire_challenges(now=start + waits) == [game.public_id]
    game.refresh_from_db()
    assert game.status == "aborted"
    message = alice.get(f"/games/{game.public_id}/state.json").json()["challenge"]["message"]
    words = "24 hours" if waits.days == 1 else "7 days"
    assert message == f"bob did not answer the challenge within {words}."
    assert services.expire_challenges(now=start + 2 * waits) == []


def test_no_such_player_oneself_and_a_blocker_are_refused_alike() -> None:
    alice, _ = person("alice"), person("bob")
    relations.block(blocker_id=user("bob").pk, blocked_id=user("alice").pk)
    unknown = challenge(alice, "nobody")
    blocked = challenge(alice, "bob")
    oneself = challenge(alice, "alice")
    assert unknown.status_code == blocked.status_code == oneself.status_code == 400
    reason = b"you cannot challenge or follow this player"
    assert reason in unknown.content and reason in blocked.content and reason in oneself.content
    assert Game.objects.count() == 0 and Notification.objects.count() == 0


def test_a_guest_may_not_challenge_a_person_nor_a_bad_field_pass() -> None:
    person("bob")
    assert challenge(Client()).status_code == 400
    assert challenge(person("alice"), size=7).status_code == 400
    assert challenge(person("carol"), rated=1).status_code == 400  # rated needs a clock
    assert Game.objects.count() == 0


def test_the_form_sent_twice_challenges_once() -> None:
    alice, _ = person("alice"), person("bob")
    token = "t" * 32
    first = challenge(alice, form_token=token)
    second = challenge(alice, form_token=token)
    assert first.status_code == second.status_code == 302 and first.url == second.url
    assert (Game.objects.count(), Challenge.objects.count(), Notification.objects.count()) == (
        1,
        1,
        1,
    )


def test_a_challenger_has_at_most_a_few_challenges_open() -> None:
    alice = person("alice")
    for number in range(services.OPEN_LIMIT):
        person(f"p{number}")
        assert challenge(alice, f"p{number}").status_code == 302
    person("one_more")
    refused = challenge(alice, "one_more")
    assert refused.status_code == 429
    assert b"at most 5 challenges waiting at once" in refused.content
    # An answer frees a place.
    first = Challenge.objects.get(challenged__username="p0").game
    person_p0 = Client()
    person_p0.force_login(user("p0"))
    person_p0.post(f"/games/{first.public_id}/decline/")
    assert challenge(alice, "one_more").status_code == 302


def test_a_profile_offers_the_challenge_form_to_a_person_only() -> None:
    alice, _ = person("alice"), person("bob")
    page = alice.get("/players/bob/").content.decode()
    assert 'action="/players/bob/challenge/"' in page and "Challenge bob" in page
    assert 'name="opponent"' not in page  # a person, not the computer
    own = alice.get("/players/alice/").content.decode()
    assert "/players/alice/challenge/" not in own
    guest = Client().get("/players/bob/").content.decode()
    assert "Log in to challenge bob" in guest


def test_a_challenge_called_off_frees_its_place_and_says_it_was_withdrawn() -> None:
    alice, _ = person("alice"), person("bob")
    challenge(alice)
    game = Game.objects.get()
    assert services.open_count(user("alice").pk) == 1
    assert alice.post(f"/games/{game.public_id}/abort/").status_code == 302
    assert services.open_count(user("alice").pk) == 0
    assert services.expire_challenges() == []
    assert Challenge.objects.get().status == "expired"
    assert Notification.objects.get(user=user("bob")).read_at is not None
    state = alice.get(f"/games/{game.public_id}/state.json").json()
    assert state["challenge"]["message"] == "alice withdrew the challenge."
    assert state["aborted"]["reason"] == "called_off"


# The hourly cap


def test_challenge_then_call_off_is_capped_at_20_an_hour_and_so_are_the_mails(
    frozen_clock: FrozenClock, django_capture_on_commit_callbacks: Any
) -> None:
    """The flood of the issue: challenge, call off, again. Neither the open challenges'
    limit (each is called off) nor the per-session limit (three browsers) holds it: the
    hourly cap does, and the challenged account gets at most 20 mails."""
    person("bob", email="bob@example.org")
    alice = User.objects.create_user("alice", password="pw-12345678")
    browsers = [Client() for _ in range(3)]
    for browser in browsers:
        browser.force_login(alice)
    codes = []
    for number in range(services.HOURLY_LIMIT + 1):
        browser = browsers[number % len(browsers)]
        with django_capture_on_commit_callbacks(execute=True):
            made = challenge(browser)
        codes.append(made.status_code)
        if made.status_code == 302:
            assert browser.post(f"{made.url}abort/").status_code == 302
        frozen_clock.advance(60)

    assert codes == [302] * services.HOURLY_LIMIT + [429]
    refused = challenge(browsers[0])
    assert refused.status_code == 429
    assert b"at most 20 challenges to people an hour" in refused.content
    assert Challenge.objects.count() == services.HOURLY_LIMIT
    while outbox.deliver(process="test", send=channels.send):
        pass
    assert len([m for m in mail.outbox if m.to == ["bob@example.org"]]) == services.HOURLY_LIMIT


def challenge_as(challenger: User, target: str = "bob") -> Game:
    """``challenger`` challenges ``target`` through the service (no HTTP limit)."""
    return services.challenge(
        player=Player(user_id=challenger.pk, username=challenger.username),
        username=target,
        name=challenger.username,
        rated=False,
        options={"kind": "othello", "size": 8, "color": "black"},
    )


def test_the_hourly_cap_answers_a_token_in_json_and_frees_a_place_an_hour_later(
    frozen_clock: FrozenClock,
) -> None:
    person("bob")
    alice = User.objects.create_user("alice")
    token = bots.create_token(user=alice, name="script")[1]
    for _ in range(services.HOURLY_LIMIT):
        game = challenge_as(alice)
        lobby.abort(player=Player(user_id=alice.pk), game_id=game.public_id)
        frozen_clock.advance(30)

    refused = Client().post("/players/bob/challenge/", FIELDS, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert refused.status_code == 429
    assert refused.json()["error"] == "rate_limited"
    # The first one was made 20 x 30 s ago: it leaves the hour 50 minutes from now.
    frozen_clock.advance(50 * 60 - 1)
    with pytest.raises(GameError, match="rate_limited"):
        challenge_as(alice)
    frozen_clock.advance(1)
    made = Client().post("/players/bob/challenge/", FIELDS, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert made.status_code == 302


def test_challenges_to_bots_are_not_counted_by_the_hourly_cap(frozen_clock: FrozenClock) -> None:
    person("bob")
    alice = User.objects.create_user("alice")
    make_bot("robo")
    online("robo")
    for _ in range(services.HOURLY_LIMIT):
        lobby.abort(player=Player(user_id=alice.pk), game_id=challenge_as(alice).public_id)
    with pytest.raises(GameError, match="rate_limited"):
        challenge_as(alice)

    assert challenge_as(alice, "robo").reserved_for.username == "robo"
