"""notifications.views over HTTP: the JSON, marking read, the list and settings pages, a
device's subscription, the service worker."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from notifications import services
from notifications.models import Kind, Notification, Preference, PushSubscription
from tests.support.push_service import Device, FakeDNS

pytestmark = pytest.mark.django_db


def logged_in(name: str = "ann") -> tuple[Client, User]:
    user = User.objects.create_user(name, email=f"{name}@example.org")
    browser = Client()
    browser.force_login(user)
    return browser, user


def tell(user: User, name: str = "Bob", kind: str = "othello", size: int = 8) -> Notification:
    told = services.notify(
        user_id=user.pk,
        kind=Kind.CHALLENGE,
        params={"name": name, "kind": kind, "size": size},
        url="/games/g/",
    )
    assert told is not None
    return told


def test_the_json_lists_the_accounts_notifications() -> None:
    browser, ann = logged_in()
    first, second = tell(ann, "first"), tell(ann, "second")

    answer = browser.get("/notifications.json").json()

    assert answer["unread"] == 2
    assert [n["id"] for n in answer["notifications"]] == [second.pk, first.pk]
    assert answer["notifications"][0] == {
        "id": second.pk,
        "kind": "challenge",
        "text": "second challenges you to a game of Othello 8×8",  # noqa: RUF001
        "url": "/games/g/",
        "created": second.created_at.isoformat(),
        "read": False,
    }
    assert Client().get("/notifications.json").status_code == 401


def test_marking_read_by_ids_or_all() -> None:
    browser, ann = logged_in()
    first, second, third = tell(ann), tell(ann), tell(ann)
    json_please = {"HTTP_ACCEPT": "application/json"}

    answer = browser.post("/notifications/read/", {"ids": f"{first.pk},{second.pk}"}, **json_please)
    assert answer.json() == {"marked": 2, "unread": 1}
    assert browser.post("/notifications/read/", {"ids": "x"}, **json_please).status_code == 400
    assert browser.post("/notifications/read/", {"all": "1"}).status_code == 302
    assert Notification.objects.get(pk=third.pk).read_at is not None
    assert Client().post("/notifications/read/", {"all": "1"}, **json_please).status_code == 401


def test_the_page_lists_them_and_the_bell_counts_them() -> None:
    browser, ann = logged_in()
    tell(ann, "Bob", "go", 9)

    page = browser.get("/notifications/").content.decode()

    assert "Bob challenges you to a game of Go 9×9" in page  # noqa: RUF001
    assert 'id="bell-count"' in page and 'data-unread="1"' in page
    assert Client().get("/notifications/").status_code == 302  # to the login page


def test_the_settings_page_keeps_each_kinds_choice() -> None:
    browser, ann = logged_in()
    page = browser.get("/notifications/settings/").content.decode()
    assert 'name="challenge-email" value="1" checked' in page
    assert 'data-key="' in page  # the VAPID key for this device's switch

    browser.post("/notifications/settings/", {"challenge-push": "1", "game_over-email": "1"})

    chosen = {row.kind: (row.email, row.push) for row in Preference.objects.filter(user=ann)}
    assert chosen[Kind.CHALLENGE] == (False, True)
    assert chosen[Kind.GAME_OVER] == (True, False)
    assert chosen[Kind.YOUR_MOVE] == (False, False)


def test_a_device_subscribes_and_unsubscribes(dns: FakeDNS) -> None:
    browser, ann = logged_in()
    body = Device("https://push.example/abc").subscription()

    made = browser.post("/notifications/push/", json.dumps(body), content_type="application/json")
    assert made.status_code == 201
    assert PushSubscription.objects.get().user == ann
    bad = browser.post("/notifications/push/", "{", content_type="application/json")
    assert bad.status_code == 400 and bad.json()["error"] == "bad_request"
    gone = browser.post(
        "/notifications/push/",
        json.dumps({"endpoint": body["endpoint"], "remove": True}),
        content_type="application/json",
    )
    assert gone.json() == {"removed": True} and not PushSubscription.objects.exists()
    refused = Client().post(
        "/notifications/push/", json.dumps(body), content_type="application/json"
    )
    assert refused.status_code == 401


def test_the_service_worker_is_served_at_the_root() -> None:
    answer = Client().get("/sw.js")

    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    assert b"showNotification" in answer.content
