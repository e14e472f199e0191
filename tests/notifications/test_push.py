# ruff: noqa: RUF001 (the words name a board with the multiplication sign, as the site does)
"""Web Push end to end: a device subscribes through ``POST /notifications/push/`` with keys
made as a browser makes them, its opponent moves in a correspondence game, the outbox runs
once, and the push service the test runs receives a VAPID-signed (RFC 8292) message
encrypted for the device (RFC 8291, aes128gcm) that decrypts to the notification; a
service answering 404 or 410 ends the subscription, one answering 500 is tried again
later (tests/support/push_service.py is the service and the device)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import http_ece  # type: ignore[import-untyped]
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.contrib.auth.models import User
from django.test import Client

from accounts.players import Player
from games import selectors
from games import services as games
from games.models import Game
from games.rules.clock import TimeControl
from notifications import channels, keys, outbox
from notifications.models import Delivery, Notification, PushSubscription
from tests.conftest import FrozenClock
from tests.support.push_service import Device, PushService, vapid_claims

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def vapid_key(settings: Any) -> Iterator[str]:
    """A VAPID key pair of the test's own, from ``VAPID_PRIVATE_KEY`` (PEM): its public
    half, as the settings page gives it to the browser."""
    pem = (
        ec.generate_private_key(ec.SECP256R1())
        .private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        .decode()
    )
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = pem, ""
    settings.VAPID_SUBJECT = "mailto:admin@games.example.org"
    keys._vapid.cache_clear()
    yield keys.vapid_public_key()
    keys._vapid.cache_clear()


@pytest.fixture
def service() -> Iterator[PushService]:
    with PushService() as running:
        yield running


def account(name: str) -> tuple[User, Player]:
    user = User.objects.create_user(name)  # no e-mail address: push only
    return user, Player(session_key=f"{name}-session", user_id=user.pk, username=name)


def subscribed(user: User, device: Device) -> None:
    """The device's page posts its subscription, as static/js/push.js does."""
    browser = Client()
    browser.force_login(user)
    answer = browser.post(
        "/notifications/push/", json.dumps(device.subscription()), content_type="application/json"
    )
    assert answer.status_code == 201, answer.content


def bob_moves_against(ann: Player, bob: Player) -> Game:
    """A correspondence game, Bob black, Ann white: Bob moves, it is Ann's move."""
    game = games.create_game(
        player=bob,
        kind="othello",
        size=8,
        color="black",
        name="",
        time_control=TimeControl.correspondence(days=3),
    )
    game = games.join_game(player=ann, game_id=game.public_id, name="")
    point = selectors.position_of(game).legal_moves()[0]
    games.play(player=bob, game_id=game.public_id, ply=game.ply, point=list(point))
    return game


def test_a_move_reaches_the_opponents_device_signed_and_encrypted_for_it(
    service: PushService, vapid_key: str
) -> None:
    (ann, as_ann), (_, as_bob) = account("ann"), account("bob")
    phone = service.device("ann-phone")
    subscribed(ann, phone)

    game = bob_moves_against(as_ann, as_bob)
    assert outbox.deliver(process="test", send=channels.send) == 1

    [push] = service.received
    assert push.path == "/push/ann-phone"
    assert push.headers["content-encoding"] == "aes128gcm"
    assert int(push.headers["ttl"]) == channels.PUSH_TTL
    claims = vapid_claims(push.headers["authorization"], public_key=vapid_key)
    assert claims["aud"] == service.url  # the push service's origin (RFC 8292)
    assert claims["sub"] == "mailto:admin@games.example.org"
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    notification = Notification.objects.get(user=ann)
    assert phone.decrypt(push.body) == {
        "title": "Othello & Go",
        "body": "Your move against bob (Othello 8×8)",
        "url": f"/games/{game.public_id}/",
        "kind": "your_move",
        "id": notification.pk,
    }
    assert Delivery.objects.get().status == "sent"

    # Another device, or a snooper with other keys, cannot read it.
    with pytest.raises(http_ece.ECEException):
        service.device("other").decrypt(push.body)


def test_each_of_an_accounts_devices_gets_its_own_message(service: PushService) -> None:
    (ann, as_ann), (_, as_bob) = account("ann"), account("bob")
    phone, laptop = service.device("phone"), service.device("laptop")
    subscribed(ann, phone)
    subscribed(ann, laptop)

    bob_moves_against(as_ann, as_bob)
    outbox.deliver(process="test", send=channels.send)

    by_path = {push.path: push for push in service.received}
    assert sorted(by_path) == ["/push/laptop", "/push/phone"]
    assert phone.decrypt(by_path["/push/phone"].body)["kind"] == "your_move"
    assert laptop.decrypt(by_path["/push/laptop"].body)["kind"] == "your_move"


@pytest.mark.parametrize("status", [404, 410])
def test_a_device_the_push_service_says_is_gone_is_forgotten(
    service: PushService, status: int
) -> None:
    (ann, as_ann), (_, as_bob) = account("ann"), account("bob")
    gone, kept = service.device("gone"), service.device("kept")
    subscribed(ann, gone)
    subscribed(ann, kept)
    service.statuses["/push/gone"] = status

    bob_moves_against(as_ann, as_bob)
    outbox.deliver(process="test", send=channels.send)

    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [kept.endpoint]
    assert list(Delivery.objects.values_list("status", flat=True)) == ["sent"]
    assert Notification.objects.filter(user=ann).count() == 1  # the site still shows it


def test_a_push_service_in_trouble_is_tried_again_later(
    service: PushService, frozen_clock: FrozenClock
) -> None:
    (ann, as_ann), (_, as_bob) = account("ann"), account("bob")
    phone = service.device("phone")
    subscribed(ann, phone)
    service.status = 500

    bob_moves_against(as_ann, as_bob)
    outbox.deliver(process="test", send=channels.send)

    failed = Delivery.objects.get()
    assert (failed.status, failed.attempts) == ("pending", 1)
    assert "500" in failed.last_error
    assert (failed.next_try_at - frozen_clock.now).total_seconds() == 30
    frozen_clock.advance(29)
    assert outbox.deliver(process="test", send=channels.send) == 0  # not yet
    assert len(service.received) == 1

    service.status = 201
    frozen_clock.advance(1)
    assert outbox.deliver(process="test", send=channels.send) == 1
    assert len(service.received) == 2
    assert phone.decrypt(service.received[-1].body)["kind"] == "your_move"
    assert Delivery.objects.get().status == "sent"
    assert PushSubscription.objects.exists()


def test_a_device_whose_keys_are_not_a_browsers_is_refused() -> None:
    ann, _ = account("ann")
    browser = Client()
    browser.force_login(ann)
    device = Device("https://push.example/1").subscription()
    for keys_given in (
        {"p256dh": "BP", "auth": device["keys"]["auth"]},  # not a P-256 point
        {"p256dh": device["keys"]["p256dh"], "auth": "c2hvcnQ"},  # not 16 bytes
        {"p256dh": device["keys"]["p256dh"] + "!", "auth": device["keys"]["auth"]},
    ):
        answer = browser.post(
            "/notifications/push/",
            json.dumps({**device, "keys": keys_given}),
            content_type="application/json",
        )
        assert answer.status_code == 400, keys_given
        assert answer.json()["error"] == "bad_request"
    assert not PushSubscription.objects.exists()
