"""games.workers.engines answering explores: in the pool's engines, behind the turns the
computer owes and ahead of the reviews, one at a time for each player, never in the
engine kept for the turns, bounded in time; and in a thread where no pool serves.

The pool's engines are threads here (the same code, no spawning: ``pool_of``); the
worker processes of a real server are in test_engines_daphne.py. Jobs that must wait
block on an event the test sets: no sleeps, no timing."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from accounts.players import Player
from games.models import Analysis
from games.services import analysis as analysis_services
from games.services import lobby
from games.workers import engines
from games.workers.engines import EnginePool
from tests.games.test_records import new_game, play_random

pytestmark = pytest.mark.django_db(transaction=True)

OTHELLO_JOB = {
    "kind": "othello",
    "size": 4,
    "komi": None,
    "start": None,
    "moves": [("black", [0, 1]), ("white", [0, 0])],
    "settings": {"seconds": 0.3, "exact_empties": 10},
}
"""A 4x4 position of 10 empties: solved exactly, at once."""


async def database(call: Callable[..., Any], **arguments: Any) -> Any:
    return await sync_to_async(call)(**arguments)


class Recorder:
    """The pool's explorer, recording the thread each job ran in; with ``gate``, each
    job waits for it (an engine that is still thinking)."""

    def __init__(self, gate: threading.Event | None = None) -> None:
        self.gate = gate
        self.threads: list[int] = []

    def __call__(self, job: Mapping[str, Any]) -> dict[str, Any]:
        self.threads.append(threading.get_ident())
        if self.gate is not None:
            assert self.gate.wait(30)
        return engines.explore_job(job)


def pool_of(size: int, explorer: Recorder | None = None) -> EnginePool:
    """A pool whose engines are threads of this process; its wake-ups counted."""
    pool = EnginePool("this-process", size)
    pool._executor = ThreadPoolExecutor(size)  # type: ignore[assignment]
    pool.explorer = explorer or Recorder()
    pool.wakes = 0  # type: ignore[attr-defined]

    def wake() -> None:
        pool.wakes += 1  # type: ignore[attr-defined]

    pool.wake = wake
    return pool


@pytest.fixture(autouse=True)
def no_pool_serving() -> Iterator[None]:
    """Each test starts, and leaves, this process with no pool serving."""
    engines._serving = None
    yield
    engines._serving = None


async def finish(pool: EnginePool) -> None:
    """Until every task of the pool has ended (turns, reviews, explores)."""
    while pool.tasks:
        await next(iter(pool.tasks))


ANN = "u:1"
"""The player asking, unless a test says otherwise (``Player.token``: an account)."""


async def queued(
    pool: EnginePool, job: Mapping[str, Any], player: str = ANN
) -> asyncio.Task[dict[str, Any]]:
    """``pool.explore(job, player)`` asked, as a request does: queued, not yet answered."""
    task = asyncio.create_task(pool.explore(job, player))
    await asyncio.sleep(0)  # the task runs up to its wait: queued
    assert player in pool.lines
    return task


async def test_a_queued_explore_wakes_the_watch_and_a_tick_gives_it_an_engine() -> None:
    recorder = Recorder()
    pool = pool_of(2, recorder)
    task = await queued(pool, OTHELLO_JOB)
    assert pool.wakes == 1  # type: ignore[attr-defined]
    assert recorder.threads == []  # nothing runs before the tick
    await pool.tick(database)
    found = await task
    assert found["exact"] is True
    assert set(found) == {"eval", "exact", "best", "pv"}
    # The engine's thread, not this one.
    assert recorder.threads and recorder.threads[0] != threading.get_ident()
    assert (pool.busy, list(pool.explores)) == (0, [])


async def test_an_explore_waits_behind_a_move_the_computer_owes(
    white: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The person plays White: the computer, Black, owes the first move.
    await sync_to_async(lobby.create_game)(
        player=white,
        new=lobby.NewGame(
            kind="othello", size=6, color="white", name="Ann", opponent="computer", level=1
        ),
    )
    thinking = threading.Event()
    answered = []

    def answer(turn: Mapping[str, Any], **options: Any) -> dict[str, Any]:
        assert thinking.wait(30)
        answered.append(turn["ply"])
        return {"point": [1, 2]}

    monkeypatch.setattr(engines, "answer", answer)
    recorder = Recorder()
    pool = pool_of(1, recorder)
    task = await queued(pool, OTHELLO_JOB)
    await pool.tick(database)
    # The one engine took the computer's turn; the explore waits.
    assert pool.busy == 1
    assert len(pool.explores) == 1
    assert recorder.threads == []
    thinking.set()
    await finish(pool)
    assert answered == [0]
    assert pool.wakes == 2  # type: ignore[attr-defined]  # queued, then the engine freed
    await pool.tick(database)
    assert (await task)["exact"] is True
    assert len(recorder.threads) == 1


async def test_queued_explores_go_before_a_review_and_a_review_gives_way_to_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = await sync_to_async(lambda: play_random(new_game("othello", 4), seed=1))()
    await sync_to_async(analysis_services.request_analysis)(game_id=game.public_id)
    pool = pool_of(2)
    task = await queued(pool, OTHELLO_JOB)
    await pool.tick(database)
    # The explore took an engine: one is left, so the review waits.
    assert pool.analysing == 0
    assert (await task)["exact"] is True
    await finish(pool)
    # A review under way gives its engine back, after its position, to a queued explore.
    position = threading.Event()
    review_verdict = engines.verdict

    def verdict(*arguments: Any, **options: Any) -> dict[str, Any]:
        assert position.wait(30)
        return review_verdict(*arguments, **options)

    monkeypatch.setattr(engines, "verdict", verdict)
    await pool.tick(database)
    assert pool.analysing == 1
    task = await queued(pool, OTHELLO_JOB)
    position.set()
    await finish(pool)
    analysis = await sync_to_async(Analysis.objects.get)(game=game)
    assert len(analysis.plies) == 1
    assert (analysis.worker, analysis.status) == ("", Analysis.Status.RUNNING)
    await pool.tick(database)
    assert (await task)["exact"] is True


class Clock:
    """The pool's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_explores_waiting_too_long_for_an_engine_are_refused_busy_with_those_behind() -> None:
    recorder = Recorder()
    pool = pool_of(1, recorder)
    clock = pool.clock = Clock()
    pool.busy = 1  # the one engine thinks a turn
    first = await queued(pool, OTHELLO_JOB)
    behind = await queued(pool, OTHELLO_JOB)
    clock.now += engines.EXPLORE_QUEUE
    await pool.tick(database)
    assert not first.done()  # within the bound: it waits on
    clock.now += 1
    await pool.tick(database)
    for task in (first, behind):
        with pytest.raises(engines.EnginesBusy) as refused:
            await task
        assert (refused.value.status, refused.value.message) == (
            503,
            "the engines are busy: try again in a moment",
        )
        assert refused.value.retry_after == engines.EXPLORE_RETRY
    # Forgotten: an engine that frees up later does not run them.
    assert (list(pool.explores), pool.lines) == ([], {})
    pool.busy = 0
    await pool.tick(database)
    assert recorder.threads == []


