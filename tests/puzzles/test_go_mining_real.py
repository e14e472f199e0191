"""Go puzzles asked of the real KataGo (installed by scripts/katago.sh; ``real_katago``
skips this where it is not, and fails it when the run opted in): a position of a 9x9
game of random moves, which KataGo answers at 32 visits with candidate moves it may
play, kept as a puzzle with a legal solution exactly when the rule says so. Kept to one
position."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from gameengine import katago
from gameengine.analysis import go_game
from gameengine.katago import Candidate, KataGoSettings
from gamerules.base import Move
from gamerules.go import GoPosition
from puzzles.mining import GO_VISITS, go_solution, mine_go_job

TURN = 11
"""The position asked: after these many moves (one position at 32 visits: about a minute on
two busy cores)."""


@pytest.fixture
def katago_settings(real_katago: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield real_katago
    katago.close()


def random_game(moves: int, seed: int) -> dict[str, Any]:
    """A mining job of a 9x9 game of ``moves`` random legal moves (blunders aplenty)."""
    rng = random.Random(seed)
    position = GoPosition.start(9)
    played = []
    for ply in range(1, moves + 1):
        point = rng.choice(position.legal_moves())
        played.append([ply, position.to_move.value, list(point)])
        position = position.play(Move.place(point))[0]
    return {"game_id": 1, "kind": "go", "size": 9, "komi": 7.0, "start": None, "moves": played}


def test_a_position_is_asked_at_32_visits_and_kept_by_the_rule(
    katago_settings: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    job = random_game(24, seed=5)
    analyser = katago.analyser(KataGoSettings.of(katago_settings))
    asked: list[dict[int, list[Candidate]]] = []
    candidates = analyser.candidates

    def kept(*arguments: Any, **options: Any) -> dict[int, list[Candidate]]:
        assert options["visits"] == GO_VISITS
        asked.append(candidates(*arguments, **options))
        return asked[-1]

    monkeypatch.setattr(analyser, "candidates", kept)
    found = mine_go_job({**job, "turns": [TURN], "katago": katago_settings})
    played = {"moves": [[color, point] for _, color, point in job["moves"]]}
    position = go_game({**job, **played}, TURN)[1]
    [answers] = asked
    options = answers[TURN]
    assert len(options) >= 2  # 32 visits spread over several moves
    assert sum(option.visits for option in options) >= GO_VISITS - 1
    for option in options:
        assert option.move == "pass" or option.move in position.legal_moves()
        assert -90 < option.lead < 90
    best = go_solution(options, position.to_move)
    if best is None:
        assert found == []
    else:
        [puzzle] = found
        assert (puzzle["ply"], puzzle["rows"], puzzle["to_play"]) == (
            TURN,
            position.rows(),
            position.to_move.value,
        )
        assert tuple(puzzle["solution"]) == best.move
        assert tuple(puzzle["solution"]) in position.legal_moves()
        assert puzzle["value"] == round(best.lead, 1)
