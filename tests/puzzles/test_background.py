"""The background mining: a finished Othello game queued (PUZZLE_MINING) is mined by a
process's engines (games.workers.engines's idle work) after the turns and the reviews,
never with the last free engine."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from games import signals
from games.models import Game
from puzzles.models import Mining, Puzzle
from tests.games.workers.test_engines_review import database, finish, pool_of
from tests.puzzles.test_mining import UNIQUE_WIN
from tests.puzzles.test_services import finished_game

pytestmark = pytest.mark.django_db(transaction=True)


def queued_game() -> Game:
    game = finished_game(UNIQUE_WIN, [(1, 1)])
    signals.game_finished.send(sender=None, game=game)
    return game


def mining_of(game: Game) -> Mining:
    return Mining.objects.get(game=game)


async def test_the_pool_mines_a_queued_game_with_an_engine_to_spare(settings: Any) -> None:
    settings.PUZZLE_MINING = True
    game = await sync_to_async(queued_game)()
    pool = pool_of(2)
    await pool.tick(database)
    assert pool.idling == 1
    await finish(pool)
    mining = await sync_to_async(mining_of)(game)
    assert mining.status == Mining.Status.DONE and mining.found >= 1
    assert await sync_to_async(Puzzle.objects.filter(game=game, ply=0).exists)()
    assert (pool.busy, pool.idling) == (0, 0)


async def test_a_single_engine_never_mines(settings: Any) -> None:
    settings.PUZZLE_MINING = True
    game = await sync_to_async(queued_game)()
    pool = pool_of(1)
    await pool.tick(database)
    assert pool.idling == 0
    mining = await sync_to_async(mining_of)(game)
    assert mining.status == Mining.Status.QUEUED


async def test_nothing_is_mined_with_mining_off(settings: Any) -> None:
    settings.PUZZLE_MINING = True
    game = await sync_to_async(queued_game)()
    settings.PUZZLE_MINING = False
    pool = pool_of(2)
    await pool.tick(database)
    assert pool.idling == 0
    assert (await sync_to_async(mining_of)(game)).status == Mining.Status.QUEUED


async def test_a_game_the_rules_cannot_replay_fails(settings: Any) -> None:
    settings.PUZZLE_MINING = True

    def broken() -> Game:
        game = finished_game(UNIQUE_WIN, [(0, 0)])  # a1 is not a legal move there
        signals.game_finished.send(sender=None, game=game)
        return game

    game: Game = await sync_to_async(broken)()
    pool = pool_of(2)
    await pool.tick(database)
    await finish(pool)
    assert (await sync_to_async(mining_of)(game)).status == Mining.Status.FAILED
