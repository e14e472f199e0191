"""games.views.analysis's explore.json: an async view whose engine work goes to the
process's engines (games.workers.engines) when a pool serves on its event loop, and is
done in a thread otherwise; its limit holds as the other posts' do; one player's explores
wait for each other, and the load is refused as ``busy``.

The answer itself (the rules, the verdict, the errors) is tested through the test client
in tests/games/services/test_analysis.py, which takes the thread path."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.contrib.auth.models import User
from django.db import connections
from django.test import AsyncClient, Client

from games.models import Game
from games.workers import engines
from games.workers.engines import EnginePool
from tests.games.test_records import new_game, play_random
from tests.games.workers.test_engines_explore import SlowEngine

pytestmark = pytest.mark.django_db(transaction=True)


def finished_othello() -> Game:
    """A finished 4x4 game: its position after two moves is solved at once."""
    return play_random(new_game("othello", 4), seed=1)


async def database(call: Callable[..., Any], **arguments: Any) -> Any:
    return await sync_to_async(call)(**arguments)


async def request(method: Callable[..., Any], *arguments: Any, **options: Any) -> Any:
    """One request of the async test client in a context of its own, as Django's ASGI
    handler runs each request (its sync parts on a thread of its own), whose database
    connections go back to the pool at its end, as the handler's ``request_finished``
    does (the test client keeps them: PostgreSQL's pool would run dry)."""
    async with ThreadSensitiveContext():
        try:
            return await method(*arguments, **options)
        finally:
            await sync_to_async(connections.close_all)()


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


@pytest.fixture
async def slowed() -> AsyncIterator[tuple[EnginePool, SlowEngine]]:
    """A pool of two engines (threads) serving this test's loop, each explore thinking
    until the test lets it finish (``SlowEngine``), and a watch that ticks whenever the
    pool wakes it, as a daphne process's does (outside any request)."""
    engine = SlowEngine([])
    pool = EnginePool("this-process", 2)
    pool._executor = ThreadPoolExecutor(2)  # type: ignore[assignment]
    pool.explorer = engine
    woken = asyncio.Event()
    pool.wake = woken.set

    async def watch() -> None:
        while True:
            await woken.wait()
            woken.clear()
            await pool.tick(database)

    watching = asyncio.create_task(watch())
    pool.serve()
    yield pool, engine
    watching.cancel()
    engines._serving = None


def explore_post(client: AsyncClient, game: Game, ply: int) -> Any:
    """``POST explore.json`` about the position after ``ply`` moves, in a request of its
    own."""
    return request(
        client.post,
        f"/games/{game.public_id}/explore.json",
        {"ply": ply, "moves": []},
        content_type="application/json",
    )


async def test_twelve_explores_of_one_account_are_answered_one_at_a_time(
    slowed: tuple[EnginePool, SlowEngine],
) -> None:
    pool, engine = slowed
    game = await sync_to_async(finished_othello)()
    client = AsyncClient()
    await client.aforce_login(await sync_to_async(User.objects.create_user)("ann"))
    tasks = [asyncio.create_task(explore_post(client, game, 2)) for _ in range(12)]
    for _ in range(12):
        engine.gate.release()  # the engine thinks slowly: one explore's end at a time
        await asyncio.wait(
            [task for task in tasks if not task.done()], return_when="FIRST_COMPLETED"
        )
    answers = [await task for task in tasks]
    assert [answer.status_code for answer in answers] == [200] * 12
    assert all(answer.json()["exact"] is True for answer in answers)
    assert engine.most == 1
    assert (pool.busy, pool.lines) == (0, {})


async def test_beyond_a_players_explores_the_answer_is_429_busy(
    slowed: tuple[EnginePool, SlowEngine], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engines, "EXPLORE_PER_PLAYER", 1)
    pool, engine = slowed
    game = await sync_to_async(finished_othello)()
    client = AsyncClient()  # a guest: the first explore gives it a session
    engine.gate.release()
    first = await explore_post(client, game, 0)
    assert first.status_code == 200 and first.cookies["sessionid"].value
    waiting = asyncio.create_task(explore_post(client, game, 2))
    deadline = asyncio.get_running_loop().time() + 10
    while not pool.lines:  # the request reaches the view through the middleware's thread
        assert asyncio.get_running_loop().time() < deadline, "the explore was not queued"
        await asyncio.sleep(0.01)
    refused = await explore_post(client, game, 2)
    assert refused.status_code == 429
    assert refused["Retry-After"] == str(engines.EXPLORE_RETRY)
    assert refused.json() == {
        "error": "busy",
        "message": "you have 1 explore waiting for its answer already: "
        "ask again once it is answered",
    }
    # Another visitor is served (after it: the players take turns).
    other = asyncio.create_task(explore_post(AsyncClient(), game, 2))
    engine.gate.release()
    engine.gate.release()
    assert (await waiting).json()["exact"] is True
    assert (await other).json()["exact"] is True


async def test_an_explore_that_waits_too_long_for_an_engine_is_503_busy(
    slowed: tuple[EnginePool, SlowEngine],
) -> None:
    pool, engine = slowed
    pool.clock = lambda: 0.0
    pool.busy = 1  # one engine thinks a turn, the other stays free for the next
    game = await sync_to_async(finished_othello)()
    waiting = asyncio.create_task(explore_post(AsyncClient(), game, 2))
    deadline = asyncio.get_running_loop().time() + 10
    while not pool.explores:
        assert asyncio.get_running_loop().time() < deadline, "the explore was not queued"
        await asyncio.sleep(0.01)
    pool.clock = lambda: engines.EXPLORE_QUEUE + 1
    await pool.tick(database)
    refused = await waiting
    assert refused.status_code == 503
    assert refused["Retry-After"] == str(engines.EXPLORE_RETRY)
    assert refused.json() == {
        "error": "busy",
        "message": "the engines are busy: try again in a moment",
    }
    assert engine.most == 0
