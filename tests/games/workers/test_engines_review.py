"""games.workers.engines's pool reviewing games: to the end when its engines are free, never
with its last free engine, and giving its engine back when turns are owed."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from gameengine import gnugo
from games.models import Analysis, Game
from games.services import analysis as analysis_services
from games.workers.engines import EnginePool
from tests.games.test_records import new_game, play_random

pytestmark = pytest.mark.django_db(transaction=True)


async def database(call: Callable[..., Any], **arguments: Any) -> Any:
    return await sync_to_async(call)(**arguments)


def reviewed_game() -> Game:
    game = play_random(new_game("othello", 4), seed=1)
    analysis_services.request_analysis(game_id=game.public_id)
    return game


def pool_of(size: int) -> EnginePool:
    """A pool whose engines are threads of this process (the same code, no spawning)."""
    pool = EnginePool("this-process", size)
    pool._executor = ThreadPoolExecutor(size)  # type: ignore[assignment]
    return pool


async def finish(pool: EnginePool) -> None:
    while pool.tasks:
        await next(iter(pool.tasks))


def analysis_of(game: Game) -> Analysis:
    return Analysis.objects.get(game=game)


async def test_the_pool_reviews_a_queued_game_to_the_end() -> None:
    game = await sync_to_async(reviewed_game)()
    pool = pool_of(2)
    await pool.tick(database)
    assert pool.analysing == 1
    await finish(pool)
    analysis = await sync_to_async(analysis_of)(game)
    assert analysis.status == Analysis.Status.DONE
    assert [entry["ply"] for entry in analysis.plies] == list(range(analysis.total))
    assert (pool.busy, pool.analysing) == (0, 0)


@pytest.mark.skipif(not gnugo.available(), reason="GNU Go (Debian's gnugo) is not installed")
async def test_the_pool_reviews_a_go_game_with_gnu_go() -> None:
    def go_game() -> Game:
        game = play_random(new_game("go", 9), seed=3, go_passes_after=12)
        analysis_services.request_analysis(game_id=game.public_id)
        return game

    game = await sync_to_async(go_game)()
    pool = pool_of(2)
    await pool.tick(database)
    assert pool.analysing == 1
    await finish(pool)
    analysis = await sync_to_async(analysis_of)(game)
    assert analysis.status == Analysis.Status.DONE
    assert [entry["ply"] for entry in analysis.plies] == list(range(analysis.total))
    assert all(isinstance(entry["eval"], float) for entry in analysis.plies)
    assert all("played" not in entry for entry in analysis.plies)


async def test_a_pool_keeps_its_last_free_engine_for_the_turns() -> None:
    game = await sync_to_async(reviewed_game)()
    pool = pool_of(1)
    await pool.tick(database)
    assert (pool.busy, pool.analysing) == (0, 0)
    analysis = await sync_to_async(analysis_of)(game)
    assert (analysis.status, analysis.worker) == (Analysis.Status.QUEUED, "")


async def test_a_review_gives_its_engine_back_when_turns_are_owed() -> None:
    game = await sync_to_async(reviewed_game)()
    pool = pool_of(2)
    await pool.tick(database)
    # Turns fill the engines before the review's first position: it lets go.
    pool.turns_waiting = True
    await finish(pool)
    analysis = await sync_to_async(analysis_of)(game)
    assert analysis.plies == []
    assert (analysis.worker, analysis.lease_until) == ("", None)
    # Claimable again at once, by this process or another: it goes on from there.
    pool.turns_waiting = False
    await pool.tick(database)
    await finish(pool)
    analysis = await sync_to_async(analysis_of)(game)
    assert analysis.status == Analysis.Status.DONE


async def test_a_review_gives_way_when_every_engine_is_busy() -> None:
    game = await sync_to_async(reviewed_game)()
    pool = pool_of(2)
    await pool.tick(database)
    pool.busy += 1  # a turn took the other engine
    await pool.tick(database)
    assert pool.turns_waiting
    pool.busy -= 1
    await finish(pool)
    analysis = await sync_to_async(analysis_of)(game)
    assert (analysis.worker, analysis.plies) == ("", [])
