"""gameengine.katago against a fake KataGo (fake_katago.py) that speaks its analysis
engine's JSON and its GTP: the review's verdicts from one query per game, a KataGo that
dies mid-review, the computer's moves at each level, the explore board."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from gameengine import analysis, katago
from gameengine.answer import answer
from gameengine.explore import explore
from gameengine.gnugo import GoGame
from gameengine.gtp import EngineDied, EngineError
from gameengine.katago import KataGoAnalyser, KataGoSettings, policy_of, verdict_of
from gameengine.katago_levels import candidates
from gamerules import GoPosition
from gamerules.base import Color, Move
from tests.support.go_turns import go_turn

FAKE = Path(__file__).with_name("fake_katago.py")

# A 9x9 game: E5, then White's pass, then C3 and G7, the last the position after 4 moves.
MOVES: list[tuple[str, list[int] | None]] = [
    ("black", [4, 4]),
    ("white", None),
    ("black", [6, 2]),
    ("white", [2, 6]),
]


def settings_of(tmp_path: Path, *options: str, visits: int = 1) -> dict[str, Any]:
    return {
        "command": [sys.executable, str(FAKE), "--log", str(tmp_path / "log"), *options],
        "model": "model.bin.gz",
        "analysis_config": "analysis.cfg",
        "gtp_config": "gtp.cfg",
        "review_visits": visits,
        "top_visits": 16,
    }


def settings_command(tmp_path: Path) -> list[str]:
    return KataGoSettings.of(settings_of(tmp_path)).gtp_command()


def job(moves: list[tuple[str, list[int] | None]] = MOVES, komi: float = 7.0) -> dict[str, Any]:
    return {
        "game_id": "g1",
        "kind": "go",
        "size": 9,
        "komi": komi,
        "start": None,
        "moves": moves,
        "next_ply": 0,
        "total": len(moves) + 1,
    }


def logged(tmp_path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (tmp_path / "log").read_text().splitlines()]


@pytest.fixture(autouse=True)
def no_kept_katago() -> Any:
    yield
    katago.close()


def test_a_review_is_one_query_for_the_game_and_its_evals_are_from_blacks_side(
    tmp_path: Path,
) -> None:
    settings = settings_of(tmp_path)
    found = [analysis.verdict(job(), ply, katago=settings) for ply in range(5)]
    # The fake's lead: Black's stones minus White's minus komi, never flipped for White.
    assert [entry["eval"] for entry in found] == [-7.0, -6.0, -6.0, -5.0, -6.0]
    assert [entry["played"] for entry in found] == [entry["eval"] for entry in found]
    assert [entry["to_move"] for entry in found] == ["black", "white", "black", "white", "black"]
    assert found[0]["winrate"] == pytest.approx(0.43)
    # One visit: the network's first choice (the fake's first empty point), alone in its line.
    assert found[0]["best"] == [0, 0]
    assert found[0]["pv"] == [[0, 0]]
    queries = logged(tmp_path)
    assert len(queries) == 1
    sent = queries[0]
    assert sent["analyzeTurns"] == [0, 1, 2, 3, 4]
    assert sent["moves"] == [["B", "E5"], ["W", "pass"], ["B", "C3"], ["W", "G7"]]
    assert (sent["komi"], sent["maxVisits"], sent["rules"]) == (7.0, 1, katago.RULES)


def test_with_more_visits_the_best_move_is_katagos_first_and_its_line(tmp_path: Path) -> None:
    found = analysis.verdict(job(), 1, katago=settings_of(tmp_path, visits=8))
    assert found["best"] == [0, 0]
    assert found["pv"] == [[0, 0], [0, 1], [0, 2]]
    assert logged(tmp_path)[0]["maxVisits"] == 8


def test_the_review_resumes_from_any_position_with_a_query_from_there(tmp_path: Path) -> None:
    settings = settings_of(tmp_path)
    assert analysis.verdict(job(), 3, katago=settings)["eval"] == -5.0
    assert analysis.verdict(job(), 4, katago=settings)["eval"] == -6.0
    assert [query["analyzeTurns"] for query in logged(tmp_path)] == [[3, 4]]


def test_the_last_position_of_a_finished_game_has_no_best_move(tmp_path: Path) -> None:
    moves = [*MOVES, ("black", None), ("white", None)]
    found = analysis.verdict(job(moves), 6, katago=settings_of(tmp_path))
    assert (found["to_move"], found["best"], found["pv"]) == (None, None, [])
    assert found["eval"] == -6.0


def test_a_katago_killed_mid_review_raises_and_the_next_position_starts_another(
    tmp_path: Path,
) -> None:
    settings = settings_of(tmp_path, "--die-after", "2", str(tmp_path / "died"))
    assert analysis.verdict(job(), 0, katago=settings)["eval"] == -7.0
    assert analysis.verdict(job(), 1, katago=settings)["eval"] == -6.0
    with pytest.raises(EngineDied, match="fake KataGo died"):
        analysis.verdict(job(), 2, katago=settings)
    # The pool stores nothing for that position and asks it again: a new KataGo, from there.
    assert analysis.verdict(job(), 2, katago=settings)["eval"] == -6.0
    assert [query["analyzeTurns"] for query in logged(tmp_path)] == [[0, 1, 2, 3, 4], [2, 3, 4]]


def test_a_game_katago_refuses_is_a_value_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="bad komi"):
        analysis.verdict(job(komi=99), 0, katago=settings_of(tmp_path))


def test_a_stopped_review_asks_again_for_what_it_still_needs(tmp_path: Path) -> None:
    settings = KataGoSettings.of(settings_of(tmp_path))
    game = GoGame.of(size=9, komi=7.0, moves=[(Color.BLACK, (4, 4)), (Color.WHITE, (0, 0))])
    with KataGoAnalyser(settings.analysis_command()) as analyser:
        assert analyser.review(game, 0, to_move=Color.BLACK).eval == -7.0
        analyser.stop()
        assert analyser.review(game, 1, to_move=Color.WHITE).eval == -6.0
    actions = [query.get("action") for query in logged(tmp_path)]
    assert actions == [None, "terminate_all", None]


def test_verdict_of_reads_katagos_own_answer() -> None:
    # An answer of KataGo 1.18.1 at 2 visits (9x9, after E5), cut to what is read.
    answer_ = {
        "id": "q1",
        "isDuringSearch": False,
        "turnNumber": 1,
        "moveInfos": [
            {"move": "C4", "order": 0, "pv": ["C4", "G6", "pass"], "scoreLead": 1.2},
            {"move": "G3", "order": 1, "pv": ["G3"], "scoreLead": 1.9},
        ],
        "rootInfo": {"currentPlayer": "W", "scoreLead": 1.24, "winrate": 0.5912, "visits": 2},
    }
    found = verdict_of(answer_, 9)
    assert (found.eval, found.winrate, found.played) == (1.2, 0.591, 1.2)
    assert found.best == (5, 2)
    assert found.pv == ((5, 2), (3, 6), "pass")
    with pytest.raises(ValueError, match="no analysis"):
        verdict_of({"id": "q1", "turnNumber": 1, "noResults": True}, 9)


def turn(level: int, moves: list[tuple[str, list[int] | None]] = MOVES) -> dict[str, Any]:
    position = GoPosition.start(9)
    for _, point in moves:
        move = Move.pass_turn() if point is None else Move.place((point[0], point[1]))
        position = position.play(move)[0]
    return go_turn(position, moves, level=level)


def test_the_strongest_level_plays_katagos_move_at_its_visits(tmp_path: Path) -> None:
    settings = settings_of(tmp_path)
    assert answer(turn(10), katago_settings=settings) == {"point": [0, 0]}
    commands = (tmp_path / "log").read_text().splitlines()
    assert "kata-set-param maxVisits 16" in commands
    assert "play white G7" in commands
    assert "genmove black" in commands
    assert "kata-raw-nn 0" not in commands


def test_level_9_plays_the_networks_first_choice_without_a_search(tmp_path: Path) -> None:
    settings = settings_of(tmp_path)
    # The fake's prior halves from point to point in reading order: A9 first.
    assert answer(turn(9), katago_settings=settings, rng=random.Random(0)) == {"point": [0, 0]}
    commands = (tmp_path / "log").read_text().splitlines()
    assert "kata-raw-nn 0" in commands and "play white G7" in commands
    assert not [line for line in commands if line.startswith(("genmove", "kata-set-param"))]


def test_a_weak_level_plays_the_best_of_a_few_points_never_into_its_own_eye(
    tmp_path: Path,
) -> None:
    settings = settings_of(tmp_path)
    rng = random.Random(5)
    played = [answer(turn(2), katago_settings=settings, rng=rng)["point"] for _ in range(20)]
    position = GoPosition.from_snapshot(turn(2)["snapshot"])
    assert all(tuple(point) in candidates(position) for point in played)
    # Level 2 draws 6% of the 77 points (5): the first choice is rarely among them.
    assert played.count([0, 0]) <= 5 and len({tuple(point) for point in played}) >= 8
    # Each is the best of its draw: on the first rows, where the prior is high (a random
    # point's row is 4 on average).
    assert sum(point[0] for point in played) / len(played) < 3


def test_a_level_passes_when_the_networks_first_choice_is_to_pass(tmp_path: Path) -> None:
    settings = settings_of(tmp_path, "--policy-pass", "0.4")
    assert answer(turn(4), katago_settings=settings, rng=random.Random(0)) != {"point": None}
    katago.close()
    settings = settings_of(tmp_path, "--policy-pass", "0.6")
    assert answer(turn(4), katago_settings=settings, rng=random.Random(0)) == {"point": None}


def test_the_network_is_asked_for_the_side_to_move_after_a_skipped_turn(
    tmp_path: Path,
) -> None:
    # A setup position of Black's stones where Black moves first: the turn White skipped
    # is White's pass (the network answers for the colour after the last move).
    game = GoGame(9, 7.0, setup=((Color.BLACK, (2, 2)), (Color.BLACK, (6, 6))))
    with katago.KataGoPlayer(settings_command(tmp_path)) as player:
        found = player.policy(game, Color.BLACK)
        assert player.policy(game, Color.WHITE).points == found.points
    commands = (tmp_path / "log").read_text().splitlines()
    raw_nn = [n for n, line in enumerate(commands) if line == "kata-raw-nn 0"]
    assert [commands[n - 1] for n in raw_nn] == ["play white pass", "play black G3"]
    assert (2, 2) not in found.points and found.points[(0, 0)] == 0.5


def test_a_policy_answer_is_read_as_katago_prints_it() -> None:
    text = "\n".join(
        [
            "symmetry 0",
            "whiteWin 0.431",
            "policy",
            "0.25 NAN 0.01",
            "0.5 0.1 NAN",
            "0.04 0.02 0.03",
            "policyPass 0.05",
            "whiteOwnership",
            "0 0 0",
        ]
    )
    found = policy_of(text, 3)
    assert found.points == {
        (0, 0): 0.25,
        (0, 2): 0.01,
        (1, 0): 0.5,
        (1, 1): 0.1,
        (2, 0): 0.04,
        (2, 1): 0.02,
        (2, 2): 0.03,
    }
    assert found.passing == 0.05
    for broken in ["symmetry 0", text.replace("policyPass", "whiteLead"), text.replace("0.5 ", "")]:
        with pytest.raises(EngineError, match="no policy"):
            policy_of(broken, 3)


def test_katago_resigning_or_passing_is_the_computers_answer(tmp_path: Path) -> None:
    assert answer(turn(10), katago_settings=settings_of(tmp_path, "--genmove", "resign")) == {
        "point": "resign"
    }
    katago.close()
    assert answer(turn(10), katago_settings=settings_of(tmp_path, "--genmove", "pass")) == {
        "point": None
    }


def test_a_katago_that_cannot_start_hands_the_move_to_gnu_go(
    tmp_path: Path, fake_program: Any
) -> None:
    settings = {**settings_of(tmp_path), "command": [str(tmp_path / "no-katago")]}
    found = answer(turn(10), katago_settings=settings, gnugo_path=fake_program("--genmove", "J1"))
    assert found == {"point": [8, 8]}


def test_the_explore_board_asks_katago(tmp_path: Path) -> None:
    settings = settings_of(tmp_path)
    found = explore(
        {
            "kind": "go",
            "size": 9,
            "komi": 7.0,
            "start": None,
            "moves": MOVES[:1],
            "settings": {"katago": settings, "seconds": 20.0},
        }
    )
    assert found == {"eval": -6.0, "exact": False, "best": [0, 0], "pv": [[0, 0]], "winrate": 0.44}
    assert logged(tmp_path)[0]["analyzeTurns"] == [1]


def test_the_explore_board_says_when_katago_cannot_answer(tmp_path: Path) -> None:
    settings = {**settings_of(tmp_path), "command": [str(tmp_path / "no-katago")]}
    found = explore(
        {
            "kind": "go",
            "size": 9,
            "komi": 7.0,
            "start": None,
            "moves": [],
            "settings": {"katago": settings, "seconds": 20.0},
        }
    )
    assert "engine_error" in found
