"""The game's row locked for the use case's transaction, a move's write of it and of its
own row: the three statements every move runs (on PostgreSQL the last two sent together,
``write``), each compiled once a process.

Django builds a query's SQL anew at every call. For the game's row (forty-odd columns)
that building cost three times the query itself (``bench/move_path.py``, in
docs/benchmarks.md), and it is the same SQL every time: so the process compiles each
statement once, with Django's own compiler (the SELECT ... FOR UPDATE) or from Django's
own field definitions (the UPDATE, the move's INSERT), and a move only executes it. The
values go through the fields as ``save()`` sends them (``pre_save``: the auto_now and
auto_now_add dates; ``get_db_prep_save``: JSON), and the row comes back as a query's
does: each value through the converters the compiler names for its column, then
``Model.from_db``. Nothing else changes: the row is locked until the transaction ends,
and no ``save()`` signal is ever received for a game or a move (none is connected).

The three run on one cursor of the connection, kept for as long as the connection is
(``_cursor``): a new psycopg cursor sets up anew the loaders of every column of every
result, a third of reading the game's row.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.backends.utils import CursorWrapper
from django.db.models import Field
from django.utils.translation import gettext

from games.models import Game, Move
from games.services.errors import GameError


def locked(game_id: str) -> Game:
    """The game ``game_id``, its row locked until the transaction ends. Raises
    GameError("bad_request") for an id that is no game."""
    if not isinstance(game_id, str):
        raise GameError("bad_request", gettext("game id must be a string"))
    select = _select(connection.alias)
    cursor = _cursor()
    cursor.execute(select.sql, [game_id])
    row = cursor.fetchone()
    if row is None:
        raise GameError(
            "bad_request", gettext("there is no game %(game_id)s") % {"game_id": repr(game_id)}
        )
    values = list(row)
    for index, (converters, expression) in select.converters.items():
        for convert in converters:
            values[index] = convert(values[index], expression, connection)
    return Game.from_db(connection.alias, select.names, values)


def write(game: Game, names: Sequence[str], *, moves: Sequence[Move] = ()) -> None:
    """Store the fields ``names`` of ``game`` (its row locked in this transaction), as
    ``game.save(update_fields=names)`` would: ``updated_at`` set to now when named; and
    before, ``moves`` (new rows of the game) as ``insert`` does. On PostgreSQL the
    statements go in one round trip (psycopg's client-side cursor sends several at once)."""
    alias = connection.alias
    fields = _fields(tuple(names))
    values = [field.get_db_prep_save(field.pre_save(game, False), connection) for field in fields]
    update = _update_sql(alias, tuple(names))
    cursor = _cursor()
    if not moves or not _several_at_once(alias):
        insert(moves)
        cursor.execute(update, [*values, game.pk])
        return
    inserted = [_insert_values(move) for move in moves]
    sql = "; ".join([_insert_sql(alias)] * len(moves) + [update])
    cursor.execute(sql, [value for row in inserted for value in row] + [*values, game.pk])
    for move in moves:
        _inserted(move, cursor)
        cursor.nextset()


def insert(moves: Sequence[Move]) -> None:
    """Store ``moves`` (new rows of one game), as ``Move.objects.bulk_create`` would: each
    gets its id, ``created_at`` set to now."""
    cursor = _cursor()
    for move in moves:
        cursor.execute(_insert_sql(connection.alias), _insert_values(move))
        _inserted(move, cursor)


def _insert_values(move: Move) -> list[Any]:
    return [
        field.get_db_prep_save(field.pre_save(move, True), connection) for field in _move_fields()
    ]


def _inserted(move: Move, cursor: CursorWrapper) -> None:
    """``move`` as stored by the INSERT whose result ``cursor`` is at: its id read back."""
    (move.pk,) = cursor.fetchone()
    move._state.adding = False
    move._state.db = connection.alias


@functools.cache
def _several_at_once(alias: str) -> bool:
    """Whether the database ``alias`` runs several statements sent in one execute: psycopg's
    client-side cursor (Django's unless ``server_side_binding``) sends them to PostgreSQL
    as one simple query; SQLite's driver refuses them."""
    options = connection.settings_dict.get("OPTIONS", {})
    return connection.vendor == "postgresql" and not options.get("server_side_binding")


_kept = threading.local()


def _cursor() -> CursorWrapper:
    """A cursor of this thread's connection, the same one for as long as the connection
    is open (a new one each time while queries are logged: Django's debug cursor, which
    tests count queries with, is chosen when a cursor is made)."""
    if connection.queries_logged:
        return connection.cursor()
    connection.ensure_connection()
    kept: tuple[object, CursorWrapper] | None = getattr(_kept, "cursor", None)
    if kept is None or kept[0] is not connection.connection:
        kept = (connection.connection, connection.cursor())
        _kept.cursor = kept
    return kept[1]


@dataclass(frozen=True)
class _Select:
    """A compiled SELECT of the game's row: its SQL (one parameter, the public id), the
    attribute names of its columns in order, and Django's converters of their values
    (JSON decoded, dates made aware...) by column, as the compiler applies them."""

    sql: str
    names: list[str]
    converters: dict[int, tuple[list[Any], Any]]


@functools.cache
def _select(alias: str) -> _Select:
    """``Game.objects.select_for_update().filter(public_id=...)`` compiled by Django for
    the database ``alias`` (in a transaction: Django refuses FOR UPDATE outside one)."""
    compiler = Game.objects.select_for_update().filter(public_id="").query.get_compiler(alias)
    sql, params = compiler.as_sql()
    assert list(params) == [""], params
    columns = [column for column, _, _ in compiler.select]
    return _Select(
        sql=str(sql),
        names=[column.target.attname for column in columns],
        converters=compiler.get_converters(columns),
    )


@functools.cache
def _fields(names: tuple[str, ...]) -> tuple[Field[object, object], ...]:
    return tuple(Game._meta.get_field(name) for name in names)  # type: ignore[misc]


@functools.cache
def _move_fields() -> tuple[Field[object, object], ...]:
    """The columns of a new move: all but its id, which the database numbers."""
    return tuple(field for field in Move._meta.concrete_fields if field is not Move._meta.pk)


@functools.cache
def _insert_sql(alias: str) -> str:
    """``INSERT INTO games_move (<columns>) VALUES (%s, ...) RETURNING id``: the statement
    ``bulk_create`` sends for one move on the database ``alias`` (SQLite and PostgreSQL
    both return the new id)."""
    assert connection.features.can_return_rows_from_bulk_insert
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in _move_fields())
    marks = ", ".join(["%s"] * len(_move_fields()))
    key = quote(Move._meta.pk.column)  # type: ignore[union-attr]
    return f"INSERT INTO {quote(Move._meta.db_table)} ({columns}) VALUES ({marks}) RETURNING {key}"


@functools.cache
def _update_sql(alias: str, names: tuple[str, ...]) -> str:
    """``UPDATE games_game SET <column> = %s, ... WHERE id = %s`` for the fields ``names``."""
    quote = connection.ops.quote_name
    columns = ", ".join(f"{quote(field.column)} = %s" for field in _fields(names))
    key = quote(Game._meta.pk.column)  # type: ignore[union-attr]
    return f"UPDATE {quote(Game._meta.db_table)} SET {columns} WHERE {key} = %s"
