"""A challenge to a person is in the challenged account's inbox (the header, `GET
/challenges.json`, its pages told live when it changes); declined with a reason the
challenger reads (the outgoing entry, the notification, the game page); the inbox's forms
answer pages, scripts JSON."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client

from challenges import services
from challenges.models import Challenge
from games import selectors
from games.models import Game
from notifications.models import Kind, Notification
from tests.challenges.test_challenges import challenge, person, user
from tests.challenges.test_lobby import online_challenge

pytestmark = pytest.mark.django_db

REASONS = {
    "generic": "I am not accepting challenges at the moment.",
    "later": "This is not the right time for me, please ask again later.",
    "too_fast": "This time control is too fast for me, please challenge again with a slower game.",
    "too_slow": "This time control is too slow for me, please challenge again with a faster game.",
    "casual": "Please send me a casual challenge instead.",
    "rated": "Please send me a rated challenge instead.",
}


def test_the_challenged_account_sees_the_challenge_in_its_header_inbox() -> None:
    alice, bob, carol = person("alice"), person("bob"), person("carol")
    game = online_challenge(alice, clock="fischer", main_time=300, increment=5, rated=1)

    page = bob.get("/players/carol/").content.decode()  # any page: the header's
    inbox = page.split('id="inbox"')[1].split("</details>")[0]
    assert '<span class="inbox-count" id="inbox-count">1<' in inbox
    assert f'action="/games/{game.public_id}/join/"' in inbox  # Accept
    assert f'action="/games/{game.public_id}/decline/"' in inbox  # Decline, with a reason
    for reason in REASONS:
        assert f'<option value="{reason}">' in inbox
    assert "alice" in inbox and "Rated" in inbox

    for other in (alice, carol):
        header = other.get("/").content.decode().split('id="inbox"')[1].split("</details>")[0]
        assert f"/games/{game.public_id}/" not in header
        assert '<span class="inbox-count" id="inbox-count" hidden>0<' in header
    assert 'id="inbox"' not in Client().get("/").content.decode()


def test_challenges_json_lists_each_sides_challenges_as_pinned() -> None:
    alice, bob, carol = person("alice"), person("bob"), person("carol")
    game = online_challenge(alice, clock="fischer", main_time=300, increment=5, rated=1)
    made = Challenge.objects.get(game=game)

    entry = {
        "game": game.public_id,
        "from": "alice",
        "to": "bob",
        "kind": "othello",
        "size": 8,
        "clock": game.time_control,
        "clock_text": selectors.time_control_text(game),
        "rated": True,
        "created": made.created_at.isoformat(),
        "expires": made.expires_at.isoformat(),
    }
    assert made.expires_at - made.created_at == datetime.timedelta(hours=24)
    assert bob.get("/challenges.json").json() == {"incoming": [entry], "outgoing": []}
    assert alice.get("/challenges.json").json() == {
        "incoming": [],
        "outgoing": [{**entry, "reason": None}],
    }
    assert carol.get("/challenges.json").json() == {"incoming": [], "outgoing": []}

    # Accepted: nobody's to answer any more.
    assert bob.post(f"/games/{game.public_id}/join/").status_code == 302
    for side in (alice, bob):
        assert side.get("/challenges.json").json() == {"incoming": [], "outgoing": []}


def test_challenges_json_is_for_an_account_only() -> None:
    refused = Client().get("/challenges.json")
    assert refused.status_code == 401
    assert refused.json()["error"] == "login_required"
    assert person("ann").post("/challenges.json").status_code == 405


@pytest.mark.parametrize("reason", list(REASONS))
def test_a_decline_keeps_its_reason_and_the_challenger_reads_it(
    reason: str, django_capture_on_commit_callbacks: Any
) -> None:
    alice, bob = person("alice"), person("bob")
    game = online_challenge(alice)
    with django_capture_on_commit_callbacks(execute=True):
        declined = bob.post(
            f"/games/{game.public_id}/decline/",
            {"reason": reason},
            HTTP_ACCEPT="application/json",
        )
    assert (declined.status_code, declined.json()) == (200, {"status": "aborted"})
    assert Challenge.objects.get().reason == reason

    [sent] = alice.get("/challenges.json").json()["outgoing"]
    assert (sent["game"], sent["reason"]) == (game.public_id, reason)
    assert bob.get("/challenges.json").json()["incoming"] == []
    told = Notification.objects.get(user=user("alice"), kind=Kind.CHALLENGE_DECLINED)
    assert told.text == (
        f"bob declined your challenge (Othello 8\N{MULTIPLICATION SIGN}8): {REASONS[reason]}"
    )
    shown = alice.get(f"/games/{game.public_id}/state.json").json()["challenge"]
    assert (shown["reason"], shown["message"]) == (
        reason,
        f"bob declined the challenge: {REASONS[reason]}",
    )


def test_a_declined_challenge_leaves_the_outgoing_list_when_it_would_have_expired() -> None:
    alice, bob = person("alice"), person("bob")
    game = online_challenge(alice)
    bob.post(f"/games/{game.public_id}/decline/", {"reason": "later"})
    assert len(alice.get("/challenges.json").json()["outgoing"]) == 1
    Challenge.objects.update(expires_at=datetime.datetime.now(tz=datetime.UTC))
    assert alice.get("/challenges.json").json()["outgoing"] == []


def test_a_bad_reason_is_a_400_naming_reason_and_changes_nothing() -> None:
    alice, bob = person("alice"), person("bob")
    game = online_challenge(alice)
    refused = bob.post(
        f"/games/{game.public_id}/decline/", {"reason": "rude"}, HTTP_ACCEPT="application/json"
    )
    assert refused.status_code == 400
    assert refused.json()["error"] == "bad_request"
    assert refused.json()["field"] == "reason"
    assert "generic, later, too_fast, too_slow, casual, rated" in refused.json()["message"]
    page = bob.post(f"/games/{game.public_id}/decline/", {"reason": "rude"})
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")
    assert "Reason: one of generic, later" in page.content.decode()
    game.refresh_from_db()
    assert game.status == "waiting" and Challenge.objects.get().status == "pending"


def test_the_inbox_forms_decline_answers_the_page_it_came_from() -> None:
    alice, bob = person("alice"), person("bob")
    game = online_challenge(alice)
    declined = bob.post(
        f"/games/{game.public_id}/decline/",
        {"reason": "too_fast", "next": "/players/alice/?page=2"},
    )
    assert declined.status_code == 302 and declined.url == "/players/alice/?page=2"
    page = bob.get(declined.url).content.decode()
    assert "You declined the challenge of alice." in page
    # A page of another site is no page to come back to: the game's instead.
    again = online_challenge(alice)
    elsewhere = bob.post(f"/games/{again.public_id}/decline/", {"next": "https://example.org/"})
    assert elsewhere.url == f"/games/{again.public_id}/"


def test_declining_anothers_challenge_is_a_page_for_a_form_and_json_for_a_script() -> None:
    alice, _ = person("alice"), person("bob")
    game = online_challenge(alice)
    page = person("carol").post(f"/games/{game.public_id}/decline/", {"reason": "later"})
    assert page.status_code == 403 and page["Content-Type"].startswith("text/html")
    assert "Only the challenged account may decline" in page.content.decode()
    script = alice.post(f"/games/{game.public_id}/decline/", HTTP_ACCEPT="application/json")
    assert script.status_code == 403 and script.json()["error"] == "not_a_player"
    assert Game.objects.get().status == "waiting"


def test_the_account_hears_its_inbox_change_on_its_lobby_sockets(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(services, "send_to_group", lambda group, event: sent.append((group, event)))
    alice, bob = person("alice"), person("bob")
    inbox = f"account.{user('bob').pk}"
    told = {"type": "account.challenges"}

    with django_capture_on_commit_callbacks(execute=True):
        challenge(alice)
    with django_capture_on_commit_callbacks(execute=True):
        challenge(alice, form_token="a" * 32)
    assert sent == [(inbox, {**told, "incoming": 1}), (inbox, {**told, "incoming": 2})]
    first, second = Game.objects.order_by("created_at")

    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        bob.post(f"/games/{first.public_id}/decline/", {"reason": "casual"})
    assert sent == [(inbox, {**told, "incoming": 1})]

    # Called off by alice: the watch's next second tells bob's pages.
    sent.clear()
    alice.post(f"/games/{second.public_id}/abort/")
    with django_capture_on_commit_callbacks(execute=True):
        services.expire_challenges()
    assert sent == [(inbox, {**told, "incoming": 0})]
