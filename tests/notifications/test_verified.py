"""Notifications e-mail only a verified address (docs/api/http.md, "Notifications"): an
account whose address is not verified yet is told on the site and by push, never by
e-mail, and its settings page says why, with a button that sends the link again. Mails are
counted in Django's in-memory backend (``mail.outbox``) as the outbox sends them."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from accounts.players import Player
from gamerules.clock import TimeControl
from notifications import channels, outbox
from notifications import services as notifications
from notifications.models import Delivery, Kind
from tests.notifications.test_games import game_between, move
from tests.support.helpers import verify_address

pytestmark = pytest.mark.django_db

FIELDS = {"kind": "othello", "size": 8, "color": "black", "name": "x"}


def person(name: str) -> tuple[Client, User]:
    user = User.objects.create_user(name, email=f"{name}@example.org", password="pw-12345678")
    client = Client()
    client.force_login(user)
    return client, user


def send_the_outbox() -> None:
    outbox.deliver(process="test", send=channels.send)


def challenge_mails(alice: Client, capture: Any) -> list[Any]:
    """The mails sent for a challenge of alice's to bob."""
    before = len(mail.outbox)
    with capture(execute=True):
        answer = alice.post("/players/bob/challenge/", FIELDS)
    assert answer.status_code == 302
    send_the_outbox()
    return mail.outbox[before:]


def test_a_challenge_is_mailed_only_once_the_address_is_verified(
    django_capture_on_commit_callbacks: Any,
) -> None:
    alice, _ = person("alice")
    _, bob = person("bob")

    assert challenge_mails(alice, django_capture_on_commit_callbacks) == []

    verify_address(bob)
    [message] = challenge_mails(alice, django_capture_on_commit_callbacks)
    assert message.to == ["bob@example.org"]
    assert "alice challenges you" in message.subject


def test_a_correspondence_move_is_mailed_only_once_the_address_is_verified() -> None:
    _, ann = person("ann")
    _, bob = person("bob")
    black = Player(session_key="ann-session", user_id=ann.pk, username="ann")
    white = Player(session_key="bob-session", user_id=bob.pk, username="bob")
    game = game_between(black, white, TimeControl.correspondence(days=3))

    game = move(game, black)
    send_the_outbox()
    assert mail.outbox == [], "bob's address is not verified"
    assert not Delivery.objects.filter(channel="email").exists()

    game = move(game, white)
    verify_address(bob)
    move(game, black)
    send_the_outbox()
    [message] = mail.outbox
    assert message.to == ["bob@example.org"]
    assert "Your move against ann" in message.subject


def test_a_mail_written_for_an_address_no_longer_verified_is_not_sent() -> None:
    _, ann = person("ann")
    address = verify_address(ann)
    notifications.notify(
        user_id=ann.pk,
        kind=Kind.CHALLENGE,
        params={"name": "Bob", "kind": "othello", "size": 8},
        url="/",
    )
    address.verified = False
    address.save()

    send_the_outbox()
    assert mail.outbox == []
    assert Delivery.objects.get().status == "gave_up"


def test_many_accounts_told_at_once_are_mailed_at_their_verified_addresses_only() -> None:
    _, ann = person("ann")
    _, bob = person("bob")
    verify_address(bob)
    notifications.choose(user_id=ann.pk, kind=Kind.ROUND_PAIRED, email=True, push=False)
    notifications.choose(user_id=bob.pk, kind=Kind.ROUND_PAIRED, email=True, push=False)

    notifications.notify_many(
        user_ids=[ann.pk, bob.pk], kind=Kind.ROUND_PAIRED, params={"name": "Open"}, url="/"
    )
    send_the_outbox()
    assert [message.to for message in mail.outbox] == [["bob@example.org"]]


def test_the_settings_page_says_why_no_mail_comes_and_sends_the_link_again() -> None:
    browser, ann = person("ann")
    page = browser.get("/notifications/settings/").content.decode()
    assert "is not verified yet" in page
    assert "ann@example.org" in page
    assert 'action="/accounts/email/verify/"' in page

    answer = browser.post("/accounts/email/verify/", {"next": "/notifications/settings/"})
    assert answer.status_code == 302 and answer["Location"] == "/notifications/settings/"
    [message] = mail.outbox
    assert message.to == ["ann@example.org"]
    assert "/accounts/confirm-email/" in message.body
    browser.post("/accounts/email/verify/", {"next": "/notifications/settings/"})
    assert len(mail.outbox) == 1, "one link within minutes"

    verify_address(ann)
    page = browser.get("/notifications/settings/").content.decode()
    assert "is not verified yet" not in page
    assert "/accounts/email/verify/" not in page
