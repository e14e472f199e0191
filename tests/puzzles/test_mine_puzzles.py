"""``manage.py mine_puzzles``: every stored finished game once, and the self-play."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from puzzles.models import Mining, Puzzle
from tests.puzzles.test_mining import UNIQUE_WIN
from tests.puzzles.test_services import finished_game

pytestmark = pytest.mark.django_db


def mine(*arguments: str) -> str:
    out = io.StringIO()
    call_command("mine_puzzles", *arguments, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_the_command_mines_each_finished_game_once() -> None:
    game = finished_game(UNIQUE_WIN, [(1, 1)])
    assert "Mined 1 game(s)" in mine()
    assert Puzzle.objects.filter(game=game, ply=0).exists()
    assert Mining.objects.get(game=game).status == Mining.Status.DONE
    assert "Mined 0 game(s)" in mine()
    assert "Mined 1 game(s) and 0 self-play game(s)" in mine("--again")


def test_a_game_the_rules_cannot_replay_is_told_and_skipped() -> None:
    finished_game(UNIQUE_WIN, [(0, 0)])
    assert "Mined 0 game(s)" in mine()


def test_self_play_games_are_mined_without_a_source_game() -> None:
    said = mine("--self-play", "1", "--level", "3", "--seed", "4")
    assert "1 self-play game(s)" in said
    assert not Puzzle.objects.exclude(game=None).exists()
