"""notifications.outbox: each delivery sent once whatever the number of processes,
retried with back-off after a failure, given up after a day; e-mails through Django's
backends and a real SMTP server; a push service's "gone" ends the subscription."""

from __future__ import annotations

import datetime
import doctest
import socket
from collections.abc import Iterator
from email import message_from_bytes
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from notifications import channels, outbox, services
from notifications.models import Delivery, Kind, Notification, Preference, PushSubscription
from tests.conftest import FrozenClock
from tests.support.concurrency import at_once
from tests.support.helpers import verified_account

pytestmark = pytest.mark.django_db

CHALLENGES_YOU = "challenges you to a game of Othello 8\N{MULTIPLICATION SIGN}8"


def challenger(name: str) -> dict[str, Any]:
    """A ``challenge`` notification's parameters: ``name`` challenges to Othello 8x8."""
    return {"name": name, "kind": "othello", "size": 8}


BOB = challenger("Bob")


def challenge_for(name: str = "ann") -> Delivery:
    user = verified_account(name, email=f"{name}@example.org")
    services.notify(user_id=user.pk, kind=Kind.CHALLENGE, params=BOB, url="/g/")
    return Delivery.objects.get(notification__user=user)


def never_fails(delivery: Delivery) -> None:
    sent.append(delivery.pk)


sent: list[int] = []


@pytest.fixture(autouse=True)
def nothing_sent_yet() -> Iterator[None]:
    sent.clear()
    yield
    sent.clear()


def test_two_processes_send_a_delivery_once(frozen_clock: FrozenClock) -> None:
    delivery = challenge_for()

    assert outbox.claim(process="a") == [delivery.pk]
    assert outbox.claim(process="b") == []  # held by a
    assert outbox.deliver(process="b", send=never_fails) == 0
    frozen_clock.advance(30)
    assert outbox.claim(process="b") == []  # still a's: its lease runs a minute

    assert outbox.settle(delivery.pk, process="a", error=None) == "sent"
    frozen_clock.advance(120)
    assert outbox.deliver(process="b", send=never_fails) == 0
    assert sent == []
    assert Delivery.objects.get().status == "sent"


def test_a_process_that_died_holding_a_delivery_hands_it_over(frozen_clock: FrozenClock) -> None:
    delivery = challenge_for()
    outbox.claim(process="dead")
    frozen_clock.advance(61)

    assert outbox.deliver(process="alive", send=never_fails) == 1
    assert sent == [delivery.pk]
    assert outbox.settle(delivery.pk, process="dead", error=None) is None  # too late
    assert Delivery.objects.get().status == "sent"


def test_a_failure_is_tried_again_after_a_growing_wait(frozen_clock: FrozenClock) -> None:
    delivery = challenge_for()

    def fails(delivery: Delivery) -> None:
        raise ConnectionRefusedError("the SMTP server is down")

    outbox.deliver(process="a", send=fails)
    failed = Delivery.objects.get()
    assert (failed.status, failed.attempts) == ("pending", 1)
    assert "ConnectionRefusedError" in failed.last_error
    assert failed.next_try_at == frozen_clock.now + datetime.timedelta(seconds=30)
    assert outbox.deliver(process="a", send=never_fails) == 0  # not yet
    frozen_clock.advance(30)
    outbox.deliver(process="a", send=fails)
    assert Delivery.objects.get().next_try_at == frozen_clock.now + datetime.timedelta(seconds=60)
    frozen_clock.advance(60)
    assert outbox.deliver(process="a", send=never_fails) == 1
    assert (Delivery.objects.get().status, sent) == ("sent", [delivery.pk])


@pytest.mark.parametrize(
    ("attempts", "wait"), [(1, 30), (2, 60), (3, 120), (7, 1920), (8, 3600), (30, 3600)]
)
def test_the_back_off_doubles_up_to_an_hour(attempts: int, wait: int) -> None:
    assert outbox.retry_after(attempts) == datetime.timedelta(seconds=wait)


def test_a_delivery_failing_for_a_day_is_given_up_and_marked_so(
    frozen_clock: FrozenClock,
) -> None:
    challenge_for()

    def fails(delivery: Delivery) -> None:
        raise OSError("no route to host")

    for _ in range(100):
        outbox.deliver(process="a", send=fails)
        frozen_clock.advance(3600)
    given_up = Delivery.objects.get()
    assert given_up.status == "gave_up"
    assert given_up.next_try_at - given_up.created_at > outbox.GIVE_UP_AFTER
    assert 20 < given_up.attempts < 40
    assert outbox.deliver(process="a", send=never_fails) == 0


def test_the_doctests_hold() -> None:
    assert doctest.testmod(outbox).failed == 0


def test_a_delivery_that_waited_long_is_not_given_up_at_its_first_failure(
    frozen_clock: FrozenClock,
) -> None:
    """The day is one of failed tries: the time a delivery waited before its first try
    (for the hourly cap of e-mails, or a server down) is not counted."""
    delivery = challenge_for()
    frozen_clock.advance(2 * 24 * 3600)

    def fails(delivery: Delivery) -> None:
        raise OSError("no route to host")

    outbox.deliver(process="a", send=fails)

    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("pending", 1)


# The hourly cap of e-mails


