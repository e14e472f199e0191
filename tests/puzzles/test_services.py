"""puzzles.services: mining a stored game (never the same position twice), the background
queue and its lease, answering (the ratings moved once, by Glicko-2; bad answers moving
nothing) and the choice of the next puzzle near the player's rating."""

from __future__ import annotations

import datetime
import itertools
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games import signals
from games.models import Game, Move
from players import glicko2
from puzzles import services
from puzzles.mining import mine_job
from puzzles.models import Mining, Puzzle, PuzzleAttempt, PuzzleRating
from puzzles.services import PuzzleError
from tests.puzzles.test_mining import TWO_WINS, UNIQUE_WIN

pytestmark = pytest.mark.django_db

KEYS = itertools.count()


def finished_game(rows: list[str], moves: list[tuple[int, int]]) -> Game:
    """A finished Othello game set up as ``rows`` (Black to move) with ``moves`` played."""
    game = Game.objects.create(
        kind="othello",
        size=8,
        status=Game.Status.FINISHED,
        creator_color="black",
        to_move="black",
        start={"rows": rows, "to_move": "black"},
        snapshot={"size": 8, "rows": rows, "to_move": "black"},
        ply=len(moves),
        result="B+2",
        finished_at=timezone.now(),
    )
    colors = ["black", "white"]
    for ply, (row, col) in enumerate(moves, start=1):
        Move.objects.create(
            game=game, ply=ply, color=colors[(ply - 1) % 2], action="place", row=row, col=col
        )
    return game


def stored_puzzle(*, rating: float = 1500.0, kind: str = "othello", key: str = "") -> Puzzle:
    return Puzzle.objects.create(
        kind=kind,
        size=8,
        position=key or f"position {next(KEYS)}",
        rows=UNIQUE_WIN,
        to_play="black",
        solution_row=1,
        solution_col=1,
        value=2,
        rating=rating,
    )


def account(name: str) -> int:
    return int(User.objects.create_user(name, password="secret-pass-1").pk)


# Mining


def test_a_game_is_mined_once_and_its_positions_never_stored_twice() -> None:
    game = finished_game(UNIQUE_WIN, [(1, 1)])
    assert services.mine_game(game_id=game.pk) >= 1
    puzzle = Puzzle.objects.get(ply=0)
    assert (puzzle.kind, puzzle.size, puzzle.rows, puzzle.to_play) == (
        "othello",
        8,
        UNIQUE_WIN,
        "black",
    )
    assert (puzzle.solution, puzzle.value, puzzle.game, puzzle.rating) == ((1, 1), 2, game, 1500)
    stored = Puzzle.objects.count()
    again = finished_game(UNIQUE_WIN, [(1, 1)])
    assert services.mine_game(game_id=again.pk) == 0
    assert Puzzle.objects.count() == stored
    assert Mining.objects.get(game=again).status == Mining.Status.DONE


def test_a_position_with_two_winning_moves_is_not_stored() -> None:
    game = finished_game(TWO_WINS, [(1, 7)])
    services.mine_game(game_id=game.pk)
    assert not Puzzle.objects.filter(ply=0).exists()


def test_a_finished_othello_game_is_queued_only_when_mining_is_on(settings: Any) -> None:
    game = finished_game(UNIQUE_WIN, [(1, 1)])
    signals.game_finished.send(sender=None, game=game)
    assert not Mining.objects.exists()
    settings.PUZZLE_MINING = True
    signals.game_finished.send(sender=None, game=game)
    assert Mining.objects.get(game=game).status == Mining.Status.QUEUED


def test_a_queued_mining_is_held_by_one_process_until_its_lease_runs_out(settings: Any) -> None:
    settings.PUZZLE_MINING = True
    game = finished_game(UNIQUE_WIN, [(1, 1)])
    signals.game_finished.send(sender=None, game=game)
    now = timezone.now()
    [job] = services.claim_minings(process="one", limit=2, now=now)
    assert job["moves"] == [[1, [1, 1]]]
    assert services.claim_minings(process="two", limit=2, now=now) == []
    later = now + services.LEASE + datetime.timedelta(seconds=1)
    [taken] = services.claim_minings(process="two", limit=2, now=later)
    found = mine_job(taken)
    assert not services.store_mined(job=job, process="one", found=found)
    assert not Puzzle.objects.exists()
    assert services.store_mined(job=taken, process="two", found=found)
    assert Mining.objects.get(game=game).found == len(found) >= 1
    assert services.claim_minings(process="one", limit=2, now=later) == []


