"""The reads and updates on a move's path, as SQL statements (docs/benchmarks.md,
"Notifications": a move in a correspondence game may cost at most 1 ms more with
notifications on).

Django's ORM builds every query anew: 120 to 390 µs of CPU apiece on the project's
machine, and a correspondence move told through the ORM made nine (the mover's
``your_move`` read; the opponent's looked for, made, its account's address, choice and
devices read, its deliveries made; two unread counts): 3.3 ms of CPU. Here a move makes
five statements: the mover's ``your_move`` read (``mark_seen``); everything telling the
opponent needs, its unread ``your_move`` for the game and its verified address among it,
in one (``recipients``);
the notification and its deliveries stored (``insert``); the mover's unread count after
the commit (``unread_count``). Each is a parameterised statement on the models' own
tables and columns (read from their ``_meta``, quoted by the connection), the same on
SQLite and PostgreSQL, built once; an insert takes every concrete field of its model,
the field's default where none is given, each value prepared by its field as the ORM
prepares it. Anything not on that path uses the ORM.
"""

from __future__ import annotations

import datetime
import functools
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Field, Model

from accounts.models import EmailAddress
from notifications.models import Notification, Preference, PushSubscription


def _names(model: type[Model], *fields: str) -> tuple[str, ...]:
    """The model's table and the columns of ``fields``, quoted."""
    quote = connection.ops.quote_name
    meta = model._meta
    return (quote(meta.db_table), *(quote(meta.get_field(name).column) for name in fields))


@functools.cache
def _sql() -> dict[str, str]:
    table, user, subject, kind, read_at, params, url, site, created_at, pk = _names(
        Notification,
        "user",
        "subject",
        "kind",
        "read_at",
        "params",
        "url",
        "site",
        "created_at",
        "id",
    )
    unread = f"{user} = %s AND {subject} = %s AND {kind} = %s AND {read_at} IS NULL"
    users, user_pk = _names(get_user_model(), "id")
    addresses, address_user, email, primary, verified = _names(
        EmailAddress, "user", "email", "primary", "verified"
    )
    prefs, pref_user, pref_kind, pref_site, pref_email, pref_push = _names(
        Preference, "user", "kind", "site", "email", "push"
    )
    devices, device_pk, device_user = _names(PushSubscription, "id", "user")
    return {
        "seen": f"UPDATE {table} SET {read_at} = %s WHERE {unread}",
        "refresh": (
            f"UPDATE {table} SET {params} = %s, {url} = %s, {site} = %s, {created_at} = %s"
            f" WHERE {pk} = %s"
        ),
        "renew": (
            f"UPDATE {table} SET {params} = %s, {url} = %s, {site} = %s, {created_at} = %s,"
            f" {read_at} = NULL WHERE {pk} = %s"
        ),
        "recipients": (
            f"SELECT u.{user_pk}, e.{email}, p.{pref_email}, p.{pref_push}, d.{device_pk},"
            f" (SELECT COUNT(*) FROM {table} WHERE {user} = u.{user_pk} AND {read_at} IS NULL),"
            f" (SELECT MIN({pk}) FROM {table} WHERE {user} = u.{user_pk} AND {subject} = %s"
            f" AND {kind} = %s AND {read_at} IS NULL), p.{pref_site}"
            f" FROM {users} u"
            f" LEFT JOIN {addresses} e ON e.{address_user} = u.{user_pk}"
            f" AND e.{primary} = %s AND e.{verified} = %s"
            f" LEFT JOIN {prefs} p ON p.{pref_user} = u.{user_pk} AND p.{pref_kind} = %s"
            f" LEFT JOIN {devices} d ON d.{device_user} = u.{user_pk}"
            f" WHERE u.{user_pk} IN ({{users}}) ORDER BY u.{user_pk}, d.{device_pk}"
        ),
        "unread": f"SELECT COUNT(*) FROM {table} WHERE {user} = %s AND {read_at} IS NULL",
    }


@functools.cache
def _insert_sql(model: type[Model], rows: int) -> tuple[str, tuple[Field[Any, Any], ...]]:
    """``INSERT`` of ``rows`` rows of ``model`` (every concrete field but the key), returning
    the new keys where the database can; and those fields, in order."""
    quote = connection.ops.quote_name
    fields = tuple(field for field in model._meta.concrete_fields if not field.primary_key)
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)}"
        f" ({', '.join(quote(field.column) for field in fields)})"
        f" VALUES {', '.join([row] * rows)}"
    )
    if connection.features.can_return_columns_from_insert:
        sql += f" RETURNING {quote(model._meta.pk.column)}"
    return sql, fields


INSERT_AT_ONCE = 100
"""The most rows one ``INSERT`` stores (within SQLite's parameters)."""


