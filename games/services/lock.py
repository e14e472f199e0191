"""The game's row locked for the use case's transaction, a move's write of it and of its
own row: the three statements every move runs (on PostgreSQL the last two one statement,
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

Each statement runs on a cursor of its own, kept for as long as the connection is
(``_cursor``): psycopg sets up a cursor for a statement (the loaders of every column of
its result) anew whenever the statement is not the one the cursor ran last, and a new
cursor, or one cursor for all three, did it at every move. On PostgreSQL those cursors
bind on the server (``_new_cursor``): no value is quoted into the SQL in Python, and
PostgreSQL prepares each statement once it has run five times instead of parsing and
planning it at every move.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.sqlite3.base import SQLiteCursorWrapper
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
    db = _connection()
    select = _select(db.alias)
    cursor = _cursor(db, select.sql)
    cursor.execute(select.sql, [game_id])
    row = cursor.fetchone()
    if row is None:
        raise GameError(
            "bad_request", gettext("there is no game %(game_id)s") % {"game_id": repr(game_id)}
        )
    values = list(row)
    for index, (converters, expression) in select.converters.items():
        for convert in converters:
            values[index] = convert(values[index], expression, db)
    return Game.from_db(db.alias, select.names, values)


def write(game: Game, names: Sequence[str], *, moves: Sequence[Move] = ()) -> None:
    """Store the fields ``names`` of ``game`` (its row locked in this transaction), as
    ``game.save(update_fields=names)`` would: ``updated_at`` set to now when named; and
    before, ``moves`` (new rows of the game) as ``insert`` does. On PostgreSQL the moves'
    INSERT and the game's UPDATE are one statement (``_inserts_and_update_sql``)."""
    db = _connection()
    fields = _fields(tuple(names))
    values = [field.get_db_prep_save(field.pre_save(game, False), db) for field in fields]
    if not moves or db.vendor != "postgresql":
        insert(moves)
        update = _update_sql(db.alias, tuple(names))
        _cursor(db, update).execute(update, [*values, game.pk])
        return
    sql = _inserts_and_update_sql(db.alias, len(moves), tuple(names))
    cursor = _cursor(db, sql)
    inserted = [value for move in moves for value in _insert_values(move, db)]
    cursor.execute(sql, [*inserted, *values, game.pk])
    (ids,) = cursor.fetchone()
    for move, pk in zip(moves, ids, strict=True):
        _stored(move, pk, db)


def insert(moves: Sequence[Move]) -> None:
    """Store ``moves`` (new rows of one game), as ``Move.objects.bulk_create`` would: each
    gets its id, ``created_at`` set to now."""
    db = _connection()
    sql = _insert_sql(db.alias)
    cursor = _cursor(db, sql)
    for move in moves:
        cursor.execute(sql, _insert_values(move, db))
        (pk,) = cursor.fetchone()
        _stored(move, pk, db)


def _insert_values(move: Move, db: BaseDatabaseWrapper) -> list[Any]:
    return [field.get_db_prep_save(field.pre_save(move, True), db) for field in _move_fields()]


def _stored(move: Move, pk: int, db: BaseDatabaseWrapper) -> None:
    """``move`` as stored, its id ``pk``, as ``bulk_create`` leaves it."""
    move.pk = pk
    move._state.adding = False
    move._state.db = db.alias


def _connection() -> BaseDatabaseWrapper:
    """This thread's connection itself: ``django.db.connection`` is a proxy that looks it
    up again at each of its attributes (dozens a move, through the fields' preparation
    and the converters: a twentieth of a move's database work on SQLite)."""
    return connections[DEFAULT_DB_ALIAS]


_kept = threading.local()


