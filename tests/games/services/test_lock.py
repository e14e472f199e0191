"""The game's row as a move reads and writes it (``games.services.lock``): statements
compiled once a process, which must read and store exactly what Django's ORM would.
(That the read locks the row, so that two submissions for one ply never both land:
tests/games/services/test_race.py, on SQLite and on PostgreSQL.)"""

from __future__ import annotations

import datetime

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db.models.signals import post_save, pre_save
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.players import Player
from gamerules.clock import TimeControl
from games.models import Game, Move
from games.services import lobby, play
from games.services.errors import GameError
from games.services.lock import (
    _insert_sql,
    _inserts_and_update_sql,
    _kept,
    _select,
    insert,
    locked,
    write,
)

pytestmark = pytest.mark.django_db


def fields_of(game: Game) -> dict[str, object]:
    return {field.attname: getattr(game, field.attname) for field in Game._meta.concrete_fields}


def go_game_in_play() -> Game:
    """A Go game between an account and a guest, with a clock: JSON columns (clocks,
    snapshot, score, time control), dates, komi, a foreign key, after two moves."""
    ann = Player(session_key="ann-session", user_id=User.objects.create_user("ann").pk)
    bob = Player(session_key="bob-session")
    byoyomi = TimeControl.byoyomi(main_time=60, period_time=10, periods=3)
    new = lobby.NewGame(kind="go", size=9, color="black", name="Ann", time_control=byoyomi)
    game = lobby.create_game(player=ann, new=new)
    lobby.join_game(player=bob, game_id=game.public_id, name="Bob")
    play.play(player=ann, game_id=game.public_id, ply=0, point=[2, 2])
    play.play(player=bob, game_id=game.public_id, ply=1, point=[6, 6])
    return game


def test_the_locked_row_is_the_row_djangos_orm_reads() -> None:
    game = go_game_in_play()
    with transaction.atomic():
        read = locked(game.public_id)
    expected = Game.objects.get(pk=game.pk)
    assert fields_of(read) == fields_of(expected)
    assert read.clocks["black"] == expected.clocks["black"] and isinstance(read.clocks, dict)
    assert read.updated_at.tzinfo is not None
    assert read.black_user.username == "ann"  # a model instance like any other
    assert read._state.adding is False and read._state.db == "default"


def test_an_id_that_is_no_game_is_a_bad_request() -> None:
    with transaction.atomic(), pytest.raises(GameError) as refused:
        locked("no-such-game")
    assert refused.value.code == "bad_request" and "no-such-game" in refused.value.message
    with transaction.atomic(), pytest.raises(GameError, match="string"):
        locked(7)  # type: ignore[arg-type]


def test_a_moves_write_stores_what_save_would_and_stamps_updated_at() -> None:
    game = go_game_in_play()
    with transaction.atomic():
        changed = locked(game.public_id)
        before = changed.updated_at
        changed.clocks = {**changed.clocks, "black": {**changed.clocks["black"], "periods": 1}}
        changed.score = {"black": 3.0, "white": 9.5}
        changed.undo_request = "white"
        changed.deadline = None
        write(changed, play.MOVED_FIELDS)
    stored = Game.objects.get(pk=game.pk)
    assert fields_of(stored) == fields_of(changed)
    assert stored.clocks["black"]["periods"] == 1 and stored.deadline is None
    assert stored.updated_at > before
    assert stored.updated_at - changed.updated_at == datetime.timedelta(0)


def test_updated_at_never_goes_back_when_the_last_writers_clock_was_ahead() -> None:
    """The live sockets order a game's events by ``updated_at``: a process whose clock is
    behind the last writer's still stamps a later time, by a write or by a save."""
    game = go_game_in_play()
    ahead = timezone.now() + datetime.timedelta(minutes=5)
    Game.objects.filter(pk=game.pk).update(updated_at=ahead)  # another process's clock
    with transaction.atomic():
        changed = locked(game.public_id)
        write(changed, ["ply", "updated_at"])
    tick = datetime.timedelta(microseconds=1)
    assert Game.objects.get(pk=game.pk).updated_at == changed.updated_at == ahead + tick
    changed.save(update_fields=["updated_at"])
    assert Game.objects.get(pk=game.pk).updated_at == ahead + 2 * tick
    # A clock that is right: now, as auto_now says.
    Game.objects.filter(pk=game.pk).update(updated_at=ahead - datetime.timedelta(hours=1))
    fresh = Game.objects.get(pk=game.pk)
    fresh.save(update_fields=["updated_at"])
    assert timezone.now() - fresh.updated_at < datetime.timedelta(minutes=1)


def test_a_write_leaves_every_other_column_as_stored() -> None:
    game = go_game_in_play()
    with transaction.atomic():
        mine = locked(game.public_id)
    Game.objects.filter(pk=game.pk).update(white_name="Robert")  # changed meanwhile
    mine.white_name = "Bob the stale"
    with transaction.atomic():
        write(mine, ["ply", "updated_at"])
    assert Game.objects.get(pk=game.pk).white_name == "Robert"


def test_no_save_signal_is_connected_to_games() -> None:
    """The write skips ``save()``: it may, as long as nothing listens to a game's save."""
    assert not pre_save.has_listeners(Game) and not post_save.has_listeners(Game)