def insert(model: type[Model], rows: list[dict[str, Any]]) -> list[int]:
    """Store ``rows`` (values by field attname: ``notification_id``; a field not given
    takes its default, as the model says) of ``model``; their new keys, in order: up to
    ``INSERT_AT_ONCE`` a statement where the database returns the keys, else one a
    statement."""
    at_once = INSERT_AT_ONCE if connection.features.can_return_columns_from_insert else 1
    keys: list[int] = []
    for start in range(0, len(rows), at_once):
        keys += _insert(model, rows[start : start + at_once])
    return keys


def _insert(model: type[Model], rows: list[dict[str, Any]]) -> list[int]:
    sql, fields = _insert_sql(model, len(rows))
    params = [
        field.get_db_prep_save(
            row[field.attname] if field.attname in row else field.get_default(), connection
        )
        for row in rows
        for field in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if connection.features.can_return_columns_from_insert:
            return [int(found[0]) for found in cursor.fetchall()]
        assert len(rows) == 1, "without RETURNING, one row at a time"
        meta = model._meta
        return [int(connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column))]


def _moment(when: datetime.datetime) -> Any:
    return connection.ops.adapt_datetimefield_value(when)


def mark_seen(*, user_id: int, subject: str, kind: str, now: datetime.datetime) -> int:
    """The account's unread ``kind`` about ``subject`` marked read; how many."""
    with connection.cursor() as cursor:
        cursor.execute(_sql()["seen"], [_moment(now), user_id, subject, kind])
        return int(cursor.rowcount)


def _params(params: dict[str, Any]) -> Any:
    """``params`` as the JSON column takes them (as the ORM prepares them)."""
    return Notification._meta.get_field("params").get_db_prep_save(params, connection)


def refresh(
    *, pk: int, params: dict[str, Any], url: str, site: str, now: datetime.datetime
) -> None:
    """The notification ``pk`` now saying what ``params`` say, caused at ``site``, made
    ``now``."""
    with connection.cursor() as cursor:
        cursor.execute(_sql()["refresh"], [_params(params), url, site, _moment(now), pk])


def renew(
    *, rows: list[tuple[int, str]], params: dict[str, Any], site: str, now: datetime.datetime
) -> None:
    """Each notification ``(pk, url)`` now saying what ``params`` say, leading to ``url``,
    caused at ``site``, made ``now`` and unread again: one statement run for all (an
    arena's thousand players)."""
    moment, said = _moment(now), _params(params)
    with connection.cursor() as cursor:
        cursor.executemany(_sql()["renew"], [[said, url, site, moment, pk] for pk, url in rows])


@dataclass(frozen=True)
class Recipient:
    """What telling an account needs: its verified address ("" for none: none is mailed
    before it is verified, ``accounts.selectors.verified_email``), its choice for the kind
    (e-mail, push; None without one of its own; ``site``: whether it turned the kind on,
    None without a choice), its devices, its unread count, and its unread notification
    of the kind about the subject (``waiting``: its id, or None)."""

    address: str
    email: bool | None
    push: bool | None
    site: bool | None
    devices: list[int]
    unread: int
    waiting: int | None


NOBODY = Recipient("", None, None, None, [], 0, None)
"""An account that is not there (deleted meanwhile): no address, no choice, no device."""

RECIPIENTS_AT_ONCE = 500
"""The most accounts one statement reads (``recipients``): within SQLite's parameters."""


def recipients(*, user_ids: list[int], kind: str, subject: str) -> dict[int, Recipient]:
    """Each account of ``user_ids`` as telling it of ``kind`` about ``subject`` needs
    (``NOBODY`` for one that is not there): one statement for up to
    ``RECIPIENTS_AT_ONCE`` accounts, so one on a move's path."""
    found: dict[int, list[tuple[Any, ...]]] = {}
    for start in range(0, len(user_ids), RECIPIENTS_AT_ONCE):
        chunk = user_ids[start : start + RECIPIENTS_AT_ONCE]
        sql = _sql()["recipients"].replace("{users}", ", ".join(["%s"] * len(chunk)))
        with connection.cursor() as cursor:
            cursor.execute(sql, [subject, kind, True, True, kind, *chunk])
            for row in cursor.fetchall():
                found.setdefault(int(row[0]), []).append(row[1:])
    return {user_id: _recipient(found.get(user_id, [])) for user_id in user_ids}


def _recipient(rows: list[tuple[Any, ...]]) -> Recipient:
    if not rows:
        return NOBODY
    address, by_email, by_push, _, unread, waiting, on_site = rows[0]
    return Recipient(
        address=str(address or ""),
        email=None if by_email is None else bool(by_email),
        push=None if by_push is None else bool(by_push),
        site=None if on_site is None else bool(on_site),
        devices=[int(row[3]) for row in rows if row[3] is not None],
        unread=int(unread),
        waiting=None if waiting is None else int(waiting),
    )


def unread_count(user_id: int) -> int:
    """How many of the account's notifications are unread."""
    with connection.cursor() as cursor:
        cursor.execute(_sql()["unread"], [user_id])
        row = cursor.fetchone()
    return int(row[0]) if row else 0