def test_a_released_mining_is_claimed_again_and_a_failed_one_never(settings: Any) -> None:
    settings.PUZZLE_MINING = True
    game = finished_game(UNIQUE_WIN, [(1, 1)])
    Mining.objects.create(game=game)
    [job] = services.claim_minings(process="one", limit=1)
    services.release_mining(job=job, process="one")
    [job] = services.claim_minings(process="one", limit=1)
    services.release_mining(job=job, process="one", failed=True)
    assert services.claim_minings(process="one", limit=1) == []


# Answering


def test_a_right_first_answer_moves_both_ratings_by_glicko2() -> None:
    puzzle = stored_puzzle()
    alice = account("alice")
    answer = services.answer(puzzle_id=puzzle.pk, account_id=alice, point=[1, 1])
    expected_player = glicko2.rate_game(glicko2.NEW_PLAYER, glicko2.NEW_PLAYER, 1.0)
    expected_puzzle = glicko2.rate_game(glicko2.NEW_PLAYER, glicko2.NEW_PLAYER, 0.0)
    assert answer.json() == {
        "correct": True,
        "solution": [1, 1],
        "value": 2,
        "rating": {
            "puzzle": round(expected_puzzle.rating),
            "player": round(expected_player.rating),
        },
        "game": None,
    }
    puzzle.refresh_from_db()
    assert (puzzle.rating, puzzle.rd, puzzle.plays) == (
        pytest.approx(expected_puzzle.rating),
        pytest.approx(expected_puzzle.rd),
        1,
    )
    rating = PuzzleRating.objects.get(account_id=alice)
    assert (rating.rating, rating.attempts, rating.solved) == (
        pytest.approx(expected_player.rating),
        1,
        1,
    )
    assert PuzzleAttempt.objects.get(account_id=alice, puzzle=puzzle).correct


def test_a_wrong_answer_lowers_the_player_and_raises_the_puzzle() -> None:
    puzzle = stored_puzzle()
    alice = account("alice")
    answer = services.answer(puzzle_id=puzzle.pk, account_id=alice, point="1,0")
    assert not answer.correct
    assert answer.json()["rating"]["player"] < 1500 < answer.json()["rating"]["puzzle"]


def test_only_an_accounts_first_answer_counts() -> None:
    puzzle = stored_puzzle()
    alice = account("alice")
    first = services.answer(puzzle_id=puzzle.pk, account_id=alice, point=[1, 0])
    second = services.answer(puzzle_id=puzzle.pk, account_id=alice, point=[1, 1])
    assert second.correct and not second.counted
    assert second.json()["rating"] == first.json()["rating"]
    puzzle.refresh_from_db()
    assert puzzle.plays == 1
    assert not PuzzleAttempt.objects.get().correct


def test_a_guests_answer_moves_nothing() -> None:
    puzzle = stored_puzzle()
    answer = services.answer(puzzle_id=puzzle.pk, account_id=None, point=[1, 1])
    assert answer.correct
    assert answer.json()["rating"] == {"puzzle": 1500, "player": None}
    puzzle.refresh_from_db()
    assert (puzzle.rating, puzzle.plays) == (1500, 0)
    assert not PuzzleAttempt.objects.exists()


@pytest.mark.parametrize(
    ("point", "words"),
    [
        ("b2", "two integers"),
        ([1], "two integers"),
        ([1, True], "two integers"),
        ([8, 0], "off the 8x8 board"),
        ([0, 0], "not a legal move"),
        (None, "two integers"),
    ],
)
def test_a_bad_point_is_a_400_naming_point_and_moves_nothing(point: object, words: str) -> None:
    puzzle = stored_puzzle()
    alice = account("alice")
    with pytest.raises(PuzzleError) as refused:
        services.answer(puzzle_id=puzzle.pk, account_id=alice, point=point)
    assert (refused.value.code, refused.value.status, refused.value.field) == (
        "bad_request",
        400,
        "point",
    )
    assert words in refused.value.message
    assert not PuzzleAttempt.objects.exists()
    assert not PuzzleRating.objects.filter(attempts__gt=0).exists()


@pytest.mark.parametrize("puzzle_id", [12345, "nope"])
def test_an_unknown_puzzle_is_a_404(puzzle_id: object) -> None:
    with pytest.raises(PuzzleError) as refused:
        services.answer(puzzle_id=puzzle_id, account_id=None, point=[1, 1])
    assert (refused.value.code, refused.value.status) == ("not_found", 404)