def test_the_read_locks_the_row_where_the_database_can() -> None:
    with transaction.atomic():
        locked(go_game_in_play().public_id)
    sql = _select(connection.alias).sql
    assert ("FOR UPDATE" in sql) == connection.features.has_select_for_update


def test_a_moves_row_is_stored_as_bulk_create_would_store_it() -> None:
    game = go_game_in_play()

    def move(ply: int) -> Move:
        return Move(
            game=game,
            ply=ply,
            color="black",
            action=Move.Action.PLACE,
            row=4,
            col=4,
            diff={"captured": [[3, 4]]},
            clock_ms=59_000,
            overtime_left=3,
        )

    ours, django = move(3), move(4)
    with transaction.atomic():
        insert([ours])
        Move.objects.bulk_create([django])
    assert ours.pk is not None and ours.pk != django.pk
    assert ours._state.adding is False and ours._state.db == "default"
    stored = {row.ply: row for row in Move.objects.filter(game=game, ply__in=(3, 4))}

    def columns(row: Move) -> dict[str, object]:
        kept = {field.attname: getattr(row, field.attname) for field in Move._meta.concrete_fields}
        return {
            name: value for name, value in kept.items() if name not in ("id", "ply", "created_at")
        }

    assert columns(stored[3]) == columns(stored[4])
    assert stored[3].pk == ours.pk and stored[3].created_at == ours.created_at
    assert stored[3].created_at.tzinfo is not None


def test_a_moves_rows_are_written_with_the_game_and_read_back() -> None:
    """A move and Othello's automatic pass after it: both rows stored with the game's
    write, each with its id: in one statement on PostgreSQL (the INSERT in a WITH of the
    UPDATE), the three one after the other elsewhere."""
    game = go_game_in_play()
    with transaction.atomic():
        changed = locked(game.public_id)
        moves = [move_at(changed, changed.ply + 1), move_at(changed, changed.ply + 2)]
        changed.ply += 2
        with CaptureQueriesContext(connection) as captured:
            write(changed, ["ply", "updated_at"], moves=moves)
    stored = list(Move.objects.filter(game=game).order_by("ply"))[-2:]
    assert [move.pk for move in stored] == [move.pk for move in moves]
    assert all(move._state.adding is False for move in moves)
    assert Game.objects.get(pk=game.pk).ply == changed.ply == stored[-1].ply
    assert len(captured) == (1 if connection.vendor == "postgresql" else 3)


def test_a_move_whose_row_cannot_be_stored_leaves_the_game_as_it_was() -> None:
    """A row the database refuses (this ply is stored already) fails the whole write: the
    game's row is not changed either."""
    game = go_game_in_play()
    before = Game.objects.get(pk=game.pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        changed = locked(game.public_id)
        taken = move_at(changed, changed.ply)  # the last move's ply
        changed.ply += 1
        write(changed, ["ply", "updated_at"], moves=[taken])
    assert fields_of(Game.objects.get(pk=game.pk)) == fields_of(before)


@pytest.mark.django_db(transaction=True)  # a connection closed: no test transaction around
def test_the_statements_still_run_once_the_connection_was_replaced() -> None:
    """Each statement keeps a cursor of the connection: a new connection (the old one
    closed, or given back to the pool) gets cursors of its own."""
    game = go_game_in_play()
    with transaction.atomic():
        locked(game.public_id)
    connection.close()
    with transaction.atomic():
        changed = locked(game.public_id)
        changed.ply += 1
        write(changed, ["ply", "updated_at"], moves=[move_at(changed, changed.ply)])
    assert Game.objects.get(pk=game.pk).ply == changed.ply


def test_each_statement_runs_on_a_cursor_of_its_own_kept_from_move_to_move() -> None:
    """The read on one cursor, the write on another, each the same from one move to the
    next: psycopg keeps what a cursor set up for its statement (its result's loaders) only
    while the cursor runs that statement again (where it does: on PostgreSQL, the same
    psycopg transformer). On PostgreSQL they bind on the server: no value is quoted into
    the SQL in Python."""
    game = go_game_in_play()
    alias, names = connection.alias, ("ply", "updated_at")
    postgres = connection.vendor == "postgresql"
    moves_sql = _inserts_and_update_sql(alias, 1, names) if postgres else _insert_sql(alias)
    seen = []
    for _ in range(2):
        with transaction.atomic():
            changed = locked(game.public_id)
            changed.ply += 1
            write(changed, names, moves=[move_at(changed, changed.ply)])
        read = _kept.cursors[_select(connection.alias).sql]
        written = _kept.cursors[moves_sql]
        seen.append((read, written, getattr(read.cursor, "_tx", None)))
    (read_1, written_1, transformer_1), (read_2, written_2, transformer_2) = seen
    assert read_1 is read_2 and written_1 is written_2 and read_1 is not written_1
    assert transformer_1 is transformer_2
    if postgres:
        assert not isinstance(written_1.cursor, psycopg.ClientCursor)
    assert Game.objects.get(pk=game.pk).ply == changed.ply


def move_at(game: Game, ply: int) -> Move:
    return Move(game=game, ply=ply, color="black", action=Move.Action.PASS, diff={})
