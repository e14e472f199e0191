"""notifications.services: a notification stored for an account in the event's
transaction, with its deliveries as the account chose; reading and marking read."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from notifications import services, texts
from notifications.models import Delivery, Kind, Notification, PushSubscription
from tests.support.helpers import verified_account
from tests.support.push_service import Device, FakeDNS

pytestmark = pytest.mark.django_db


def account(name: str, email: str = "") -> User:
    """An account; its ``email``, if any, verified (notifications mail only such)."""
    return verified_account(name, email=email)  # type: ignore[no-any-return]


def subscribe(user: User, n: int = 1) -> None:
    for number in range(n):
        PushSubscription.objects.create(
            user=user,
            endpoint=f"https://push.example/{user.pk}/{number}",
            p256dh="key",
            auth="secret",
        )


def notify(user: User, kind: str = Kind.CHALLENGE, **fields: Any) -> Notification:
    """A notification saying ``text`` as it is: these tests are about storing and
    delivering (the words made when read: test_texts.py)."""
    told = services.notify(
        user_id=user.pk,
        kind=kind,
        params={texts.LEGACY: fields.pop("text", "Bob challenges you")},
        url=fields.pop("url", "/games/x/"),
        **fields,
    )
    assert told is not None
    return told


@pytest.mark.parametrize(
    ("kind", "email", "push_devices", "channels"),
    [
        (Kind.CHALLENGE, "ann@example.org", 0, ["email"]),
        (Kind.CHALLENGE, "", 0, []),  # no address: no e-mail
        (Kind.CHALLENGE, "ann@example.org", 2, ["email", "push", "push"]),
        (Kind.GAME_OVER, "ann@example.org", 1, ["push"]),  # e-mail off by default
        (Kind.YOUR_MOVE, "ann@example.org", 0, ["email"]),
    ],
)
def test_deliveries_follow_the_defaults(
    kind: str, email: str, push_devices: int, channels: list[str]
) -> None:
    ann = account("ann", email)
    subscribe(ann, push_devices)

    notify(ann, kind, subject="game:x")

    assert sorted(Delivery.objects.values_list("channel", flat=True)) == channels


def test_the_accounts_choice_wins_over_the_default() -> None:
    ann = account("ann", "ann@example.org")
    subscribe(ann)
    services.choose(user_id=ann.pk, kind=Kind.CHALLENGE, email=False, push=False)
    services.choose(user_id=ann.pk, kind=Kind.GAME_OVER, email=True, push=False)

    notify(ann, Kind.CHALLENGE)
    notify(ann, Kind.GAME_OVER)

    assert list(Delivery.objects.values_list("channel", "notification__kind")) == [
        ("email", "game_over")
    ]
    assert Notification.objects.count() == 2, "the site always shows them"


def test_an_event_that_rolls_back_tells_nobody() -> None:
    ann = account("ann", "ann@example.org")

    with pytest.raises(RuntimeError), transaction.atomic():
        notify(ann)
        raise RuntimeError("the move failed")

    assert not Notification.objects.exists() and not Delivery.objects.exists()


def test_your_move_is_one_notification_and_one_mail_until_the_player_moves() -> None:
    ann = account("ann", "ann@example.org")
    for text in ("Your move (1)", "Your move (2)"):
        notify(ann, Kind.YOUR_MOVE, subject="game:g1", text=text)

    assert [notification.text for notification in Notification.objects.all()] == ["Your move (2)"]
    assert Delivery.objects.count() == 1

    assert services.seen(user_id=ann.pk, subject="game:g1") == 1  # Ann moved
    notify(ann, Kind.YOUR_MOVE, subject="game:g1", text="Your move (3)")
    assert Notification.objects.count() == 2 and Delivery.objects.count() == 2
    notify(ann, Kind.YOUR_MOVE, subject="game:g2", text="Another game")
    assert Delivery.objects.count() == 3


def test_a_move_not_by_correspondence_is_not_mailed() -> None:
    ann = account("ann", "ann@example.org")
    subscribe(ann)

    notify(ann, Kind.YOUR_MOVE, subject="game:g", email=False)

    assert list(Delivery.objects.values_list("channel", flat=True)) == ["push"]


def test_latest_lists_newest_first_fifty_at_most_and_counts_unread() -> None:
    ann, bob = account("ann"), account("bob")
    for number in range(55):
        notify(ann, text=f"n{number}")
    notify(bob, text="bob's")
    services.mark_read(
        user_id=ann.pk,
        ids=list(Notification.objects.filter(user=ann).values_list("pk", flat=True)[:5]),
    )

    found = services.latest(user_id=ann.pk)

    assert found["unread"] == 50
    assert len(found["notifications"]) == 50
    assert found["notifications"][0]["text"] == "n54"
    assert set(found["notifications"][0]) == {"id", "kind", "text", "url", "created", "read"}


def test_marking_read_touches_only_the_accounts_own() -> None:
    ann, bob = account("ann"), account("bob")
    mine = notify(ann)
    theirs = notify(bob)

    assert services.mark_read(user_id=ann.pk, ids=[mine.pk, theirs.pk]) == 1
    assert Notification.objects.get(pk=theirs.pk).read_at is None
    assert services.mark_read(user_id=bob.pk, ids=None) == 1
    assert services.unread_count(bob.pk) == 0


@pytest.mark.parametrize(
    "subscription",
    [
        None,
        {},
        {"endpoint": "https://push.example/1"},
        {"endpoint": "https://push.example/1", "keys": {"p256dh": "a"}},
        {**Device("http://evil.example/1").subscription()},
        {**Device("https://push.example/1").subscription(), "endpoint": 3},
        {"endpoint": "https://push.example/1", "keys": {"p256dh": "a", "auth": "b"}},
    ],
)
def test_a_bad_subscription_is_refused(subscription: Any) -> None:
    ann = account("ann")
    with pytest.raises(services.NotificationError):
        services.subscribe(user_id=ann.pk, subscription=subscription)
    assert not PushSubscription.objects.exists()


def test_the_same_device_subscribes_once(dns: FakeDNS) -> None:
    ann = account("ann")
    services.subscribe(user_id=ann.pk, subscription=Device("https://push.example/1").subscription())
    again = Device("https://push.example/1")  # the browser renewed its keys
    services.subscribe(user_id=ann.pk, subscription=again.subscription())
    assert list(PushSubscription.objects.values_list("p256dh", flat=True)) == [again.p256dh]


def test_a_plain_http_endpoint_needs_its_host_exempt(settings: Any) -> None:
    ann = account("ann")
    body = Device("http://127.0.0.1:9/push").subscription()
    with pytest.raises(services.EndpointRefused):
        services.subscribe(user_id=ann.pk, subscription=body)
    settings.PUSH_ENDPOINT_ALLOW = ["localhost"]  # another host exempt: no
    with pytest.raises(services.EndpointRefused):
        services.subscribe(user_id=ann.pk, subscription=body)
    settings.PUSH_ENDPOINT_ALLOW = ["127.0.0.1"]
    services.subscribe(user_id=ann.pk, subscription=body)


def test_notify_many_tells_each_account_as_it_chose_in_a_few_queries(
    django_assert_max_num_queries: Any,
) -> None:
    ann, bob = account("ann", "ann@example.org"), account("bob", "bob@example.org")
    others = [account(f"p{n}") for n in range(20)]
    subscribe(ann, 2)
    services.choose(user_id=bob.pk, kind=Kind.ROUND_PAIRED, email=True, push=False)
    ids = [ann.pk, bob.pk, *(user.pk for user in others)]
    urls = {user_id: f"/games/{user_id}/" for user_id in ids}
    # The accounts read in one statement, the notifications stored in one, the deliveries
    # in one (SQLite returns the new keys as PostgreSQL does).
    with django_assert_max_num_queries(3):
        made = services.notify_many(
            user_ids=ids, kind=Kind.ROUND_PAIRED, params={"name": "Open"}, url=urls
        )
    assert [notification.user_id for notification in made] == ids
    assert Notification.objects.get(user=bob).url == f"/games/{bob.pk}/"
    assert sorted(Delivery.objects.values_list("notification__user__username", "channel")) == [
        ("ann", "push"),
        ("ann", "push"),
        ("bob", "email"),
    ]
    with pytest.raises(services.NotificationError):
        services.notify_many(user_ids=ids, kind="nonsense", params={}, url="")


def test_notify_many_refreshing_keeps_one_notification_an_account_unread_again() -> None:
    ann, bob = account("ann", "ann@example.org"), account("bob", "bob@example.org")
    subscribe(ann, 1)
    first = timezone.now()
    services.notify_many(
        user_ids=[ann.pk],
        kind=Kind.ROUND_PAIRED,
        params={"name": "Open 1"},
        url="/games/1/",
        subject="t:1",
    )
    Notification.objects.update(read_at=first)
    pushed = Delivery.objects.count()
    later = first + datetime.timedelta(minutes=3)
    made = services.notify_many(
        user_ids=[ann.pk, bob.pk],
        kind=Kind.ROUND_PAIRED,
        params={"name": "Open 2"},
        url={ann.pk: "/games/2/", bob.pk: "/games/3/"},
        subject="t:1",
        refresh=True,
        now=later,
    )
    [again] = Notification.objects.filter(user=ann)
    assert (again.text, again.url, again.read_at, again.created_at) == (
        "Open 2: your game is ready.",
        "/games/2/",
        None,
        later,
    )
    assert {notification.user_id for notification in made} == {ann.pk, bob.pk}
    assert Notification.objects.get(user=bob).url == "/games/3/"
    # The refreshed one is not delivered again; the new one as usual (bob has no device).
    assert Delivery.objects.count() == pushed
    # Another subject is another notification.
    services.notify_many(
        user_ids=[ann.pk],
        kind=Kind.ROUND_PAIRED,
        params={"name": "Open 9"},
        url="/",
        subject="t:2",
        refresh=True,
    )
    assert Notification.objects.filter(user=ann).count() == 2


def test_notify_is_notify_many_for_one_account_your_move_refreshed_for_either() -> None:
    ann, bob = account("ann", "ann@example.org"), account("bob", "bob@example.org")
    moves = {"kind": Kind.YOUR_MOVE, "params": {texts.LEGACY: "Your move"}, "subject": "g1"}

    first = services.notify(user_id=ann.pk, url="/games/g1/", **moves)
    again = services.notify_many(user_ids=[ann.pk, bob.pk], url="/games/g1/", **moves)

    assert first is not None and [n.user_id for n in again] == [ann.pk, bob.pk]
    assert again[0].pk == first.pk  # refreshed, not made again
    assert Notification.objects.filter(user=ann).count() == 1
    assert sorted(Delivery.objects.values_list("notification__user__username", flat=True)) == [
        "ann",
        "bob",
    ]  # one mail each: none again for the refreshed one
    off = services.notify(
        user_id=ann.pk, kind=Kind.FOLLOW_PLAYING, params={}, url="/games/g2/", subject="g2"
    )
    assert off is None  # off by default, for one account as for many