async def test_an_explore_that_takes_too_long_is_the_engines_could_not_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(engines, "EXPLORE_GRACE", 0)
    gate = threading.Event()
    pool = pool_of(1, Recorder(gate))
    task = await queued(
        pool, {**OTHELLO_JOB, "settings": {**OTHELLO_JOB["settings"], "seconds": 0}}
    )  # type: ignore[dict-item]
    await pool.tick(database)
    assert await task == {"engine_error": "the engine did not answer within 0 s"}
    # The engine stays busy until its job ends, then is free again.
    assert pool.busy == 1
    gate.set()
    await finish(pool)
    assert pool.busy == 0


async def test_an_engine_that_fails_is_the_engines_could_not_answer() -> None:
    pool = pool_of(1)

    def broken(job: Mapping[str, Any]) -> dict[str, Any]:
        raise RuntimeError("the worker process died")

    pool.explorer = broken
    task = await queued(pool, OTHELLO_JOB)
    await pool.tick(database)
    assert await task == {"engine_error": "the engine failed: the worker process died"}
    assert pool.busy == 0


async def test_an_explore_whose_request_was_cancelled_leaves_the_queue() -> None:
    recorder = Recorder()
    pool = pool_of(1, recorder)
    task = await queued(pool, OTHELLO_JOB)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert list(pool.explores) == []
    await pool.tick(database)
    assert recorder.threads == []


