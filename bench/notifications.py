"""Notifications: what they add to a move, and how fast one process delivers them.

A benchmark, not a test: it prints figures (docs/benchmarks.md, "Notifications"). On a
fresh SQLite file of its own (or the PostgreSQL database DATABASE_URL names, which it
fills: give it an empty one), in this process:

1. A move in a correspondence game, with notifications on (the opponent told: a
   ``your_move`` stored, an e-mail and a push delivery written, the mover's own marked
   read, the pages told after the commit) against off (``games.services.tell``'s two
   calls made to do nothing), the same use case (``games.services.play.play``) in the same
   run, as the game's socket runs it (what it broadcasts kept, then sent to the channel
   layer from an event loop: games/realtime/sockets.py, ``database``); games of each kind
   interleaved, two accounts with a verified e-mail address and a device each. The wall
   and CPU time of each move, median and mean. With ``--control``, "on" is "off" and 0.7 ms of
   pure CPU instead: on a loaded machine the wall time jumps by several times what a
   move's CPU grows by (the process waits for its next time slice), whatever the CPU does.
2. 1,000 notifications (``challenge``: each an e-mail and a push, so 2,000 deliveries,
   to 100 accounts with a device each) delivered by this process's outbox loop
   (``notifications.loop.OutboxLoop``, as daphne runs it) to an SMTP server
   (``aiosmtpd``) and a Web Push service (tests/support/push_service.py) that run in a
   process of their own: the wall time from the loop's start to the last delivery
   marked sent, and what the servers received.

    .venv/bin/python bench/notifications.py            # about a minute on SQLite
    .venv/bin/python bench/notifications.py --quick    # fewer games and notifications
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup() -> Path | None:
    """Django on a fresh SQLite file (unless DATABASE_URL is set), migrated."""
    database = None
    if not os.environ.get("DATABASE_URL"):
        database = Path(tempfile.gettempdir()) / f"bench-notifications-{os.getpid()}.sqlite3"
        os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "othello_site.settings")
    os.environ.setdefault("RATE_LIMITS", "off")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("SITE_URL", "http://testserver")  # the e-mails' links
    os.environ.setdefault("SECRET_KEY", "bench-notifications-" + os.urandom(16).hex())
    # The devices of part 1 (never sent to) and the push service of part 2, on the loopback.
    os.environ.setdefault("PUSH_ENDPOINT_ALLOW", "push.example,127.0.0.1")
    os.environ["VAPID_KEY_FILE"] = str(Path(tempfile.gettempdir()) / f"bench-vapid-{os.getpid()}")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return database


# 1. A move


CONTROL_MS = 0.7


def move_cost(games: int, *, control: bool = False) -> None:
    from channels.layers import get_channel_layer

    import broadcast
    from accounts.players import Player
    from gamerules.clock import TimeControl
    from games import selectors
    from games.services import lobby, play, tell
    from notifications import services as notifications
    from notifications.models import Delivery
    from tests.support.helpers import verified_account
    from tests.support.push_service import Device

    correspondence = TimeControl.correspondence(days=3)
    people = []
    for name in ("ann", "bob"):
        user = verified_account(f"move-{name}", email=f"{name}@example.org")
        device = Device(f"https://push.example/{name}").subscription()
        notifications.subscribe(user_id=user.pk, subscription=device)
        people.append(Player(session_key=f"s-{name}", user_id=user.pk, username=user.username))
    black, white = people
    real = told = tell.moved, tell.ended

    def off(*args: Any, **kwargs: Any) -> None:
        return None

    loop, layer = asyncio.new_event_loop(), get_channel_layer()

    async def send(kept: list[tuple[str, dict[str, Any]]]) -> None:
        for group, event in kept:
            await layer.group_send(group, event)

    if control:  # "on" is "off" and CONTROL_MS of pure CPU: what the machine makes of it
        end_of = time.process_time

        def busy(*args: Any, **kwargs: Any) -> None:
            until = end_of() + CONTROL_MS / 1000
            while end_of() < until:
                pass

        told = busy, off

    def one_game(on: bool) -> tuple[list[float], list[float]]:
        tell.moved, tell.ended = told if on else (off, off)
        game = lobby.create_game(
            player=black,
            new=lobby.NewGame(
                kind="othello", size=8, color="black", name="", time_control=correspondence
            ),
        )
        game = lobby.join_game(player=white, game_id=game.public_id, name="")
        walls, cpus = [], []
        while game.status == game.Status.ACTIVE:
            mover = black if game.to_move == "black" else white
            point = selectors.position_of(game).legal_moves()[0]
            wall, cpu = time.perf_counter(), time.process_time()
            with broadcast.outbox() as kept:  # as the game's socket plays it (sockets.database)
                play.play(player=mover, game_id=game.public_id, ply=game.ply, point=list(point))
            loop.run_until_complete(send(kept))
            walls.append((time.perf_counter() - wall) * 1000)
            cpus.append((time.process_time() - cpu) * 1000)
            game.refresh_from_db()
        return walls, cpus

    one_game(True), one_game(False)  # warm up both paths
    found: dict[bool, tuple[list[float], list[float]]] = {True: ([], []), False: ([], [])}
    for _ in range(games):
        for on in (True, False):
            walls, cpus = one_game(on)
            found[on][0].extend(walls)
            found[on][1].extend(cpus)
    tell.moved, tell.ended = real
    deliveries = Delivery.objects.count()
    moves = len(found[True][0])
    print(f"1. a move in a correspondence game, ms ({games} games of each, interleaved):")
    print(f"   ({moves} moves with notifications on wrote {deliveries} deliveries)")
    for on in (True, False):
        walls, cpus = found[on]
        print(
            f"   notifications {'on ' if on else 'off'}: wall median {statistics.median(walls):.3f}"
            f" mean {statistics.mean(walls):.3f}; CPU median {statistics.median(cpus):.3f}"
            f" mean {statistics.mean(cpus):.3f}"
        )
    for index, name in ((0, "wall"), (1, "CPU")):
        median = statistics.median(found[True][index]) - statistics.median(found[False][index])
        mean = statistics.mean(found[True][index]) - statistics.mean(found[False][index])
        print(f"   cost of notifications, {name}: {median:.3f} ms (medians), {mean:.3f} ms (means)")


# 2. 1,000 notifications delivered


def receivers(ready: Any, counts: Any, stop: Any) -> None:
    """An SMTP server and a push service (in a process of their own), counting."""
    from aiosmtpd.controller import Controller

    from tests.support.daphne import free_port
    from tests.support.push_service import PushService

    class Mailbox:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            with counts.get_lock():
                counts[0] += 1
            return "250 OK"

    port = free_port()
    smtp = Controller(Mailbox(), hostname="127.0.0.1", port=port)
    smtp.start()
    service = PushService().start()
    ready.send((port, service.url))
    try:
        while not stop.wait(0.2):
            with counts.get_lock():
                counts[1] = len(service.received)
    finally:
        with counts.get_lock():
            counts[1] = len(service.received)
        smtp.stop()
        service.stop()


def delivery_rate(count: int) -> None:
    from django.conf import settings
    from django.db import transaction
    from django.db.models import Count

    from notifications import loop, services
    from notifications.models import Delivery, Kind
    from tests.support.helpers import verified_account
    from tests.support.push_service import Device

    spawn = multiprocessing.get_context("spawn")
    mine, theirs = spawn.Pipe()
    counts, stop = spawn.Array("i", [0, 0]), spawn.Event()
    process = spawn.Process(target=receivers, args=(theirs, counts, stop), daemon=True)
    process.start()
    smtp_port, push_url = mine.recv()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", smtp_port, 10
    try:
        Delivery.objects.all().delete()  # part 1's, to devices that do not exist
        accounts = 100
        users = [
            verified_account(f"told{n}", email=f"told{n}@example.org") for n in range(accounts)
        ]
        for user in users:
            device = Device(f"{push_url}/push/{user.username}").subscription()
            services.subscribe(user_id=user.pk, subscription=device)
        start = time.perf_counter()
        for number in range(count):
            with transaction.atomic():
                services.notify(
                    user_id=users[number % accounts].pk,
                    kind=Kind.CHALLENGE,
                    params={"name": f"told{number}", "kind": "othello", "size": 8},
                    url=f"/games/g{number}/",
                )
        written = time.perf_counter() - start
        total = Delivery.objects.count()
        print(f"2. {count:,} notifications, {total:,} deliveries (written in {written:.1f} s):")

        async def run() -> float:
            outbox = loop.OutboxLoop()
            task = asyncio.create_task(outbox.run())
            begun = time.perf_counter()
            pending = Delivery.objects.filter(status=Delivery.Status.PENDING).acount
            while await pending():
                if task.done():
                    task.result()
                await asyncio.sleep(0.05)
            took = time.perf_counter() - begun
            task.cancel()
            return took

        took = asyncio.run(run())
        stop.set()
        process.join(10)
        statuses = dict(Delivery.objects.values_list("status").annotate(n=Count("pk")))
        print(f"   delivered by one process in {took:.1f} s ({total / took:.0f} deliveries/s)")
        print(f"   statuses: {statuses}; SMTP got {counts[0]:,} mails, push {counts[1]:,} pushes")
    finally:
        stop.set()
        process.join(10)
        if process.is_alive():
            process.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and notifications")
    parser.add_argument("--only", choices=("move", "delivery"), help="one of the two")
    parser.add_argument(
        "--control",
        action="store_true",
        help=f"1. with {CONTROL_MS} ms of pure CPU in place of the notifications",
    )
    options = parser.parse_args()
    games, count = (3, 200) if options.quick else (15, 1_000)
    database = setup()
    try:
        from django.db import connection

        print(
            f"database: {connection.vendor};"
            f" channel layer: {os.environ.get('REDIS_URL') or 'in memory'}",
            flush=True,
        )
        if options.only in (None, "move"):
            move_cost(games, control=options.control)
        if options.only in (None, "delivery"):
            delivery_rate(count)
    finally:
        if database is not None:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{database}{suffix}").unlink(missing_ok=True)
        Path(os.environ["VAPID_KEY_FILE"]).unlink(missing_ok=True)


if __name__ == "__main__":
    main()
