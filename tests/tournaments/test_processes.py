"""Two processes running the tournaments' loop at once on PostgreSQL (the advisory lock
and the row locks across processes, not threads): every player is paired once a wave,
and a process killed while it pairs loses nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from games.models import Game
from tests.support.daphne import environment
from tests.tournaments.helpers import START, joined, tournament
from tournaments.models import TournamentPairing

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
LOOP = f"""
import datetime, django
django.setup()
from tournaments import services
now = datetime.datetime.fromisoformat({START.isoformat()!r})
for _ in range(int(__import__("sys").argv[1])):
    services.tick(now=now)
"""


def database_url() -> str:
    found = connection.settings_dict
    user, host, port = found["USER"], found["HOST"] or "127.0.0.1", found["PORT"] or 5432
    password = f":{found['PASSWORD']}" if found["PASSWORD"] else ""
    return f"postgres://{user}{password}@{host}:{port}/{found['NAME']}"


def loop(turns: int) -> subprocess.Popen[bytes]:
    env = environment(
        {
            "DATABASE_URL": database_url(),
            "DJANGO_SETTINGS_MODULE": "othello_site.settings",
            "SECRET_KEY": "tests",
        }
    )
    return subprocess.Popen([sys.executable, "-c", LOOP, str(turns)], cwd=ROOT, env=env)


def test_two_processes_running_the_loop_pair_each_player_once() -> None:
    assert connection.vendor == "postgresql"
    found = tournament()
    joined(found, *(f"p{n}" for n in range(40)))
    processes = [loop(4), loop(4)]
    for process in processes:
        assert process.wait(120) == 0
    made = Game.objects.filter(tournament_pairing__tournament=found)
    seated = [user for pair in made.values_list("black_user_id", "white_user_id") for user in pair]
    assert made.count() == 20
    assert len(seated) == len(set(seated)) == 40


def test_a_process_killed_while_pairing_loses_nothing_and_pairs_nobody_twice() -> None:
    assert connection.vendor == "postgresql"
    found = tournament("swiss")
    joined(found, *(f"p{n}" for n in range(60)))
    victim = loop(1)
    time.sleep(0.3)  # in the middle of its turn, or before, or after: any is fine
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait(30)
    survivor = loop(1)
    assert survivor.wait(120) == 0
    rounds = TournamentPairing.objects.filter(tournament=found).values_list("round", flat=True)
    assert set(rounds) == {1} and len(rounds) == 30
    seated = [
        user
        for pair in TournamentPairing.objects.filter(tournament=found).values_list(
            "black_id", "white_id"
        )
        for user in pair
    ]
    assert len(seated) == len(set(seated)) == 60
