"""The background mining: a finished Othello game queued (PUZZLE_MINING) is mined by a
process's engines (games.workers.engines's idle work) after the turns and the reviews,
never with the last free engine."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from games import signals
from games.models import Game
from games.workers.engines import EnginePool
from puzzles.models import Mining, Puzzle
from puzzles.services import MINING
from tests.games.workers.test_engines_review import database, finish
from tests.games.workers.test_engines_review import pool_of as engines_of
from tests.puzzles.test_mining import UNIQUE_WIN
from tests.puzzles.test_services import finished_game

pytestmark = pytest.mark.django_db(transaction=True)


def pool_of(size: int) -> EnginePool:
    """A pool of ``size`` engines (threads of this process) given the puzzles' mining, as
    othello_site.asgi gives it to every process's pool."""
    pool = engines_of(size)
    pool.idle_work = (MINING,)
    return pool


def finished_and_queued(moves: list[tuple[int, int]]) -> Game:
    game = finished_game(UNIQUE_WIN, moves)
    signals.game_finished.send(sender=None, game=game)
    return game


@pytest.fixture
def mining_on(settings: Any) -> Any:
    """The settings, with the background mining on (as it is by default outside tests)."""
    settings.PUZZLE_MINING = True
    return settings


@pytest.fixture
async def queued(mining_on: Any) -> Game:
    """A finished Othello game with a puzzle in it, queued for mining."""
    game: Game = await sync_to_async(finished_and_queued)([(1, 1)])
    return game


def mining_of(game: Game) -> Mining:
    return Mining.objects.get(game=game)


async def test_the_pool_mines_a_queued_game_with_an_engine_to_spare(queued: Game) -> None:
    game = queued
    pool = pool_of(2)
    await pool.tick(database)
    assert pool.idling == 1
    await finish(pool)
    mining = await sync_to_async(mining_of)(game)
    assert mining.status == Mining.Status.DONE and mining.found >= 1
    assert await sync_to_async(Puzzle.objects.filter(game=game, ply=0).exists)()
    assert (pool.busy, pool.idling) == (0, 0)


async def test_a_single_engine_never_mines(queued: Game) -> None:
    game = queued
    pool = pool_of(1)
    await pool.tick(database)
    assert pool.idling == 0
    mining = await sync_to_async(mining_of)(game)
    assert mining.status == Mining.Status.QUEUED


async def test_nothing_is_mined_with_mining_off(mining_on: Any, queued: Game) -> None:
    game = queued
    mining_on.PUZZLE_MINING = False
    pool = pool_of(2)
    await pool.tick(database)
    assert pool.idling == 0
    assert (await sync_to_async(mining_of)(game)).status == Mining.Status.QUEUED


async def test_a_game_the_rules_cannot_replay_fails(mining_on: Any) -> None:
    # a1 is not a legal move there
    game: Game = await sync_to_async(finished_and_queued)([(0, 0)])
    pool = pool_of(2)
    await pool.tick(database)
    await finish(pool)
    assert (await sync_to_async(mining_of)(game)).status == Mining.Status.FAILED


async def test_a_pool_not_given_the_mining_never_mines(queued: Game) -> None:
    game = queued
    pool = engines_of(2)
    await pool.tick(database)
    assert pool.idling == 0
    assert (await sync_to_async(mining_of)(game)).status == Mining.Status.QUEUED
