"""games.views.analysis's explore.json: an async view whose engine work goes to the
process's engines (games.workers.engines) when a pool serves on its event loop, and is
done in a thread otherwise; its limit holds as the other posts' do.

The answer itself (the rules, the verdict, the errors) is tested through the test client
in tests/games/services/test_analysis.py, which takes the thread path."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.test import AsyncClient, Client

from games.models import Game
from games.workers import engines
from games.workers.engines import EnginePool
from tests.games.test_records import new_game, play_random

pytestmark = pytest.mark.django_db(transaction=True)


def finished_othello() -> Game:
    """A finished 4x4 game: its position after two moves is solved at once."""
    return play_random(new_game("othello", 4), seed=1)


async def database(call: Callable[..., Any], **arguments: Any) -> Any:
    return await sync_to_async(call)(**arguments)


async def request(method: Callable[..., Any], *arguments: Any, **options: Any) -> Any:
    """One request of the async test client in a context of its own, as Django's ASGI
    handler runs each request (its sync parts on a thread of its own)."""
    async with ThreadSensitiveContext():
        return await method(*arguments, **options)


@pytest.fixture
def serving() -> Iterator[tuple[EnginePool, list[int]]]:
    """A pool serving this test's event loop as a daphne process's does, its engines
    threads, ticking whenever it is woken; and the threads its explores ran in."""
    threads: list[int] = []

    def explorer(job: Mapping[str, Any]) -> dict[str, Any]:
        threads.append(threading.get_ident())
        return engines.explore_job(job)

    pool = EnginePool("this-process", 1)
    pool._executor = ThreadPoolExecutor(1)  # type: ignore[assignment]
    pool.explorer = explorer
    pool.wake = lambda: pool._start(pool.tick(database))
    yield pool, threads
    engines._serving = None


async def test_in_a_serving_process_the_engine_work_is_the_pools(
    serving: tuple[EnginePool, list[int]],
) -> None:
    pool, threads = serving
    pool.serve()
    game = await sync_to_async(finished_othello)()
    answer = await AsyncClient().post(
        f"/games/{game.public_id}/explore.json",
        {"ply": 2, "moves": []},
        content_type="application/json",
    )
    assert answer.status_code == 200
    body = answer.json()
    assert body["exact"] is True
    assert body["best"] in body["legal"]
    # One of the pool's engines answered.
    assert len(threads) == 1
    assert threads[0] in {thread.ident for thread in pool._executor._threads}  # type: ignore[union-attr]


async def test_an_explore_waiting_for_an_engine_does_not_hold_up_other_requests(
    serving: tuple[EnginePool, list[int]],
) -> None:
    pool, threads = serving
    pool.serve()
    pool.busy = 1  # the one engine thinks a turn: the explore waits for it
    game = await sync_to_async(finished_othello)()
    client = AsyncClient()
    waiting = asyncio.create_task(
        request(
            client.post,
            f"/games/{game.public_id}/explore.json",
            {"ply": 2, "moves": []},
            content_type="application/json",
        )
    )
    deadline = asyncio.get_running_loop().time() + 10
    while not pool.explores:  # the request reaches the view through the middleware's thread
        assert asyncio.get_running_loop().time() < deadline, "the explore was not queued"
        await asyncio.sleep(0.01)
    # Meanwhile the process answers another request.
    page = await request(client.get, f"/games/{game.public_id}/analysis.json")
    assert page.status_code == 404  # no review asked: answered all the same
    assert not waiting.done()
    pool._free()  # the turn is done: the explore gets the engine
    assert (await waiting).json()["exact"] is True
    assert len(threads) == 1


def test_beyond_sixty_explores_a_minute_a_session_gets_429(client: Client, settings: Any) -> None:
    settings.RATE_LIMITS = True
    game = finished_othello()
    url = f"/games/{game.public_id}/explore.json"
    codes = [
        client.post(url, {"ply": 2, "moves": []}, content_type="application/json").status_code
        for _ in range(61)
    ]
    assert codes == [200] * 60 + [429]
