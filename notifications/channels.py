"""How a delivery leaves the site: an e-mail (Django's mail, a plain-text and an HTML part,
a signed one-click unsubscribe link and the ``List-Unsubscribe`` headers, RFC 2369 and
8058), or a Web Push message (``pywebpush``: VAPID, RFC 8291's encryption) to one device,
sent only where ``notifications.endpoints`` allows (``notifications.pinned``)."""

from __future__ import annotations

import datetime
import json
import logging
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.languages import of_account
from accounts.selectors import verified_email
from notifications import endpoints, keys, site, texts
from notifications.models import Delivery, Kind, Notification
from notifications.outbox import Gone

logger = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "notifications.unsubscribe"
PUSH_TTL = 24 * 3600
"""How long a push service keeps a message for a device that is offline (seconds)."""


def send(delivery: Delivery) -> None:
    """Send ``delivery`` by its channel. Raises ``outbox.Gone`` for a device whose push
    subscription is gone, or an e-mail whose account has no verified address (any more),
    anything else for a failure worth trying again."""
    if delivery.channel == Delivery.Channel.EMAIL:
        send_email(delivery.notification)
    else:
        assert delivery.subscription is not None
        send_push(delivery)


def unsubscribe_token(*, user_id: int, kind: str) -> str:
    """A signed token that stops ``kind``'s e-mails to the account (no login needed)."""
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """The account and kind of an unsubscribe token; raises ``signing.BadSignature``."""
    found: Any = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    if not isinstance(found, dict) or found.get("k") not in Kind.values:
        raise signing.BadSignature("not an unsubscribe token")
    return int(found["u"]), str(found["k"])


def email_message(
    notification: Notification, address: str, *, now: datetime.datetime | None = None
) -> EmailMultiAlternatives:
    """The e-mail of ``notification`` to ``address``: a subject, a plain-text part and an
    HTML part, each with its words and further lines (``texts.details_of``: a move's
    notification says the opponent's move and the time left as of ``now``), the link to
    the page and the one-click unsubscribe link of its kind, written now in the account's
    language (``accounts.languages.of_account``), the links starting with the site's
    address (``site.links``)."""
    with translation.override(of_account(notification.user_id)):
        return _email_message(notification, address, now or timezone.now())


def _email_message(
    notification: Notification, address: str, now: datetime.datetime
) -> EmailMultiAlternatives:
    user = notification.user
    start = site.links(notification.site, notification_id=notification.pk)
    unsubscribe = start + reverse(
        "notifications:unsubscribe",
        args=[unsubscribe_token(user_id=user.pk, kind=notification.kind)],
    )
    text = notification.text
    context = {
        "text": text,
        "details": texts.details_of(notification.kind, notification.params, now),
        "username": user.get_username(),
        "link": start + notification.url,
        "unsubscribe": unsubscribe,
        "kind": str(Kind(notification.kind).label).lower(),
        "settings": start + reverse("notifications:settings"),
    }
    message = EmailMultiAlternatives(
        subject=gettext("Othello & Go: %(text)s") % {"text": text},
        body=render_to_string("notifications/email.txt", context),
        to=[address],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(render_to_string("notifications/email.html", context), "text/html")
    return message


def send_email(notification: Notification) -> None:
    """Send ``notification`` by e-mail to its account's verified address. Raises
    ``outbox.Gone`` when it has none (its address was verified when the delivery was
    written, and no longer is: another account verified it, or it was changed)."""
    address = verified_email(notification.user_id)
    if not address:
        raise Gone("the account has no verified address")
    email_message(notification, address).send(fail_silently=False)


def push_payload(notification: Notification) -> dict[str, Any]:
    """What a device's service worker gets: the notification (N) and its title (the
    site's name), in the account's language."""
    with translation.override(of_account(notification.user_id)):
        title, body = gettext("Othello & Go"), notification.text
    return {
        "title": title,
        "body": body,
        "url": notification.url,
        "kind": notification.kind,
        "id": notification.pk,
    }


def send_push(delivery: Delivery) -> None:
    """Push ``delivery``'s notification to its device, connecting only to the address
    its endpoint's host was checked at (``PinnedSession``: no redirect, 10 s at most).
    Raises ``Gone`` when the push service says the subscription no longer exists (404,
    410), and when the endpoint is refused now (not https, or an address that is not
    public, whatever it was when the device subscribed): a refused device is forgotten,
    never tried again."""
    from pywebpush import WebPushException, webpush  # heavy: only where pushes are sent

    from notifications.pinned import PinnedSession  # requests, likewise

    subscription = delivery.subscription
    assert subscription is not None
    info = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    allow = settings.PUSH_ENDPOINT_ALLOW
    try:
        endpoints.parse(subscription.endpoint, allow=allow)
        with PinnedSession(allow=allow) as session:
            webpush(
                subscription_info=info,
                data=json.dumps(push_payload(delivery.notification)),
                vapid_private_key=keys.vapid_private_key(),
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                ttl=PUSH_TTL,
                requests_session=session,
            )
    except endpoints.Refused as refused:
        logger.warning("push endpoint of subscription %s refused: %s", subscription.pk, refused)
        raise Gone(f"the endpoint is refused: {refused}") from None
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in (404, 410):
            raise Gone(f"the push service answered {status}") from None
        raise
