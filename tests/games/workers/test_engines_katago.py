"""games.workers.engines with KataGo configured (a fake KataGo, tests/gameengine/fake_katago.py):
its jobs one at a time, the computer's moves first; a Go game reviewed by KataGo, named so."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from gameengine import katago
from games.models import Analysis, Game
from games.services import analysis as analysis_services
from games.workers.engines import EXPLORE, REVIEW, TURN, EnginePool, KataGoLane
from tests.games.test_records import new_game, play_random

FAKE = Path(__file__).parents[2] / "gameengine" / "fake_katago.py"


async def test_the_lane_runs_one_job_at_a_time_the_computers_moves_first() -> None:
    lane = KataGoLane()
    executor = ThreadPoolExecutor(4)
    release = threading.Event()
    order: list[str] = []
    running: list[int] = [0, 0]  # now, most at once

    def job(name: str) -> Callable[[], str]:
        def run() -> str:
            running[0] += 1
            running[1] = max(running)
            if name == "first review":
                release.wait(5)
            order.append(name)
            running[0] -= 1
            return name

        return run

    first = asyncio.create_task(lane.run(REVIEW, executor, job("first review")))
    await asyncio.sleep(0.05)
    queued = [
        asyncio.create_task(lane.run(priority, executor, job(name)))
        for priority, name in [(REVIEW, "review"), (EXPLORE, "explore"), (TURN, "turn")]
    ]
    await asyncio.sleep(0.05)
    release.set()
    await asyncio.gather(first, *queued)
    assert order == ["first review", "turn", "explore", "review"]
    assert running[1] == 1
    assert not lane.busy
    executor.shutdown()


async def test_a_job_cancelled_while_it_waits_leaves_the_lane_to_the_others() -> None:
    lane = KataGoLane()
    executor = ThreadPoolExecutor(2)
    release = threading.Event()
    first = asyncio.create_task(lane.run(REVIEW, executor, lambda: release.wait(5)))
    await asyncio.sleep(0.05)
    gone = asyncio.create_task(lane.run(TURN, executor, lambda: "never"))
    after = asyncio.create_task(lane.run(REVIEW, executor, lambda: "ran"))
    await asyncio.sleep(0.05)
    gone.cancel()
    release.set()
    assert await after == "ran"
    await first
    assert not lane.busy
    executor.shutdown()


async def database(call: Callable[..., Any], **arguments: Any) -> Any:
    return await sync_to_async(call)(**arguments)


@pytest.fixture
def fake_katago(settings: Any, tmp_path: Path) -> dict[str, Any]:
    settings.KATAGO = {
        "command": [sys.executable, str(FAKE)],
        "model": "model.bin.gz",
        "analysis_config": "analysis.cfg",
        "gtp_config": "gtp.cfg",
        "review_visits": 1,
        "top_visits": 1,
    }
    yield settings.KATAGO
    katago.close()


@pytest.mark.django_db(transaction=True)
async def test_a_go_game_is_reviewed_by_katago_and_the_review_says_so(
    fake_katago: dict[str, Any],
) -> None:
    def go_game() -> Game:
        game = play_random(new_game("go", 9), seed=3, go_passes_after=12)
        analysis_services.request_analysis(game_id=game.public_id)
        return game

    game = await sync_to_async(go_game)()
    pool = EnginePool("this-process", 2)
    pool._executor = ThreadPoolExecutor(2)  # type: ignore[assignment]
    pool._katago_executor = ThreadPoolExecutor(1)  # type: ignore[assignment]
    await pool.tick(database)
    while pool.tasks:
        await next(iter(pool.tasks))
    analysis = await sync_to_async(Analysis.objects.get)(game=game)
    assert analysis.status == Analysis.Status.DONE
    assert analysis.engine == "KataGo (1 visit a position)"
    assert [entry["ply"] for entry in analysis.plies] == list(range(analysis.total))
    assert all(0 <= entry["winrate"] <= 1 for entry in analysis.plies)
    # The fake's lead moves by one stone a move: a move's loss is the lead it gave away.
    assert all(entry["loss"] <= 1 for entry in analysis.plies[1:])


@pytest.mark.django_db(transaction=True)
async def test_a_go_explore_asks_katago_in_its_lane(fake_katago: dict[str, Any]) -> None:
    def go_game() -> Game:
        return play_random(new_game("go", 9), seed=3, go_passes_after=12)

    game = await sync_to_async(go_game)()
    explored = await sync_to_async(analysis_services.explore)(
        game_id=game.public_id, ply=2, moves=[[0, 0]], engine=True
    )
    assert explored.job is not None
    assert explored.job["settings"]["katago"] == fake_katago
    pool = EnginePool("this-process", 2)
    pool._executor = ThreadPoolExecutor(2)  # type: ignore[assignment]
    pool._katago_executor = ThreadPoolExecutor(1)  # type: ignore[assignment]
    pool.wake = lambda: asyncio.get_running_loop().create_task(pool.tick(database))  # type: ignore[assignment]
    found = await pool.explore(explored.job, "u:1")
    # The fake's lead after 3 stones (Black 2, White 1) and komi.
    assert found["eval"] == 1 - game.komi
    assert 0 <= found["winrate"] <= 1
    assert not pool.lane.busy
