"""Go puzzles (puzzles/mining.py's ``go_turns``, ``go_solution`` and ``mine_go_job``): the
pure rule on tables, then KataGo asked through the repository's fake
(tests/gameengine/fake_katago.py: its best move the first empty point, its second
candidate the next one, ``--second-worse`` points worse for the side to move)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gameengine import katago
from gameengine.katago import Candidate
from gamerules.base import Color, Move
from gamerules.go import GoPosition
from puzzles.mining import GO_MOST, GO_VISITS, go_parts, go_solution, go_turns, mine_job

FAKE = Path(__file__).parents[1] / "gameengine" / "fake_katago.py"


def losses(*lost: float) -> list[dict[str, Any]]:
    """A review's entries whose move ``n`` (from 1) lost ``lost[n - 1]`` points."""
    return [{"ply": 0}] + [{"ply": n, "loss": loss} for n, loss in enumerate(lost, start=1)]


@pytest.mark.parametrize(
    ("plies", "turns"),
    [
        (losses(), []),
        (losses(0, 4.9, 1), []),
        # Move 2 lost 5: the position after move 1 is asked.
        (losses(0, 5.0, 1), [1]),
        (losses(12, 0, 0, 6.5), [0, 3]),
        # An entry without a loss (a review stored before losses were) is no blunder.
        ([{"ply": 0}, {"ply": 1}], []),
    ],
)
def test_the_positions_asked_are_those_before_a_move_that_lost_5_points(
    plies: list[dict[str, Any]], turns: list[int]
) -> None:
    assert go_turns(plies) == turns


def test_at_most_the_costliest_positions_of_a_game_are_asked() -> None:
    lost = [5.0 + n for n in range(GO_MOST + 3)]
    assert go_turns(losses(*lost)) == list(range(3, GO_MOST + 3))


def candidates(*moves: tuple[Any, float]) -> list[Candidate]:
    return [Candidate(move, lead, 10) for move, lead in moves]


@pytest.mark.parametrize(
    ("found", "mover", "solution"),
    [
        # Black's best leads by 3 more than every other: a puzzle.
        (candidates(((2, 2), 6.0), ((4, 4), 3.0), ((0, 0), -9.0)), Color.BLACK, (2, 2)),
        # By 2.9 over one of them: none.
        (candidates(((2, 2), 6.0), ((4, 4), 3.1), ((0, 0), -9.0)), Color.BLACK, None),
        # White's side: the leads are Black's, lower is better for White.
        (candidates(((2, 2), -6.0), ((4, 4), -3.0)), Color.WHITE, (2, 2)),
        (candidates(((2, 2), 6.0), ((4, 4), 3.0)), Color.WHITE, None),
        # KataGo's first is not the one that leads most: it beats nothing.
        (candidates(((2, 2), 3.0), ((4, 4), 6.0)), Color.BLACK, None),
        # One candidate alone shows nothing; a pass is no puzzle.
        (candidates(((2, 2), 6.0)), Color.BLACK, None),
        (candidates(("pass", 6.0), ((4, 4), -3.0)), Color.BLACK, None),
        (candidates(), Color.BLACK, None),
    ],
)
def test_a_puzzle_is_kept_when_the_best_beats_every_other_candidate_by_3(
    found: list[Candidate], mover: Color, solution: Any
) -> None:
    best = go_solution(found, mover)
    assert (None if best is None else best.move) == solution


MOVES = [(2, 2), (6, 6), (2, 6), None, (6, 2)]
"""A 9x9 game's moves (None: a pass), Black first."""


def job(settings: dict[str, Any] | None, turns: list[int]) -> dict[str, Any]:
    colors = ["black", "white"]
    return {
        "game_id": 1,
        "kind": "go",
        "size": 9,
        "komi": 7.0,
        "start": None,
        "moves": [
            [ply, colors[(ply - 1) % 2], None if point is None else list(point)]
            for ply, point in enumerate(MOVES, start=1)
        ],
        "turns": turns,
        "katago": settings,
    }


def fake_settings() -> dict[str, Any]:
    """KataGo's settings (the server's ``KATAGO``) naming the fake."""
    return {
        "command": [sys.executable, str(FAKE)],
        "model": "model.bin.gz",
        "analysis_config": "analysis.cfg",
        "gtp_config": "gtp.cfg",
        "review_visits": 1,
        "top_visits": 1,
    }


@pytest.fixture
def fake() -> Iterator[dict[str, Any]]:
    yield fake_settings()
    katago.close()


def logged(fake: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    fake["command"] = [*fake["command"], "--log", str(tmp_path / "queries")]
    return fake


def test_katago_is_asked_once_at_32_visits_and_its_clear_best_kept(
    fake: dict[str, Any], tmp_path: Path
) -> None:
    found = mine_job(job(logged(fake, tmp_path), [3, 1]))
    [query] = [json.loads(line) for line in (tmp_path / "queries").read_text().splitlines()]
    assert (query["maxVisits"], query["analyzeTurns"]) == (GO_VISITS, [1, 3])
    position = GoPosition.start(9)
    for point in MOVES[:3]:
        assert point is not None
        position = position.play(Move.place(point))[0]
    # After 3 moves White plays; the fake's best is the first empty point, its lead Black's
    # stones less White's less komi; the second candidate is 4 points worse for White.
    after_three = {
        "ply": 3,
        "rows": position.rows(),
        "to_play": "white",
        "solution": [0, 0],
        "value": 2 - 1 - 7.0,
    }
    assert found[1] == after_three
    assert (found[0]["ply"], found[0]["to_play"], found[0]["value"]) == (1, "white", 1 - 7.0)


def test_a_second_candidate_near_the_best_makes_no_puzzle(
    fake: dict[str, Any], tmp_path: Path
) -> None:
    fake["command"] = [*fake["command"], "--second-worse", "2.5"]
    assert mine_job(job(fake, [1, 3])) == []


def test_a_go_game_without_katago_or_positions_to_ask_gives_none(fake: dict[str, Any]) -> None:
    assert mine_job(job(None, [1, 3])) == []
    assert mine_job(job(fake, [])) == []


def test_a_go_game_is_mined_one_position_a_part(fake: dict[str, Any]) -> None:
    assert [part["turns"] for part in go_parts(job(fake, [3, 1, 3]))] == [[1], [3]]
    assert go_parts(job(None, [1, 3])) == [job(None, [1, 3])]
    othello = {"kind": "othello", "moves": []}
    assert go_parts(othello) == [othello]
