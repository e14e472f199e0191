"""games.workers.engines with the real KataGo (installed by scripts/katago.sh;
``real_katago`` skips these tests when it is not, and fails them when the run opted in): a
9x9 game reviewed through the engines' pool, a KataGo killed mid-review and the review
resumed. Kept few and small (9x9, 1 visit): each takes seconds on two cores. The engine
alone against the real KataGo is tests/gameengine/test_katago_real.py's."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from gameengine import analysis, katago
from gameengine.review import judgement
from gamerules import GoPosition
from gamerules.base import Move
from games.models import Analysis, Game
from games.services import analysis as analysis_services
from games.workers import engines
from games.workers.engines import EnginePool
from tests.games.test_records import new_game, play_random

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def katago_on(settings: Any, real_katago: dict[str, Any]) -> Any:
    settings.KATAGO = real_katago
    yield real_katago
    katago.close()


async def database(call: Callable[..., Any], **arguments: Any) -> Any:
    return await sync_to_async(call)(**arguments)


def reviewed_game() -> Game:
    # 30 random moves, then two passes.
    game = play_random(new_game("go", 9, komi=7.0), seed=11, go_passes_after=30)
    analysis_services.request_analysis(game_id=game.public_id)
    return game


def pool() -> EnginePool:
    found = EnginePool("this-process", 2)
    found._executor = ThreadPoolExecutor(2)  # type: ignore[assignment]
    found._katago_executor = ThreadPoolExecutor(1)  # type: ignore[assignment]
    return found


async def review(found: EnginePool) -> None:
    await found.tick(database)
    while found.tasks:
        await next(iter(found.tasks))


def positions(game: Game) -> list[GoPosition]:
    position = GoPosition.start(game.size)
    found = [position]
    for move in game.moves.filter(action__in=["place", "pass"]):
        step = Move.pass_turn() if move.row is None else Move.place((move.row, move.col))
        position = position.play(step)[0]
        found.append(position)
    return found


def check(analysis_: Analysis, game: Game) -> None:
    """Each position's eval in the network's range, its best move legal, each mark the
    judgement of its loss, and the loss the lead the move gave away."""
    played = positions(game)
    plies = analysis_.plies
    assert [entry["ply"] for entry in plies] == list(range(len(played)))
    for entry, position in zip(plies, played, strict=True):
        assert -90 < entry["eval"] < 90
        assert 0 <= entry["winrate"] <= 1
        best = entry["best"]
        if position.is_over:
            assert best is None
        else:
            assert best == "pass" or tuple(best) in position.legal_moves()
    for before, entry, position in zip(plies, plies[1:], played, strict=False):
        assert entry["judgement"] == judgement(entry["loss"], kind="go", size=9)
        sign = 1 if position.to_move.value == "black" else -1
        gave = round(max(0.0, sign * (before["eval"] - entry["eval"])), 1)
        assert entry["loss"] in (0, gave)


async def test_a_9x9_game_of_30_moves_is_reviewed_by_katago(katago_on: Any) -> None:
    game = await sync_to_async(reviewed_game)()
    await review(pool())
    analysis_ = await sync_to_async(Analysis.objects.get)(game=game)
    assert analysis_.status == Analysis.Status.DONE
    assert analysis_.engine == "KataGo (1 visit a position)"
    await sync_to_async(check)(analysis_, game)


async def test_a_katago_killed_mid_review_is_started_again_and_the_review_resumes(
    katago_on: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await sync_to_async(reviewed_game)()
    killed: list[int] = []

    def verdict(job: Any, ply: int, **options: Any) -> Any:
        if ply == 12 and not killed:
            engine = katago._analysers[katago.KataGoSettings.of(katago_on)]._engine
            assert engine is not None
            killed.append(engine._process.pid)
            os.kill(engine._process.pid, signal.SIGKILL)
        return analysis.verdict(job, ply, **options)

    monkeypatch.setattr(engines, "verdict", verdict)
    await review(pool())
    analysis_ = await sync_to_async(Analysis.objects.get)(game=game)
    # The review stopped at a position the dead KataGo owed (the one being judged when it
    # was killed, or the next when that answer had already arrived), claimable again at once.
    assert killed
    assert (analysis_.status, analysis_.worker) == ("running", "")
    assert 12 <= len(analysis_.plies) <= 13
    await review(pool())
    analysis_ = await sync_to_async(Analysis.objects.get)(game=game)
    assert analysis_.status == Analysis.Status.DONE
    await sync_to_async(check)(analysis_, game)
