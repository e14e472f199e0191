# ruff: noqa: RUF001 (the words name a board with the multiplication sign, as the site does)
"""Web Push end to end: a device subscribes through ``POST /notifications/push/`` with keys
made as a browser makes them, its opponent moves in a correspondence game, the outbox runs
once, and the push service the test runs receives a VAPID-signed (RFC 8292) message
encrypted for the device (RFC 8291, aes128gcm) that decrypts to the notification; a
service answering 404 or 410 ends the subscription, one answering 500 is tried again
later (tests/support/push_service.py is the service and the device).

Where the server may connect (the endpoint is the subscriber's choice): only https hosts
whose addresses are all public, checked when the device subscribes and again, pinned,
at each send; a listener on the loopback (``Listener``) stands for the services inside
the server's network, and is never reached, whatever the endpoint's spelling, a name
that resolves inside by the time of the send, or a push service that redirects there."""

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
from django.http import HttpResponse
from django.test import Client

from accounts.players import Player
from gamerules.clock import TimeControl
from games import selectors
from games.models import Game
from games.services import lobby, play
from notifications import channels, keys, outbox, services
from notifications.models import Delivery, Kind, Notification, PushSubscription
from tests.conftest import FrozenClock
from tests.notifications.conftest import PUBLIC
from tests.support.push_service import (
    Device,
    FakeDNS,
    Listener,
    PushService,
    b64url,
    vapid_claims,
)

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
def service(settings: Any) -> Iterator[PushService]:
    """The tests' push service, on the loopback: its host exempt from the address check
    (``PUSH_ENDPOINT_ALLOW``), as a private deployment would name its own."""
    with PushService() as running:
        settings.PUSH_ENDPOINT_ALLOW = [running.host]
        yield running


@pytest.fixture
def listener() -> Iterator[Listener]:
    with Listener() as listening:
        yield listening


def account(name: str) -> tuple[User, Player]:
    user = User.objects.create_user(name)  # no e-mail address: push only
    return user, Player(session_key=f"{name}-session", user_id=user.pk, username=name)


def posted(user: User, device: Device) -> HttpResponse:
    """The device's page posts its subscription, as static/js/push.js does."""
    browser = Client()
    browser.force_login(user)
    answer: HttpResponse = browser.post(
        "/notifications/push/", json.dumps(device.subscription()), content_type="application/json"
    )
    return answer


def subscribed(user: User, device: Device) -> None:
    answer = posted(user, device)
    assert answer.status_code == 201, answer.content


def refused(answer: HttpResponse) -> str:
    """The message of a 400 ``endpoint_refused`` answer."""
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert (body["error"], body["field"]) == ("endpoint_refused", "endpoint")
    message: str = body["message"]
    return message


def challenged(user: User) -> None:
    """A challenge to ``user``: pushed to each of its devices once the outbox runs."""
    services.notify(
        user_id=user.pk,
        kind=Kind.CHALLENGE,
        params={"name": "Bob", "kind": "othello", "size": 8},
        url="/g/",
    )
    outbox.deliver(process="test", send=channels.send)


def bob_moves_against(ann: Player, bob: Player) -> Game:
    """A correspondence game, Bob black, Ann white: Bob moves, it is Ann's move."""
    game = lobby.create_game(
        player=bob,
        new=lobby.NewGame(
            kind="othello",
            size=8,
            color="black",
            name="",
            time_control=TimeControl.correspondence(days=3),
        ),
    )
    game = lobby.join_game(player=ann, game_id=game.public_id, name="")
    point = selectors.position_of(game).legal_moves()[0]
    play.play(player=bob, game_id=game.public_id, ply=game.ply, point=list(point))
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


