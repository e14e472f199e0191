"""The real KataGo (installed by scripts/katago.sh; ``real_katago`` skips these tests when it
is not, and fails them when the run opted in): a 9x9 game reviewed through the engines'
pool, a KataGo killed mid-review and the review resumed, a game against KataGo to the end.
Kept few and small (9x9, 1 to 2 visits): each takes seconds on two cores."""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from games.engine import analysis, katago
from games.engine.answer import answer
from games.engine.gnugo import GoGame
from games.engine.review import judgement
from games.models import Analysis, Game
from games.rules import GoPosition, go
from games.rules.base import Color, Move
from games.services import analysis as analysis_services
from games.workers import engines
from games.workers.engines import EnginePool
from tests.games.test_records import new_game, play_random
from tests.support.go_turns import go_turn

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


def test_a_game_against_katago_goes_to_the_end(real_katago: dict[str, Any]) -> None:
    # KataGo (level 10 at 2 visits here) as White against random moves that pass after 20.
    settings = {**real_katago, "top_visits": 2}
    rng = random.Random(3)
    position = GoPosition.start(9)
    moves: list[tuple[str, list[int] | None]] = []
    resigned = False
    try:
        while not position.is_over and len(moves) < 160:
            if position.to_move.value == "white":
                turn = go_turn(position, moves, level=10)
                point = answer(turn, katago_settings=settings)["point"]
                if point == "resign":
                    resigned = True
                    break
            else:
                legal = position.legal_moves()
                point = list(rng.choice(legal)) if len(moves) < 40 and legal else None
            step = Move.pass_turn() if point is None else Move.place((point[0], point[1]))
            position = position.play(step)[0]
            moves.append((position.to_move.opponent.value, point))
    finally:
        katago.close()
    assert position.is_over and not resigned
    # KataGo, White, won on the board (area counting, the rules' guess of the dead stones).
    counted = go.score(position, dead=go.estimate_dead(position), komi=7.0, method="area")
    assert counted.result.startswith("W+")


def test_the_levels_below_choose_from_the_networks_policy(real_katago: dict[str, Any]) -> None:
    # E5, White's pass, C3: White to play (the position checked by hand with kata-raw-nn).
    moves = [(Color.BLACK, (4, 4)), (Color.WHITE, None), (Color.BLACK, (6, 2))]
    game = GoGame(9, 7.0, moves=tuple(moves))
    settings = katago.KataGoSettings.of(real_katago)
    try:
        policy = katago.player(settings).policy(game, Color.WHITE)
        position = GoPosition.start(9)
        for _, point in moves:
            step = Move.pass_turn() if point is None else Move.place(point)
            position = position.play(step)[0]
        turn = go_turn(position, moves, level=9)
        level_9 = answer(turn, katago_settings=real_katago)["point"]
        level_1 = {
            tuple(answer({**turn, "level": 1}, katago_settings=real_katago)["point"])
            for _ in range(5)
        }
    finally:
        katago.close()
    # A probability for each empty point (none on the stones) and the pass, summing to 1.
    assert set(policy.points) == set(position.legal_moves())
    assert sum(policy.points.values()) + policy.passing == pytest.approx(1.0, abs=1e-3)
    first = max(policy.points, key=lambda point: policy.points[point])
    assert tuple(level_9) == first and policy.points[first] > 0.2
    assert len(level_1) > 1 and level_1 <= set(position.legal_moves())
