"""puzzles.selectors: the next puzzle near the player's rating, never one answered; the
puzzle of the day; a profile's part."""

from __future__ import annotations

import datetime
import random

import pytest

from puzzles import selectors
from puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating
from tests.puzzles.test_services import account, stored_puzzle

pytestmark = pytest.mark.django_db


def test_the_next_puzzle_is_near_the_players_rating_and_never_one_answered() -> None:
    for rating in range(1000, 2000, 10):
        stored_puzzle(rating=rating)
    stored_puzzle(rating=1500, kind="go")
    alice = account("alice")
    PuzzleRating.objects.create(account_id=alice, rating=1800)
    rng = random.Random(1)
    seen = set()
    for _ in range(20):
        puzzle = selectors.next_puzzle(kind="othello", account_id=alice, rng=rng)
        assert puzzle is not None and puzzle.kind == "othello"
        assert abs(puzzle.rating - 1800) <= 40
        seen.add(puzzle.pk)
    assert len(seen) > 1
    nearest = selectors.next_puzzle(kind="othello", account_id=None, rng=rng)
    assert nearest is not None and abs(nearest.rating - 1500) <= 40
    for puzzle in Puzzle.objects.filter(kind="othello"):
        PuzzleAttempt.objects.create(account_id=alice, puzzle=puzzle, correct=True, rating_after=0)
    assert selectors.next_puzzle(kind="othello", account_id=alice) is None
    assert selectors.next_puzzle(kind="othello", account_id=None) is not None


def test_the_puzzle_of_the_day_is_the_same_all_day_and_none_without_puzzles() -> None:
    assert selectors.puzzle_of_the_day() is None
    for rating in range(1000, 1100, 10):
        stored_puzzle(rating=rating)
    today = datetime.date(2026, 11, 28)
    first = selectors.puzzle_of_the_day(today)
    assert first is not None
    assert selectors.puzzle_of_the_day(today) == first
    for rating in range(1100, 1200, 10):
        stored_puzzle(rating=rating)
    assert selectors.puzzle_of_the_day(today) == first, "kept all day, whatever is mined"


def test_a_profile_shows_the_rating_and_the_last_answers() -> None:
    alice = account("alice")
    assert selectors.profile_part(alice) is None
    puzzle = stored_puzzle()
    PuzzleRating.objects.create(account_id=alice, rating=1520.4, rd=200, attempts=1, solved=1)
    PuzzleAttempt.objects.create(account_id=alice, puzzle=puzzle, correct=True, rating_after=1520)
    part = selectors.profile_part(alice)
    assert part is not None
    assert (part["rating"], part["attempts"], part["solved"]) == (1520, 1, 1)
    assert [attempt.puzzle for attempt in part["history"]] == [puzzle]


def test_the_page_data_carries_the_legal_moves() -> None:
    data = selectors.puzzle_data(stored_puzzle())
    assert [1, 1] in data["legal"]
    assert set(data) == {"id", "kind", "size", "to_play", "board", "rating", "plays", "legal"}