def test_an_account_gets_20_notification_emails_an_hour_and_the_rest_later(
    frozen_clock: FrozenClock,
) -> None:
    ann = verified_account("ann", email="ann@example.org")
    bob = verified_account("bob", email="bob@example.org")
    PushSubscription.objects.create(
        user=ann, endpoint="https://push.example/1", p256dh="k", auth="a"
    )
    pushed: list[int] = []

    def send(delivery: Delivery) -> None:
        if delivery.channel == Delivery.Channel.PUSH:
            pushed.append(delivery.pk)
        else:
            channels.send(delivery)

    def drain() -> None:
        while outbox.deliver(process="a", send=send):
            pass

    def mails_to(user: User) -> int:
        return sum(message.to == [user.email] for message in mail.outbox)

    start = frozen_clock.now
    for number in range(25):  # one a second, each sent at once while the hour allows
        services.notify(
            user_id=ann.pk, kind=Kind.CHALLENGE, params=challenger(f"p{number}"), url=f"/g{number}/"
        )
        drain()
        frozen_clock.advance(1)

    assert mails_to(ann) == outbox.EMAILS_AN_HOUR == 20
    assert len(pushed) == 25  # pushes are not held back
    waiting = Delivery.objects.filter(channel="email", status="pending")
    assert waiting.count() == 5
    # They wait until the first of the hour's 20 leaves the hour, kept whole.
    assert {row.next_try_at for row in waiting} == {start + datetime.timedelta(hours=1)}
    assert {row.attempts for row in waiting} == {0}
    assert Notification.objects.filter(user=ann).count() == 25
    # Another account is not held back by ann's cap.
    services.notify(user_id=bob.pk, kind=Kind.CHALLENGE, params=BOB, url="/b/")
    drain()
    assert mails_to(bob) == 1

    frozen_clock.now = start + datetime.timedelta(seconds=3599)
    drain()
    assert mails_to(ann) == 20
    for second in range(5):  # each second one of the first 20 leaves the hour
        frozen_clock.advance(1)
        drain()
        assert mails_to(ann) == 21 + second
    assert not Delivery.objects.exclude(status="sent").exists()  # none lost, none given up
    assert sorted(message.subject for message in mail.outbox if message.to == [ann.email]) == (
        sorted(f"Othello & Go: p{number} {CHALLENGES_YOU}" for number in range(25))
    )


@pytest.mark.django_db(transaction=True)
def test_two_processes_claiming_at_once_send_an_account_20_an_hour_between_them() -> None:
    ann = verified_account("ann", email="ann@example.org")
    for _ in range(25):
        services.notify(user_id=ann.pk, kind=Kind.CHALLENGE, params=BOB, url="/g/")

    claimed = at_once(
        lambda: outbox.claim(process="a", limit=13), lambda: outbox.claim(process="b", limit=13)
    )

    assert sum(len(ids) for ids in claimed) == outbox.EMAILS_AN_HOUR
    assert Delivery.objects.filter(leased_until=None).count() == 5


def test_a_push_service_that_says_gone_ends_the_subscription() -> None:
    user = User.objects.create_user("ann")
    PushSubscription.objects.create(
        user=user, endpoint="https://push.example/1", p256dh="k", auth="a"
    )
    services.notify(user_id=user.pk, kind=Kind.CHALLENGE, params=BOB, url="/g/")

    def gone(delivery: Delivery) -> None:
        raise outbox.Gone("410")

    outbox.deliver(process="a", send=gone)

    assert not PushSubscription.objects.exists()
    assert not Delivery.objects.exists()  # it went with its device


# E-mails


def test_an_email_has_a_text_and_an_html_part_and_a_one_click_unsubscribe(
    settings: Any,
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://games.example.org"
    delivery = challenge_for()

    outbox.deliver(process="a", send=channels.send)

    [message] = mail.outbox
    assert message.to == ["ann@example.org"]
    assert message.subject == f"Othello & Go: Bob {CHALLENGES_YOU}"
    assert "https://games.example.org/g/" in message.body
    [(html, kind)] = message.alternatives
    assert kind == "text/html" and 'href="https://games.example.org/g/"' in html
    unsubscribe = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert unsubscribe.startswith("https://games.example.org/notifications/unsubscribe/")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe in message.body and unsubscribe in html
    assert Delivery.objects.get(pk=delivery.pk).status == "sent"

    # One click (a mail client's POST without a CSRF token, RFC 8058): no more of these.
    path = unsubscribe.removeprefix("https://games.example.org")
    assert Client(enforce_csrf_checks=True).post(path).status_code == 200
    choice = Preference.objects.get(user__username="ann", kind=Kind.CHALLENGE)
    assert (choice.email, choice.push) == (False, True)
    assert Client().get(path.replace("unsubscribe/", "unsubscribe/x")).status_code == 400


class Received:
    """What the test's SMTP server was given."""

    def __init__(self) -> None:
        self.messages: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_real_smtp_server_gets_the_mail_and_one_that_is_down_is_tried_again(
    settings: Any, frozen_clock: FrozenClock
) -> None:
    port = free_port()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", port, 5
    challenge_for()

    outbox.deliver(process="a", send=channels.send)  # nothing listens yet
    assert Delivery.objects.get().attempts == 1

    received = Received()
    server = Controller(received, hostname="127.0.0.1", port=port)
    server.start()
    try:
        frozen_clock.advance(30)
        outbox.deliver(process="a", send=channels.send)
    finally:
        server.stop()
    [message] = received.messages
    assert message["To"] == "ann@example.org"
    assert message["List-Unsubscribe"].strip().startswith("<http://127.0.0.1:8000/notifications/")
    assert message.is_multipart()
    assert [part.get_content_type() for part in message.walk()][1:] == ["text/plain", "text/html"]
    assert Delivery.objects.get().status == "sent"
