"""Notifications' use cases: telling an account that something happened, reading them,
marking them read, the account's choices, a device's push subscription.

``notify`` is called by the apps above inside the transaction of the event (a move, a
challenge): the notification and its deliveries (an e-mail, a push per device, as the
account chose) are written there, so that an event that rolls back tells nobody, and one
that commits is never lost (the outbox sends the deliveries afterwards). Once the
transaction commits, the account's open pages hear ``{"type": "notification"}`` on their
lobby socket, and this process's outbox is nudged to send at once.

Your move, once: while an account has an unread ``your_move`` for a game, a new one for
that game refreshes it (no second notification, no second e-mail); the account's own move
in the game marks it read (``seen``). So a player never gets more than one ``your_move``
mail for a game until they have moved.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import re
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext

from broadcast import account_group, send_to_group
from notifications import endpoints, site, statements
from notifications.models import (
    Delivery,
    Kind,
    Notification,
    Preference,
    PushSubscription,
    words_of,
)

LATEST = 50
"""How many notifications ``GET /notifications.json`` lists."""

DEFAULTS: dict[str, tuple[bool, bool]] = {
    Kind.YOUR_MOVE: (True, True),
    Kind.CHALLENGE: (True, True),
    Kind.CHALLENGE_DECLINED: (False, True),
    Kind.GAME_OVER: (False, True),
    Kind.TOURNAMENT_STARTING: (False, True),
    Kind.ROUND_PAIRED: (False, True),
    Kind.TOURNAMENT_FORFEIT: (False, True),
    Kind.REPORT_CLOSED: (False, True),
    Kind.FOLLOW_PLAYING: (False, False),
}
"""Each kind's (e-mail, push) without a choice of the account's: e-mail for a challenge
and for your move in a correspondence game (docs/api/http.md), push for everything on the
devices the account asked it on (but a kind that is off by default)."""

OFF_BY_DEFAULT = frozenset({Kind.FOLLOW_PLAYING})
"""The kinds the site shows (and sends) only to an account that turned them on
(``Preference.site``): a followed account starting a game. Every other kind the site
always shows."""

delivery_due = Signal()
"""Sent after a commit that wrote deliveries: this process's outbox sends them at once
instead of at its next tick."""


class NotificationError(ValueError):
    """A request the notifications refuse (an unknown kind, a bad subscription): 400
    ``code``, naming ``field`` when there is one."""

    code = "bad_request"
    field = ""


class EndpointRefused(NotificationError):
    """A push subscription whose endpoint the server will not take."""

    code = "endpoint_refused"
    field = "endpoint"


def notification_json(notification: Notification) -> dict[str, Any]:
    """N: ``{"id", "kind", "text", "url", "created" (ISO 8601), "read"}``, its text in the
    active language (the reader's)."""
    return {
        "id": notification.pk,
        "kind": str(notification.kind),
        "text": notification.text,
        "url": notification.url,
        "created": notification.created_at.isoformat(),
        "read": notification.read_at is not None,
    }


def _stored_json(notification: Notification) -> dict[str, Any]:
    """What an account's sockets are sent (``account.notification``): the notification
    as stored, its words to be made by each socket in its own language (``socket_json``)."""
    return {
        "id": notification.pk,
        "kind": str(notification.kind),
        "params": notification.params,
        "url": notification.url,
        "created": notification.created_at.isoformat(),
        "read": notification.read_at is not None,
    }


def socket_json(stored: dict[str, Any]) -> dict[str, Any]:
    """N of a notification sent to an account's sockets (``_stored_json``), its text made
    in the active language (the socket's): a lobby consumer's ``account.notification``."""
    said = {key: value for key, value in stored.items() if key != "params"}
    return {**said, "text": words_of(str(stored["kind"]), stored.get("params") or {})}


def notify(
    *,
    user_id: int,
    kind: str,
    params: dict[str, Any],
    url: str,
    subject: str = "",
    email: bool = True,
    now: datetime.datetime | None = None,
) -> Notification | None:
    """``notify_many`` for the one account ``user_id``: its notification, or None for a
    kind it did not turn on (``OFF_BY_DEFAULT``)."""
    told = notify_many(
        user_ids=[user_id],
        kind=kind,
        params=params,
        url=url,
        subject=subject,
        email=email,
        now=now,
    )
    return told[0] if told else None


def notify_many(
    *,
    user_ids: list[int],
    kind: str,
    params: dict[str, Any],
    url: str | dict[int, str],
    subject: str = "",
    email: bool = True,
    refresh: bool = False,
    now: datetime.datetime | None = None,
) -> list[Notification]:
    """Tell each account of ``user_ids`` that something happened (call it inside the
    event's transaction): the stored notification (its ``kind`` and ``params``, plain
    JSON values its kind's words are made from when it is read: ``notifications.texts``),
    its deliveries as the account chose (``_deliveries``), and after the commit its pages
    told. ``params``: one for all; ``url``: one for all, or each account's (``{user_id:
    url}``). The address of the request being served (``site.current``) is kept for the
    e-mail's links. A kind that is off by default (``OFF_BY_DEFAULT``) goes to the
    accounts that turned it on only.

    An unread ``your_move`` of the same ``subject`` is refreshed instead of made again
    (no delivery again). With ``refresh``, an account's notification of this kind and
    subject, read or not, is updated instead (its parameters and page, made ``now``,
    unread again; no delivery again), so that it has one at most (an arena's games).

    What telling the accounts needs is read in one statement (``statements.recipients``),
    the notifications and the deliveries written in one each: a move's path makes no
    query of its own, and a tournament's hundreds of accounts cost a few."""
    if kind not in DEFAULTS:
        raise NotificationError(gettext("unknown kind %(kind)s") % {"kind": repr(kind)})
    if not user_ids:
        return []
    now = now or timezone.now()
    told = statements.recipients(user_ids=user_ids, kind=kind, subject=subject)
    if kind in OFF_BY_DEFAULT:
        user_ids = [user_id for user_id in user_ids if told[user_id].site]
    address = site.current()
    urls = url if isinstance(url, dict) else dict.fromkeys(user_ids, url)
    renewed = _refreshed(user_ids, kind, subject, now, params, urls, address) if refresh else []
    again = {notification.user_id for notification in renewed}
    waiting = []
    if kind == Kind.YOUR_MOVE and subject:
        for user_id in user_ids:
            pk = told[user_id].waiting
            if pk is not None and user_id not in again:
                notification = _made(user_id, kind, params, urls[user_id], subject, address, now)
                notification.pk = pk
                statements.refresh(pk=pk, params=params, url=urls[user_id], site=address, now=now)
                waiting.append(notification)
                again.add(user_id)
    made = [
        _made(user_id, kind, params, urls[user_id], subject, address, now)
        for user_id in user_ids
        if user_id not in again
    ]
    if made:
        keys = statements.insert(Notification, [_values(notification) for notification in made])
        for notification, pk in zip(made, keys, strict=True):
            notification.pk = pk
    deliveries = [
        delivery
        for notification in made
        for delivery in _deliveries(notification, told[notification.user_id], email, now)
    ]
    if deliveries:
        statements.insert(Delivery, deliveries)
        transaction.on_commit(lambda: delivery_due.send(sender=Delivery), robust=True)
    for notification in waiting:
        _tell_pages(notification, unread=told[notification.user_id].unread)
    for notification in made:
        _tell_pages(notification, unread=told[notification.user_id].unread + 1)
    if renewed:
        _tell_many(renewed)
    return [*renewed, *waiting, *made]


def _made(
    user_id: int,
    kind: str,
    params: dict[str, Any],
    url: str,
    subject: str,
    address: str,
    now: datetime.datetime,
) -> Notification:
    """A notification not stored yet."""
    return Notification(
        user_id=user_id,
        kind=kind,
        params=params,
        url=url,
        subject=subject,
        site=address,
        created_at=now,
    )


def _values(notification: Notification) -> dict[str, Any]:
    """``notification``'s row, as ``statements.insert`` takes it."""
    return {
        "user_id": notification.user_id,
        "kind": notification.kind,
        "params": notification.params,
        "url": notification.url,
        "subject": notification.subject,
        "site": notification.site,
        "created_at": notification.created_at,
    }


def _deliveries(
    notification: Notification,
    told: statements.Recipient,
    email: bool,
    now: datetime.datetime,
) -> list[dict[str, Any]]:
    """The delivery rules, the one place they are written: an e-mail when the account
    chose one for the kind (else the kind's default) and has a verified address, unless
    ``email`` is false (a move in a game that is not by correspondence); a push to each of
    its devices when it chose push (else the kind's default)."""
    by_email = DEFAULTS[notification.kind][0] if told.email is None else told.email
    by_push = DEFAULTS[notification.kind][1] if told.push is None else told.push
    deliveries = []
    if email and by_email and told.address:
        deliveries.append(_delivery(notification, Delivery.Channel.EMAIL, now))
    if by_push:
        for device in told.devices:
            deliveries.append(
                _delivery(notification, Delivery.Channel.PUSH, now, subscription_id=device)
            )
    return deliveries


def turned_on(*, user_ids: list[int], kind: str) -> list[int]:
    """Those of ``user_ids`` (in their order) that turned ``kind`` on for the site: of a
    kind that is off by default (``OFF_BY_DEFAULT``), the accounts with a choice saying so;
    of any other kind, all of them."""
    if kind not in OFF_BY_DEFAULT or not user_ids:
        return list(user_ids)
    on = set(
        Preference.objects.filter(user_id__in=user_ids, kind=kind, site=True).values_list(
            "user_id", flat=True
        )
    )
    return [user_id for user_id in user_ids if user_id in on]


def _refreshed(
    user_ids: list[int],
    kind: str,
    subject: str,
    now: datetime.datetime,
    params: dict[str, Any],
    urls: dict[int, str],
    address: str,
) -> list[Notification]:
    """``notify_many(refresh=True)``: the accounts' latest notifications of ``kind`` about
    ``subject`` (those that have one), saying what ``params`` say, made ``now``, unread."""
    latest = dict(
        Notification.objects.filter(user_id__in=user_ids, kind=kind, subject=subject)
        .order_by("created_at", "pk")
        .values_list("user_id", "pk")  # the latest of each account wins
    )
    found = [
        Notification(
            pk=pk,
            user_id=user_id,
            kind=kind,
            params=params,
            url=urls[user_id],
            subject=subject,
            site=address,
            created_at=now,
        )
        for user_id, pk in latest.items()
    ]
    statements.renew(rows=[(n.pk, n.url) for n in found], params=params, site=address, now=now)
    return found


def _tell_many(notifications: list[Notification]) -> None:
    """After the commit: each account's ``account.notification`` on its lobby sockets
    (as ``_tell_pages``), the unread counts read in one query."""

    def tell() -> None:
        ids = [notification.user_id for notification in notifications]
        unread = dict(
            Notification.objects.filter(user_id__in=ids, read_at=None)
            .values("user_id")
            .annotate(n=Count("id"))
            .values_list("user_id", "n")
        )
        for notification in notifications:
            event = {
                "type": "account.notification",
                "notification": _stored_json(notification),
                "unread": unread.get(notification.user_id, 0),
            }
            send_to_group(account_group(notification.user_id), event)

    transaction.on_commit(tell, robust=True)


def _delivery(
    notification: Notification,
    channel: str,
    now: datetime.datetime,
    *,
    subscription_id: int | None = None,
) -> dict[str, Any]:
    """A Delivery row's values (``statements.insert``: the others take their defaults)."""
    return {
        "notification_id": notification.pk,
        "channel": channel,
        "subscription_id": subscription_id,
        "next_try_at": now,
        "created_at": now,
    }


def _tell_pages(notification: Notification, *, unread: int | None = None) -> None:
    """After the commit: ``account.notification`` to the account's lobby sockets, each
    then sending ``{"type": "notification", "notification": N, "unread": n}`` in its own
    language (``socket_json``; ``unread`` as counted in the transaction, else counted then)."""
    user_id = notification.user_id

    def tell() -> None:
        event = {
            "type": "account.notification",
            "notification": _stored_json(notification),
            "unread": unread_count(user_id) if unread is None else unread,
        }
        send_to_group(account_group(user_id), event)

    transaction.on_commit(tell, robust=True)


def seen(*, user_id: int, subject: str, kind: str = Kind.YOUR_MOVE) -> int:
    """The account's unread notifications of ``kind`` about ``subject`` marked read (it
    acted on them: it moved in the game). How many. After the commit, the account's open
    pages hear the new unread count (``{"type": "unread"}``): the bell follows a move made
    in another tab."""
    marked = statements.mark_seen(user_id=user_id, subject=subject, kind=kind, now=timezone.now())
    if marked:
        _tell_unread(user_id)
    return marked


def _tell_unread(user_id: int) -> None:
    """After the commit: ``{"type": "unread", "unread": n}`` to the account's lobby
    sockets (the count read then, so that it counts what the transaction committed)."""

    def tell() -> None:
        event = {"type": "account.unread", "unread": unread_count(user_id)}
        send_to_group(account_group(user_id), event)

    transaction.on_commit(tell, robust=True)


def unread_count(user_id: int) -> int:
    """How many of the account's notifications are unread."""
    return statements.unread_count(user_id)


def recent(*, user_id: int) -> list[Notification]:
    """The account's latest notifications, newest first, ``LATEST`` at most."""
    found = Notification.objects.filter(user_id=user_id).order_by("-created_at", "-pk")
    return list(found[:LATEST])


def latest(*, user_id: int) -> dict[str, Any]:
    """``GET /notifications.json``: ``{"unread": n, "notifications": [N, ...]}``, newest
    first, ``LATEST`` at most."""
    return {
        "unread": unread_count(user_id),
        "notifications": [notification_json(n) for n in recent(user_id=user_id)],
    }


@transaction.atomic
def mark_read(*, user_id: int, ids: list[int] | None) -> int:
    """The account's notifications ``ids`` (all of them for None) marked read; another
    account's ids are left as they are. How many were marked."""
    unread = Notification.objects.filter(user_id=user_id, read_at=None)
    if ids is not None:
        unread = unread.filter(pk__in=ids)
    marked = unread.update(read_at=timezone.now())
    if marked:
        _tell_unread(user_id)
    return marked


# The account's choices


class Choice(NamedTuple):
    """An account's choice for a kind: shown on the site (always, but for a kind that is
    off by default), e-mailed, pushed."""

    site: bool
    email: bool
    push: bool


def default_choice(kind: str) -> Choice:
    """``kind``'s choice for an account that made none (``DEFAULTS``, ``OFF_BY_DEFAULT``)."""
    return Choice(kind not in OFF_BY_DEFAULT, *DEFAULTS[kind])


def choices(*, user_id: int, kind: str) -> Choice:
    """The account's choice for ``kind``, else the default."""
    chosen = Preference.objects.filter(user_id=user_id, kind=kind)
    found = chosen.values_list("site", "email", "push").first()
    return _choice(kind, *found) if found else default_choice(kind)


def all_choices(*, user_id: int) -> dict[str, Choice]:
    """Every kind's choice for the account, in the kinds' order."""
    chosen = {
        row[0]: _choice(*row)
        for row in Preference.objects.filter(user_id=user_id).values_list(
            "kind", "site", "email", "push"
        )
    }
    return {kind: chosen.get(kind) or default_choice(kind) for kind in DEFAULTS}


def _choice(kind: str, site: bool, email: bool, push: bool) -> Choice:
    return Choice(site or kind not in OFF_BY_DEFAULT, email, push)


@transaction.atomic
def choose(*, user_id: int, kind: str, email: bool, push: bool, site: bool | None = None) -> None:
    """The account's choice for ``kind``: e-mail it, push it, and for a kind that is off
    by default (``OFF_BY_DEFAULT``) show it at all (``site``; None: as it was). Every
    other kind the site always shows."""
    if kind not in DEFAULTS:
        raise NotificationError(gettext("unknown kind %(kind)s") % {"kind": repr(kind)})
    if kind not in OFF_BY_DEFAULT:
        site = True
    elif site is None:
        site = choices(user_id=user_id, kind=kind).site
    Preference.objects.update_or_create(
        user_id=user_id, kind=kind, defaults={"site": site, "email": email, "push": push}
    )


# Devices


PUSH_DEVICES = 10
"""The push subscriptions an account may hold: each notification pushed is one request
to each, to wherever its subscriber said."""


def subscribe(*, user_id: int, subscription: Any) -> PushSubscription:
    """Keep a browser's push subscription (``PushSubscription.toJSON()``: ``{"endpoint",
    "keys": {"p256dh", "auth"}}``) for the account; the account's own endpoint again
    renews its keys. Raises ``EndpointRefused`` for an endpoint the server will not send
    to (``notifications.endpoints.check``: https, public addresses only, unless
    ``PUSH_ENDPOINT_ALLOW`` names its host), one another account holds (nothing moves
    between accounts), or a device beyond ``PUSH_DEVICES``; NotificationError for
    anything else."""
    try:
        endpoint = subscription["endpoint"]
        keys = subscription["keys"]
        p256dh, auth = keys["p256dh"], keys["auth"]
    except (KeyError, TypeError):
        raise NotificationError(
            gettext("a subscription is {endpoint, keys: {p256dh, auth}}")
        ) from None
    if not all(isinstance(value, str) and value for value in (endpoint, p256dh, auth)):
        raise NotificationError(gettext("a subscription's endpoint and keys are strings"))
    if len(endpoint) > 1000 or len(p256dh) > 200 or len(auth) > 100:
        raise NotificationError(gettext("a subscription's endpoint or keys are too long"))
    if not _browser_keys(p256dh, auth):
        raise NotificationError(
            gettext(
                "a subscription's keys are a P-256 public key (p256dh) and a 16-byte secret"
                " (auth), base64url-encoded"
            )
        )
    try:  # before the transaction: a name may take seconds to resolve
        endpoints.check(endpoint, allow=settings.PUSH_ENDPOINT_ALLOW)
    except endpoints.Refused as refused:
        if refused.reason == "scheme":
            raise EndpointRefused(gettext("a push endpoint is an https:// URL")) from None
        raise EndpointRefused(
            gettext("a push endpoint's host must have public internet addresses only")
        ) from None
    return _keep_device(user_id=user_id, endpoint=endpoint, p256dh=p256dh, auth=auth)


@transaction.atomic
def _keep_device(*, user_id: int, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    # The account's row locked: two devices subscribing at once count one after the other.
    list(get_user_model().objects.select_for_update().filter(pk=user_id).values_list("pk"))
    found = PushSubscription.objects.filter(endpoint=endpoint).first()
    if found is not None:
        if found.user_id != user_id:
            raise _taken()
        found.p256dh, found.auth = p256dh, auth
        found.save(update_fields=["p256dh", "auth"])
        return found
    if PushSubscription.objects.filter(user_id=user_id).count() >= PUSH_DEVICES:
        raise EndpointRefused(
            gettext(
                "notifications are pushed to %(count)d devices of an account at most:"
                " turn them off on another device first"
            )
            % {"count": PUSH_DEVICES}
        )
    try:
        with transaction.atomic():
            return PushSubscription.objects.create(
                user_id=user_id, endpoint=endpoint, p256dh=p256dh, auth=auth
            )
    except IntegrityError:  # another account's device took it meanwhile
        raise _taken() from None


def _taken() -> EndpointRefused:
    return EndpointRefused(gettext("this push endpoint belongs to another account"))


_BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")


def _browser_keys(p256dh: str, auth: str) -> bool:
    """Whether the keys are what a browser makes (RFC 8291): ``p256dh`` a point of P-256,
    uncompressed (65 bytes), ``auth`` 16 bytes, both base64url (padded or not). Anything
    else could never be encrypted for, and its pushes would fail for a day."""
    from cryptography.hazmat.primitives.asymmetric import ec

    if not all(_BASE64URL.fullmatch(text) for text in (p256dh, auth)):
        return False
    try:
        point, secret = (
            base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
            for text in (p256dh, auth)
        )
    except (binascii.Error, ValueError):
        return False
    if len(point) != 65 or len(secret) != 16:
        return False
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        return False
    return True


def unsubscribe_device(*, user_id: int, endpoint: str) -> bool:
    """The account's subscription at ``endpoint`` forgotten; whether there was one."""
    deleted, _ = PushSubscription.objects.filter(user_id=user_id, endpoint=endpoint).delete()
    return bool(deleted)