async def test_where_a_pool_serves_the_explores_of_its_loop_go_to_it() -> None:
    recorder = Recorder()
    pool = pool_of(1, recorder)
    pool.serve()
    asked = asyncio.create_task(engines.explore(OTHELLO_JOB, ANN))
    await asyncio.sleep(0)
    assert pool.explores  # queued in the pool, not run in a thread
    await pool.tick(database)
    assert (await asked)["exact"] is True
    assert len(recorder.threads) == 1


async def test_where_no_pool_serves_an_explore_is_answered_in_a_thread() -> None:
    found = await engines.explore(OTHELLO_JOB, ANN)
    assert found["exact"] is True
    assert set(found) == {"eval", "exact", "best", "pv"}


def test_a_pool_serving_another_loop_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    # As under the test client or runserver: the request's loop is not the server's.
    recorder = Recorder()
    pool = pool_of(1, recorder)
    pool.loop = asyncio.new_event_loop()
    engines._serving = pool
    try:
        found = asyncio.run(engines.explore(OTHELLO_JOB, ANN))
    finally:
        pool.loop.close()
    assert found["exact"] is True
    assert recorder.threads == [] and list(pool.explores) == []


# One player's explores one at a time; the computer's turns never behind them.


class SlowEngine:
    """The pool's explorer, slowed: each job thinks until the test lets one finish
    (``finish_one``). ``order`` (shared with a turn's fake answer) records each job as it
    starts (``explore N``, N its ``asked``, when it has one); ``most``, the most running at
    once."""

    def __init__(self, order: list[str]) -> None:
        self.order = order
        self.running = 0
        self.most = 0
        self.lock = threading.Lock()
        self.gate = threading.Semaphore(0)
        self.began = threading.Semaphore(0)

    def __call__(self, job: Mapping[str, Any]) -> dict[str, Any]:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
            self.order.append(f"explore {job.get('asked', '')}".strip())
        self.began.release()
        assert self.gate.acquire(timeout=30)
        with self.lock:
            self.running -= 1
        return engines.explore_job(job)


def asked(number: int) -> dict[str, Any]:
    """The ``number``-th explore asked (the same position each time)."""
    return {**OTHELLO_JOB, "asked": number}


async def finish_one(
    pool: EnginePool, engine: SlowEngine, tasks: list[asyncio.Task[dict[str, Any]]]
) -> None:
    """Let the one explore running finish, wait for its answer (one of ``tasks``, the
    requests'), and tick as the watch, woken, does."""
    engine.gate.release()
    await asyncio.wait([task for task in tasks if not task.done()], return_when="FIRST_COMPLETED")
    await pool.tick(database)


async def test_twelve_explores_of_one_account_run_one_at_a_time_and_are_all_answered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No time at all to wait for an engine: the explores waiting behind the account's
    # own earlier ones are not waiting for an engine, however long those take.
    monkeypatch.setattr(engines, "EXPLORE_QUEUE", 0)
    order: list[str] = []
    engine = SlowEngine(order)
    pool = pool_of(2)
    pool.explorer = engine
    tasks = [await queued(pool, asked(number)) for number in range(1, 13)]
    await pool.tick(database)
    assert [task.result() for task in tasks if task.done()] == []  # none answered yet
    for _ in range(12):
        await finish_one(pool, engine, tasks)
    answers = [await task for task in tasks]
    assert engine.most == 1
    assert all(answer["exact"] is True for answer in answers)
    assert order == [f"explore {number}" for number in range(1, 13)]
    assert (pool.busy, list(pool.explores), pool.lines) == (0, [], {})


