# ruff: noqa: RUF001 (the words name a board with the multiplication sign, as the site does)
"""Web Push in Chromium: the service worker registers for the whole site, the "Notify me on
this device" switch does what the browser allows (headless Chromium's contexts are private
windows, which have no push service: the page says so and the switch stays off), and the
service worker shows a pushed message as a notification (the push delivered through the
DevTools protocol, as a push service would deliver it).

The server's side of a push (VAPID, the encryption, a service answering 404, 410 or 500)
is tested end to end in tests/notifications/test_push.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, CDPSession, Page, expect

from tests.browser.test_accounts import DESKTOP, PHONE, shoot, sign_up
from tests.support.push_service import Device

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]


def settings_page(context: BrowserContext) -> Page:
    page = context.new_page()
    sign_up(page)
    page.goto("/notifications/settings/")
    expect(page.locator("#push-device")).to_have_attribute("data-state", "off")
    return page


def registration_ids(cdp: CDPSession, page: Page, scope: str) -> list[str]:
    """The ids DevTools gives the service worker registrations of ``scope`` (DevTools may
    list those of the browser's other contexts on the same origin too)."""
    found: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: found.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(50):
        live = [r for r in found if not r["isDeleted"] and r["scopeURL"] == scope]
        if live:
            return sorted({str(r["registrationId"]) for r in live})
        page.wait_for_timeout(100)
    raise AssertionError("DevTools named no service worker registration")


Shown = list[dict[str, Any]]


def pushed(push: Callable[[], None], page: Page, holds: Callable[[Shown], bool]) -> Shown:
    """The notifications the service worker shows once ``push`` was delivered, read in the
    poll in which ``holds`` first holds of them (a second read could find the list changed
    again: the browser may close a notification at any time).

    DevTools' ``deliverPushMessage`` drops a push now and then in Debian's Chromium 156
    (none to two of twelve in a run after other contexts used the origin; the worker reports
    no error and shows the next one): a push that shows nothing within 2 s is delivered
    again, as a push service delivers again what the browser did not take, three times at
    most."""
    shown: Shown = []
    for _ in range(3):
        push()
        for _ in range(20):
            shown = page.evaluate(
                """navigator.serviceWorker.ready
                     .then((r) => r.getNotifications())
                     .then((all) => all.map(
                       (n) => ({title: n.title, body: n.body, tag: n.tag, data: n.data})))"""
            )
            if holds(shown):
                return shown
            page.wait_for_timeout(100)
    raise AssertionError(f"the notifications shown never held: {shown}")


def your_move(pk: int, text: str, game: str) -> str:
    """What the server pushes for a your_move to an English-speaking account (the payload
    tests/notifications/test_push.py decrypts: notifications.channels.push_payload)."""
    return json.dumps(
        {
            "title": "Othello & Go",
            "body": text,
            "url": f"/games/{game}/",
            "kind": "your_move",
            "id": pk,
        }
    )


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_service_worker_registers_and_the_switch_does_what_the_browser_allows(
    new_context: NewContext, base_url: str, output_path: str, viewport: dict[str, int]
) -> None:
    context = new_context(viewport=viewport)
    context.grant_permissions(["notifications"], origin=base_url)
    page = settings_page(context)

    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == f"{base_url}/"  # one worker for the whole site (Service-Worker-Allowed)
    worker = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")
    assert worker == f"{base_url}/sw.js"
    switch = page.get_by_label("Notify me on this device")
    status = page.locator("#push-status")
    expect(switch).to_be_enabled()
    expect(switch).not_to_be_checked()
    expect(status).to_have_text("This device is not notified.")

    switch.click()
    device = page.locator("#push-device")
    expect(device).not_to_have_attribute("data-state", "busy", timeout=40_000)
    subscription = page.evaluate(
        "navigator.serviceWorker.ready.then((r) => r.pushManager.getSubscription())"
        ".then((s) => s && s.toJSON())"
    )
    shoot(page, output_path, f"push/switch-{viewport['width']}.png")
    if subscription is None:
        # Headless Chromium's contexts are private windows: no push service. The page says
        # so, keeps the switch off, and lets the person try again.
        expect(device).to_have_attribute("data-state", "off")
        expect(status).to_contain_text("This browser has no push service for this site")
        expect(status).to_have_class("muted error")
        expect(switch).not_to_be_checked()
        expect(switch).to_be_enabled()
    else:  # a browser with a push service: subscribed, and the server told
        expect(device).to_have_attribute("data-state", "on")
        expect(status).to_have_text("This device is notified.")
        expect(switch).to_be_checked()
        assert set(subscription["keys"]) == {"p256dh", "auth"}


def test_notifications_refused_by_the_browser_are_named(new_context: NewContext) -> None:
    page = settings_page(new_context(viewport=DESKTOP))  # no permission granted: refused

    page.get_by_label("Notify me on this device").click()

    expect(page.locator("#push-status")).to_have_text(
        "This browser does not allow notifications from this site: allow them in its settings."
    )
    expect(page.get_by_label("Notify me on this device")).not_to_be_checked()


def test_an_endpoint_the_server_refuses_is_named_and_the_switch_stays_off(
    new_context: NewContext, base_url: str
) -> None:
    context = new_context(viewport=DESKTOP)
    context.grant_permissions(["notifications"], origin=base_url)
    # A browser whose push service lives on the server's own loopback (or a page that
    # says so): what the server refuses, the page says, and keeps nothing half done.
    subscription = Device("https://127.0.0.1:9443/push/1").subscription()
    context.add_init_script(
        f"""PushManager.prototype.subscribe = async function () {{
              return {{
                endpoint: {json.dumps(subscription["endpoint"])},
                toJSON: () => ({json.dumps(subscription)}),
                unsubscribe: async () => {{ window.unsubscribed = true; return true; }},
              }};
            }};"""
    )
    page = settings_page(context)

    page.get_by_label("Notify me on this device").click()

    expect(page.locator("#push-status")).to_have_text(
        "That did not work: a push endpoint's host must have public internet addresses only"
    )
    expect(page.get_by_label("Notify me on this device")).not_to_be_checked()
    assert page.evaluate("window.unsubscribed") is True


def test_the_service_worker_shows_a_pushed_notification(
    new_context: NewContext, base_url: str
) -> None:
    context = new_context(viewport=DESKTOP)
    context.grant_permissions(["notifications"], origin=base_url)
    page = settings_page(context)
    cdp = context.new_cdp_session(page)
    registrations = registration_ids(cdp, page, f"{base_url}/")

    def push(data: str) -> Callable[[], None]:
        def deliver() -> None:
            for registration in registrations:
                cdp.send(
                    "ServiceWorker.deliverPushMessage",
                    {"origin": base_url, "registrationId": registration, "data": data},
                )

        return deliver

    first = push(your_move(7, "Your move against bob (Othello 8×8)", "abc"))
    assert pushed(first, page, lambda seen: len(seen) > 0) == [
        {
            "title": "Othello & Go",
            "body": "Your move against bob (Othello 8×8)",
            "tag": "your_move:/games/abc/",
            "data": {"url": "/games/abc/", "id": 7},
        }
    ]

    # A newer message about the same game replaces it; another game's is shown beside it.
    again = push(your_move(8, "Your move against bob (Othello 8×8), again", "abc"))
    replaced = pushed(again, page, lambda seen: any(one["data"]["id"] == 8 for one in seen))
    assert [n["body"] for n in replaced] == ["Your move against bob (Othello 8×8), again"]
    other = push(your_move(9, "Your move against cyd (Go 9×9)", "xyz"))
    both = pushed(other, page, lambda seen: any(one["data"]["id"] == 9 for one in seen))
    assert sorted(n["body"] for n in both) == [
        "Your move against bob (Othello 8×8), again",
        "Your move against cyd (Go 9×9)",
    ]

    # A message that is not the server's JSON is still shown, as text.
    plain_words = push("plain words")
    now = pushed(plain_words, page, lambda seen: any(n["body"] == "plain words" for n in seen))
    plain = next(n for n in now if n["body"] == "plain words")
    assert plain["title"] == "Othello & Go" and plain["data"]["url"] == "/"
