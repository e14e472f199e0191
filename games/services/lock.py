"""The game's row locked for the use case's transaction, and a move's write of it: the two
statements every move runs, each compiled once a process.

Django builds a query's SQL anew at every call. For the game's row (forty-odd columns)
that building cost three times the query itself (``bench/move_path.py``, in
docs/benchmarks.md), and it is the same SQL every time: so the process compiles each
statement once, with Django's own compiler (the SELECT ... FOR UPDATE) or from Django's
own field definitions (the UPDATE), and a move only executes it. The values go through
the fields as ``save()`` sends them (``pre_save``: ``updated_at``'s auto_now;
``get_db_prep_save``: JSON), and the row comes back as a query's does: each value
through the converters the compiler names for its column, then ``Model.from_db``.
Nothing else changes: the row is locked until the transaction ends, and no ``save()``
signal is ever received for a game (none is connected).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Field
from django.utils.translation import gettext

from games.models import Game
from games.services.errors import GameError


def locked(game_id: str) -> Game:
    """The game ``game_id``, its row locked until the transaction ends. Raises
    GameError("bad_request") for an id that is no game."""
    if not isinstance(game_id, str):
        raise GameError("bad_request", gettext("game id must be a string"))
    select = _select(connection.alias)
    with connection.cursor() as cursor:
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


def write(game: Game, names: Sequence[str]) -> None:
    """Store the fields ``names`` of ``game`` (its row locked in this transaction), as
    ``game.save(update_fields=names)`` would: ``updated_at`` set to now when named."""
    fields = _fields(tuple(names))
    values = [field.get_db_prep_save(field.pre_save(game, False), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(connection.alias, tuple(names)), [*values, game.pk])


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
def _update_sql(alias: str, names: tuple[str, ...]) -> str:
    """``UPDATE games_game SET <column> = %s, ... WHERE id = %s`` for the fields ``names``."""
    quote = connection.ops.quote_name
    columns = ", ".join(f"{quote(field.column)} = %s" for field in _fields(names))
    key = quote(Game._meta.pk.column)  # type: ignore[union-attr]
    return f"UPDATE {quote(Game._meta.db_table)} SET {columns} WHERE {key} = %s"