async def test_a_computer_move_owed_while_explores_queue_is_served_before_them(
    white: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[str] = []
    answered = threading.Event()

    def answer(turn: Mapping[str, Any], **options: Any) -> dict[str, Any]:
        order.append("turn")
        answered.set()
        return {"point": [1, 2]}

    monkeypatch.setattr(engines, "answer", answer)
    engine = SlowEngine(order)
    pool = pool_of(2)
    pool.explorer = engine
    tasks = [await queued(pool, asked(number)) for number in range(1, 13)]
    await pool.tick(database)
    assert await asyncio.to_thread(engine.began.acquire, timeout=30)  # the first thinks
    # The person plays White: the computer, Black, owes the first move now.
    game = await sync_to_async(lobby.create_game)(
        player=white,
        new=lobby.NewGame(
            kind="othello", size=6, color="white", name="Ann", opponent="computer", level=1
        ),
    )
    await pool.tick(database)
    # Claimed at once, while the first explore still thinks and eleven wait.
    await sync_to_async(game.refresh_from_db)()
    assert game.computer_thinker == "this-process"
    assert await asyncio.to_thread(answered.wait, 30)
    for _ in range(12):
        await finish_one(pool, engine, tasks)
    assert [(await task)["exact"] for task in tasks] == [True] * 12
    await finish(pool)
    assert order == ["explore 1", "turn", *(f"explore {number}" for number in range(2, 13))]
    await sync_to_async(game.refresh_from_db)()
    assert game.ply == 1  # the computer's move stored


async def test_players_take_turns_with_the_engine() -> None:
    order: list[str] = []
    engine = SlowEngine(order)
    pool = pool_of(2)
    pool.explorer = engine
    tasks = [await queued(pool, asked(number)) for number in (1, 2, 3)]
    tasks.append(await queued(pool, asked(4), player="s:bob-session"))
    await pool.tick(database)
    for _ in range(4):
        await finish_one(pool, engine, tasks)
    assert [(await task)["exact"] for task in tasks] == [True] * 4
    # Bob's one explore came after Ann's three: it runs after her first, not her third.
    assert order == ["explore 1", "explore 4", "explore 2", "explore 3"]


async def test_beyond_twelve_explores_a_player_is_refused_busy_at_once() -> None:
    engine = SlowEngine([])
    pool = pool_of(2)
    pool.explorer = engine
    tasks = [await queued(pool, asked(number)) for number in range(1, 13)]
    await pool.tick(database)
    with pytest.raises(engines.EnginesBusy) as refused:
        await pool.explore(asked(13), ANN)
    assert refused.value.status == 429
    assert refused.value.message == (
        "you have 12 explores waiting for their answers already: ask again once one is answered"
    )
    # Another player is not refused; the account is again once one is answered.
    tasks.append(await queued(pool, asked(14), player="s:bob-session"))
    await finish_one(pool, engine, tasks)
    tasks.append(await queued(pool, asked(15)))
    for _ in range(13):
        await finish_one(pool, engine, tasks)
    assert [(await task)["exact"] for task in tasks] == [True] * 14


async def test_a_players_explore_waits_for_the_one_another_process_runs() -> None:
    # Two processes' pools; the cache (Redis between processes) holds the player's lease.
    engine = SlowEngine([])
    first, second = pool_of(2), pool_of(2)
    second.process = "another-process"
    first.explorer = second.explorer = engine
    there = await queued(first, asked(1))
    await first.tick(database)
    here = await queued(second, asked(2))
    await second.tick(database)
    # Not started: the other process runs the player's explore.
    assert (second.busy, len(second.explores)) == (0, 1)
    await finish_one(first, engine, [there])
    assert (await there)["exact"] is True
    await second.tick(database)
    assert (second.busy, len(second.explores)) == (1, 0)
    await finish_one(second, engine, [here])
    assert (await here)["exact"] is True
