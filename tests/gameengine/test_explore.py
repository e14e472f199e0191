"""gameengine.explore: an explored position's verdict from plain data, as the engines'
worker processes compute it for ``explore.json``."""

from __future__ import annotations

import pickle
from typing import Any

from gameengine.analysis import verdict_json
from gameengine.explore import explore
from gameengine.gnugo import gnugo_command
from gameengine.othello.review import Analyser
from gamerules import Move, new_position

OTHELLO = {"seconds": 0.3, "exact_empties": 10}


def othello_job(moves: list[tuple[str, list[int] | None]], size: int = 4) -> dict[str, Any]:
    return {
        "kind": "othello",
        "size": size,
        "komi": None,
        "start": None,
        "moves": moves,
        "settings": OTHELLO,
    }


def go_job(command: list[str], moves: list[tuple[str, list[int] | None]]) -> dict[str, Any]:
    settings = {"command": command, "level": 5, "seconds": 8.0, "line": 4}
    return {
        "kind": "go",
        "size": 9,
        "komi": 6.5,
        "start": None,
        "moves": moves,
        "settings": settings,
    }


def test_a_job_is_plain_data_that_crosses_into_a_worker_process() -> None:
    job = othello_job([("black", [0, 1])])
    assert pickle.loads(pickle.dumps(job)) == job


def test_othello_is_solved_at_few_empties_as_the_review_solves_it() -> None:
    # 4x4: two moves in, 10 empties, the explore's exact limit.
    moves: list[tuple[str, list[int] | None]] = [("black", [0, 1]), ("white", [0, 0])]
    position = new_position("othello", 4)
    for _, point in moves:
        assert point is not None
        position = position.play(Move.place((point[0], point[1])))[0]
    expected = Analyser(4, seconds=0.3, exact_empties=10).verdict(position)  # type: ignore[arg-type]
    found = explore(othello_job(moves))
    assert found == verdict_json(expected)
    assert found["exact"] is True


def test_othello_midgame_is_searched() -> None:
    found = explore(othello_job([], size=6))
    assert set(found) == {"eval", "exact", "best", "pv"}
    assert found["exact"] is False
    assert found["best"] in ([1, 2], [2, 1], [3, 4], [4, 3])
    assert found["pv"][0] == found["best"]


def test_an_engine_that_fails_is_the_engines_could_not_answer() -> None:
    found = explore(go_job(["/bin/false"], [("black", [4, 4])]))
    assert set(found) == {"engine_error"}
    assert "false" in found["engine_error"]


def test_a_kind_no_engine_explores_is_the_engines_could_not_answer() -> None:
    job = {**othello_job([]), "kind": "chess"}
    assert explore(job) == {"engine_error": "no engine explores 'chess' positions"}


def test_gnu_go_answers_an_explored_go_position(gnugo_path: str) -> None:
    found = explore(go_job(gnugo_command(gnugo_path), [("black", [4, 4]), ("white", [2, 6])]))
    assert set(found) == {"eval", "exact", "best", "pv"}
    assert found["exact"] is False
    assert 1 <= len(found["pv"]) <= 4
    assert found["pv"][0] == found["best"]
