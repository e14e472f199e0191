"""A move's work in the database thread, in one process (a benchmark, not a test).

    .venv/bin/python bench/move_path.py                      # SQLite in a temporary file
    .venv/bin/python bench/move_path.py --database postgres://postgres@127.0.0.1:5432/postgres
    .venv/bin/python bench/move_path.py --database ... --as-socket    # the connection's part
    .venv/bin/python bench/move_path.py --database ... --as-channels  # the pool's every move

Every move of a game socket runs in one thread of its process (``sockets.database``, a
``database_sync_to_async`` that keeps its connection): the service's transaction (the
game's row read, the rules, the clock, the move's row, the game's row written, the
commit), then, once committed, G built and encoded for the game's group
(``live.events``), kept in the outbox as a consumer keeps it. That thread is the move
path's narrowest point: under load, every game's moves wait for it in turn. This plays
GAMES 8x8 Othello games between two guests, the first legal point each turn, each move
as a consumer calls it (``games.realtime.sockets`` minus the event loop), and prints the
median time of a move, its CPU (this process's: the database server's own work left
out) and its queries, for comparing one version of the path with another on one machine
in one run.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def setup(database: str | None) -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-move-path-"))
    os.environ["DATABASE_URL"] = database or f"sqlite:///{work / 'db.sqlite3'}"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("SECRET_KEY", "bench-move-path")
    os.environ["DJANGO_SETTINGS_MODULE"] = "othello_site.settings"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--database", help="a PostgreSQL URL (a fresh database is made in it)")
    way = parser.add_mutually_exclusive_group()
    way.add_argument(
        "--as-socket",
        action="store_true",
        help="each move as a socket's database call makes it (games.realtime.sockets: "
        "the connection kept between calls, tried first after a second unused)",
    )
    way.add_argument(
        "--as-channels",
        action="store_true",
        help="each move between close_old_connections() calls, as Channels' "
        "database_sync_to_async makes it: the connection taken from the pool and given "
        "back every move",
    )
    args = parser.parse_args()
    if args.database:
        from tests.support.processes import fresh_database

        with fresh_database(args.database, "bench_move_path") as url:
            run(url, args.games, way=way_of(args))
    else:
        run(None, args.games, way=way_of(args))


def way_of(args: argparse.Namespace) -> str:
    return "socket" if args.as_socket else "channels" if args.as_channels else "service"


def run(database: str | None, games: int, *, way: str) -> None:
    setup(database)
    from django.db import close_old_connections, connection, reset_queries

    import broadcast
    import gamerules as rules
    from accounts.players import Player
    from games.realtime.sockets import connection_kept
    from games.selectors import position_of
    from games.services import lobby, play

    around = connection_kept if way == "socket" else contextlib.nullcontext

    times: list[float] = []
    queries: list[int] = []
    cpu = 0.0
    shown: list[str] = []
    # The first game counts the queries (Django's debug cursor, which costs time of its
    # own) and is not timed; the others are timed without it.
    for number in range(games + 1):
        connection.force_debug_cursor = number == 0
        black, white = Player(session_key=f"b{number}"), Player(session_key=f"w{number}")
        new = lobby.NewGame(kind="othello", size=8, color="black", name="Ann")
        game = lobby.create_game(player=black, new=new)
        lobby.join_game(player=white, game_id=game.public_id, name="Bob")
        position = rules.new_position("othello", 8)
        ply = 0
        while not position.is_over:
            player = black if position.to_move == rules.Color.BLACK else white
            point = position.legal_moves()[0]
            reset_queries()
            began, began_cpu = time.perf_counter(), time.process_time()
            if way == "channels":
                close_old_connections()
            with around(), broadcast.outbox():
                moves = play.play(player=player, game_id=game.public_id, ply=ply, point=list(point))
            if way == "channels":
                close_old_connections()
            if number == 0:
                queries.append(len(connection.queries))
                shown.extend(query["sql"] for query in connection.queries)
            else:
                times.append(time.perf_counter() - began)
                cpu += time.process_time() - began_cpu
            position = position_of(moves[-1].game)  # after Othello's automatic passes
            ply += len(moves)
    if os.environ.get("SHOW_QUERIES"):
        print("\n".join(sql[:160] for sql in shown))
    print(
        f"{len(times)} moves in {games} games: median {1e6 * statistics.median(times):.0f} µs, "
        f"mean {1e6 * statistics.fmean(times):.0f} µs, "
        f"CPU {1e6 * cpu / len(times):.0f} µs, queries a move {statistics.median(queries):.0f}"
    )


if __name__ == "__main__":
    main()