def _cursor(db: BaseDatabaseWrapper, sql: str) -> CursorWrapper:
    """A cursor of this thread's connection for the statement ``sql`` (one of this module's,
    compiled once; why one a statement: the module's docstring), the same one for as long
    as the connection is open (a new one each time while queries are logged: Django's
    debug cursor, which tests count queries with, is chosen when a cursor is made)."""
    if db.queries_logged:
        return db.cursor()
    db.ensure_connection()
    kept: dict[str, CursorWrapper] | None = getattr(_kept, "cursors", None)
    if kept is None or getattr(_kept, "connection", None) is not db.connection:
        kept = _kept.cursors = {}
        _kept.connection = db.connection
    if sql not in kept:
        kept[sql] = db.make_cursor(_new_cursor(db))
    return kept[sql]


def _new_cursor(db: BaseDatabaseWrapper) -> Any:
    """A new cursor of the connection, as Django makes one, but binding on the server on
    PostgreSQL (psycopg's ``Cursor``, as Django's ``server_side_binding`` option would make
    it): the values go apart from the statement instead of being quoted into it in
    Python, and PostgreSQL prepares a statement run five times, not parsing nor planning
    it again. On SQLite, one that converts each statement's placeholders once
    (``_SQLiteCursor``)."""
    if db.vendor == "sqlite":
        return db.connection.cursor(factory=_SQLiteCursor)
    if db.vendor != "postgresql":
        return db.create_cursor()
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID, ServerBindingCursor
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg.pq import Format

    cursor = ServerBindingCursor(db.connection)
    # As Django's create_cursor: the connection's time zone registered on the cursor when
    # the connection's loader disagrees (the time zone changed since it connected).
    loader = db.connection.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT)
    if db.timezone != getattr(loader, "timezone", None):
        register_tzloader(db.timezone, cursor)
    return cursor


class _SQLiteCursor(SQLiteCursorWrapper):
    """Django's SQLite cursor, but for this module's statements, the same few every time:
    their ``%s`` made SQLite's ``?`` once a statement (Django's own conversion, cached),
    where Django runs a regular expression over the statement at every execute (the game's
    SELECT is 2 KB)."""

    def convert_query(self, query: str, *, param_names: list[str] | None = None) -> str:
        if param_names is None:
            return _qmark(query)
        converted: str = super().convert_query(query, param_names=param_names)
        return converted


@functools.cache
def _qmark(query: str) -> str:
    converted: str = SQLiteCursorWrapper.convert_query(None, query)
    return converted


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
def _inserts_and_update_sql(alias: str, count: int, names: tuple[str, ...]) -> str:
    """PostgreSQL's one statement for ``count`` moves' rows and the game's UPDATE of
    ``names``: the INSERT in a WITH (its rows visible to nothing but the statement's
    RETURNING), the UPDATE returning the new moves' ids in ply order.

    ``WITH new AS (INSERT INTO games_move (...) VALUES (...), ... RETURNING id, ply)
    UPDATE games_game SET ... WHERE id = %s RETURNING (SELECT array_agg(...) FROM new)``
    """
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in _move_fields())
    row = "(" + ", ".join(["%s"] * len(_move_fields())) + ")"
    key = quote(Move._meta.pk.column)  # type: ignore[union-attr]
    ply = quote(Move._meta.get_field("ply").column)
    inserted = (
        f"INSERT INTO {quote(Move._meta.db_table)} ({columns}) VALUES "
        f"{', '.join([row] * count)} RETURNING {key}, {ply}"
    )
    update = _update_sql(alias, names)
    return (
        f"WITH new AS ({inserted}) {update} "
        f"RETURNING (SELECT array_agg({key} ORDER BY {ply}) FROM new)"
    )


@functools.cache
def _update_sql(alias: str, names: tuple[str, ...]) -> str:
    """``UPDATE games_game SET <column> = %s, ... WHERE id = %s`` for the fields ``names``."""
    quote = connection.ops.quote_name
    columns = ", ".join(f"{quote(field.column)} = %s" for field in _fields(names))
    key = quote(Game._meta.pk.column)  # type: ignore[union-attr]
    return f"UPDATE {quote(Game._meta.db_table)} SET {columns} WHERE {key} = %s"