# Where the server may connect


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://127.0.0.1:{port}/push/1",
        "https://localhost:{port}/push/1",
        "https://0x7f000001:{port}/push/1",
        "https://2130706433:{port}/push/1",
        "https://127.1:{port}/push/1",
        "https://[::1]:{port}/push/1",
        "https://[::ffff:127.0.0.1]:{port}/push/1",
        "https://169.254.169.254:{port}/latest/meta-data/",
        "https://10.0.0.7:{port}/push/1",
        "https://100.64.0.7:{port}/push/1",
        "https://inside.example:{port}/push/1",  # one of its addresses is the loopback
        "http://push.example:{port}/push/1",  # public, but plain http
    ],
)
def test_an_endpoint_inside_the_servers_network_is_refused_and_never_contacted(
    endpoint: str, listener: Listener, dns: FakeDNS
) -> None:
    dns.names["inside.example"] = [PUBLIC, "127.0.0.1"]
    ann, _ = account("ann")

    refused(posted(ann, Device(endpoint.format(port=listener.port))))
    challenged(ann)

    assert not PushSubscription.objects.exists()
    assert listener.contacted == []


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1", "localhost", "0x7f000001", "127.1", "[::1]", "[::ffff:127.0.0.1]"],
)
def test_an_endpoint_stored_before_the_check_is_never_contacted_and_is_forgotten(
    host: str, listener: Listener
) -> None:
    ann, _ = account("ann")
    device = Device(f"https://{host}:{listener.port}/push/1")
    PushSubscription.objects.create(
        user=ann, endpoint=device.endpoint, p256dh=device.p256dh, auth=b64url(device.auth)
    )

    challenged(ann)

    assert listener.contacted == []
    assert not PushSubscription.objects.exists()  # refused at the send: the device is forgotten
    assert not Delivery.objects.exists()  # and its delivery with it, not tried for a day
    assert Notification.objects.filter(user=ann).count() == 1  # the site still shows it


def test_a_name_that_resolves_inside_by_the_time_of_the_send_is_never_contacted(
    listener: Listener, dns: FakeDNS
) -> None:
    ann, _ = account("ann")
    subscribed(ann, Device(f"https://push.example:{listener.port}/push/1"))

    dns.names["push.example"] = ["127.0.0.1"]  # the attacker's DNS answers otherwise now
    challenged(ann)

    assert listener.contacted == []
    assert not PushSubscription.objects.exists()


def test_a_redirect_from_the_push_service_is_never_followed(
    service: PushService, listener: Listener
) -> None:
    ann, _ = account("ann")
    subscribed(ann, service.device("phone"))
    service.redirect = f"http://127.0.0.1:{listener.port}/latest/meta-data/iam/"

    challenged(ann)

    assert len(service.received) == 1
    assert listener.contacted == []
    failed = Delivery.objects.get()
    assert failed.status == "pending" and "303" in failed.last_error  # tried again later


def test_a_send_waits_ten_seconds_at_most(service: PushService, timeouts: list[Any]) -> None:
    ann, _ = account("ann")
    subscribed(ann, service.device("phone"))

    challenged(ann)

    [timeout] = timeouts
    assert (timeout.connect_timeout, timeout.read_timeout) == (10, 10)
    assert len(service.received) == 1


def test_an_account_holds_ten_devices_at_most(dns: FakeDNS) -> None:
    ann, _ = account("ann")
    devices = [Device(f"https://push.example/{number}") for number in range(11)]
    for device in devices[:10]:
        subscribed(ann, device)

    assert "10" in refused(posted(ann, devices[10]))
    assert PushSubscription.objects.filter(user=ann).count() == 10

    subscribed(ann, Device(devices[0].endpoint))  # a device renewing its keys is no 11th
    assert PushSubscription.objects.filter(user=ann).count() == 10
    services.unsubscribe_device(user_id=ann.pk, endpoint=devices[1].endpoint)
    subscribed(ann, devices[10])  # one turned off makes room


def test_another_accounts_endpoint_is_refused_and_stays_with_its_owner(dns: FakeDNS) -> None:
    (ann, _), (eve, _) = account("ann"), account("eve")
    phone = Device("https://push.example/ann-phone")
    subscribed(ann, phone)

    refused(posted(eve, Device(phone.endpoint)))  # Eve's keys for Ann's endpoint

    kept = PushSubscription.objects.get()
    assert (kept.user, kept.p256dh) == (ann, phone.p256dh)
