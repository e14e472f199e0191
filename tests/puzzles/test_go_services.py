"""Go puzzles through the services (puzzles.services): a Go game's mining queued when
KataGo's review of it ends (never GNU Go's, never without KataGo), mined in the background
on KataGo's lane and by ``manage.py mine_puzzles``, and a Go puzzle answered. KataGo is
the repository's fake (tests/gameengine/fake_katago.py)."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from io import StringIO
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from gameengine import katago
from games import signals
from games.models import Analysis, Game, Move
from games.services import analysis
from games.workers.engines import IDLE
from puzzles import services
from puzzles.models import Mining, Puzzle
from puzzles.services import PuzzleError
from tests.games.test_records import new_game, play_random
from tests.games.workers.test_engines_review import database, finish
from tests.puzzles.test_background import pool_of
from tests.puzzles.test_go_mining import MOVES, fake_settings

pytestmark = pytest.mark.django_db(transaction=True)

KATAGO_REVIEW = "KataGo (1 visit a position)"


@pytest.fixture
def fake_katago(settings: Any) -> Iterator[dict[str, Any]]:
    settings.KATAGO = fake_settings()
    settings.PUZZLE_MINING = True
    yield settings.KATAGO
    katago.close()


def reviewed_go_game(engine: str = KATAGO_REVIEW, *, lost: int = 4) -> Game:
    """A finished 9x9 game of ``MOVES`` whose review (by ``engine``) says move ``lost``
    cost 8 points: the position after move ``lost - 1`` is asked."""
    game = Game.objects.create(
        kind="go",
        size=9,
        komi=7.0,
        status=Game.Status.FINISHED,
        creator_color="black",
        to_move="black",
        snapshot={"size": 9, "rows": ["." * 9] * 9, "to_move": "black"},
        ply=len(MOVES),
        result="W+R",
        finished_at=timezone.now(),
    )
    colors = ["black", "white"]
    for ply, point in enumerate(MOVES, start=1):
        Move.objects.create(
            game=game,
            ply=ply,
            color=colors[(ply - 1) % 2],
            action="place" if point else "pass",
            row=point and point[0],
            col=point and point[1],
        )
    plies = [{"ply": 0}] + [
        {"ply": n, "loss": 8.0 if n == lost else 0.0} for n in range(1, len(MOVES) + 1)
    ]
    Analysis.objects.create(
        game=game,
        engine=engine,
        status=Analysis.Status.DONE,
        total=len(MOVES) + 1,
        plies=plies,
    )
    return game


def review_done(game: Game) -> None:
    signals.review_done.send(sender=Analysis, analysis=Analysis.objects.get(game=game))


def test_a_go_game_is_queued_when_katagos_review_of_it_ends(
    fake_katago: dict[str, Any], settings: Any
) -> None:
    by_gnugo = reviewed_go_game("GNU Go 3.8")
    review_done(by_gnugo)
    assert not Mining.objects.exists()
    game = reviewed_go_game()
    settings.PUZZLE_MINING = False
    review_done(game)
    assert not Mining.objects.exists()
    settings.PUZZLE_MINING = True
    review_done(game)
    assert Mining.objects.get().game == game


def test_gnu_go_alone_mines_no_go_game(settings: Any) -> None:
    settings.KATAGO = None
    settings.PUZZLE_MINING = True
    game = reviewed_go_game()
    review_done(game)
    assert not Mining.objects.exists()
    assert "Mined 0 game(s)" in mine()
    assert services.mine_game(game_id=game.pk) == 0


def mine(*arguments: str) -> str:
    out = StringIO()
    call_command("mine_puzzles", *arguments, stdout=out)
    return out.getvalue()


def test_the_command_mines_go_games_katago_reviewed(fake_katago: dict[str, Any]) -> None:
    game = reviewed_go_game(lost=5)
    reviewed_go_game("GNU Go 3.8")
    assert "Mined 1 game(s)" in mine()
    puzzle = Puzzle.objects.get()
    # After move 4 (White's pass): Black to play, its best the first empty point, the lead
    # Black's two stones less White's one less komi.
    assert (puzzle.kind, puzzle.game, puzzle.ply, puzzle.to_play) == ("go", game, 4, "black")
    assert (puzzle.solution, puzzle.value, puzzle.size) == ((0, 0), 2 - 1 - 7.0, 9)
    assert puzzle.rows[2] == "..B...B.."


def test_a_go_puzzle_is_answered_against_its_solution(fake_katago: dict[str, Any]) -> None:
    services.mine_game(game_id=reviewed_go_game().pk)
    puzzle = Puzzle.objects.get()
    wrong = services.answer(puzzle_id=puzzle.pk, account_id=None, point=[0, 1])
    right = services.answer(puzzle_id=puzzle.pk, account_id=None, point="0,0")
    assert (wrong.correct, right.correct) == (False, True)
    assert right.json()["value"] == puzzle.value and right.json()["solution"] == [0, 0]
    with pytest.raises(PuzzleError) as taken:
        services.answer(puzzle_id=puzzle.pk, account_id=None, point=[2, 2])
    assert taken.value.field == "point"


async def test_a_katago_review_then_the_pool_mines_the_game_in_katagos_lane(
    fake_katago: dict[str, Any],
) -> None:
    def go_game() -> Game:
        game = play_random(new_game("go", 9), seed=3, go_passes_after=12)
        analysis.request_analysis(game_id=game.public_id)
        return game

    game = await sync_to_async(go_game)()
    pool = pool_of(2)
    pool._katago_executor = ThreadPoolExecutor(1)  # type: ignore[assignment]
    await pool.tick(database)
    await finish(pool)
    # The review is done: the game was queued, and the next tick mines it in the lane. The
    # fake's moves lose a point at most: two are made blunders.
    assert await sync_to_async(Mining.objects.filter(game=game).exists)()

    def blunders() -> None:
        review = Analysis.objects.get(game=game)
        for ply in (3, 5):
            review.plies[ply]["loss"] = 8.0
        review.save()

    await sync_to_async(blunders)()
    lane_jobs: list[int] = []
    run = pool.lane.run

    async def counted(priority: int, executor: Any, call: Any) -> Any:
        lane_jobs.append(priority)
        return await run(priority, executor, call)

    pool.lane.run = counted  # type: ignore[method-assign]
    await pool.tick(database)
    await finish(pool)
    mining = await sync_to_async(Mining.objects.get)(game=game)
    # One lane job a position, after the reviews'; a puzzle at each (the fake's second
    # candidate is 4 points worse).
    assert (mining.status, mining.found) == (Mining.Status.DONE, 2)
    assert lane_jobs == [IDLE, IDLE]


def test_a_go_puzzle_is_served_and_drawn(fake_katago: dict[str, Any], client: Client) -> None:
    services.mine_game(game_id=reviewed_go_game().pk)
    puzzle = Puzzle.objects.get()
    body = client.get("/puzzles/next.json?kind=go").json()
    served = (body["id"], body["kind"], body["size"], body["to_play"])
    assert served == (puzzle.pk, "go", 9, "white")
    assert body["board"] == puzzle.rows and [2, 2] not in body["legal"]
    page = client.get("/puzzles/?kind=go")
    assert f'"id": {puzzle.pk}'.encode() in page.content
