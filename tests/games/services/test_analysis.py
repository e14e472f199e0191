"""The engines' review (games.services.analysis, games.views.analysis): requests, the
claim and its lease, results stored once and in order, the JSON and the limits."""

from __future__ import annotations

import datetime
import itertools
import os
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from gameengine import gnugo
from gameengine.analysis import verdict
from gameengine.review import judgement
from gamerules.go import GoPosition
from gamerules.othello import OthelloPosition
from gamerules.sgf import import_sgf
from games.models import Analysis, Game
from games.services import analysis
from games.services.analysis import LEASE, AnalysisJob
from tests.games.test_records import new_game, play_random

pytestmark = pytest.mark.django_db

FIRST_KEYS = {"ply", "to_move", "eval", "exact", "best", "pv"}
"""The fields of every position's entry; after a move, MOVE_KEYS too."""
MOVE_KEYS = {"loss", "judgement", "best_for_mover", "advice"}
SUMMARY_KEYS = {"moves", "inaccuracies", "mistakes", "blunders", "average_loss", "accuracy"}


def finished_othello(size: int = 4, seed: int = 1) -> Game:
    return play_random(new_game("othello", size), seed=seed)


def post(client: Client, game: Game) -> Any:
    """The review asked for as the replay page's script asks: in JSON."""
    return client.post(f"/games/{game.public_id}/analysis/", HTTP_ACCEPT="application/json")


def read(client: Client, game: Game) -> Any:
    return client.get(f"/games/{game.public_id}/analysis.json")


def run(job: AnalysisJob, process: str, plies: range, now: datetime.datetime) -> list[bool]:
    """Analyse ``plies`` of ``job`` as ``process`` would, storing each: what was stored."""
    data = job.__dict__
    return [
        analysis.store_verdict(
            game_id=job.game_id, process=process, ply=ply, verdict=verdict(data, ply), now=now
        )
        for ply in plies
    ]


def test_a_game_in_play_is_refused_with_409(client: Client) -> None:
    game = new_game("othello", 4)
    response = post(client, game)
    assert response.status_code == 409
    assert "error" in response.json()
    assert read(client, game).status_code == 404
    assert not Analysis.objects.exists()


def test_no_analysis_before_a_request_and_no_game_is_a_404(client: Client) -> None:
    game = finished_othello()
    assert read(client, game).status_code == 404
    assert client.post("/games/nosuchgame/analysis/").status_code == 404
    assert client.get("/games/nosuchgame/analysis.json").status_code == 404


def test_a_request_is_queued_once(client: Client, broadcasts: list[Any]) -> None:
    game = finished_othello()
    first = post(client, game)
    assert (first.status_code, first.json()) == (202, {"status": "queued"})
    again = post(client, game)
    assert (again.status_code, again.json()) == (202, {"status": "queued"})
    assert Analysis.objects.count() == 1
    body = read(client, game).json()
    assert body["status"] == "queued"
    assert body["progress"] == 0
    assert body["plies"] == []
    assert body["engine"]


def test_the_review_is_claimed_by_one_process_and_stored_once(
    client: Client, broadcasts: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    game = finished_othello()
    post(client, game)
    now = timezone.now()
    [job] = analysis.claim_analyses(process="first", limit=2, now=now)
    assert analysis.claim_analyses(process="second", limit=2, now=now) == []
    assert read(client, game).json()["status"] == "running"
    assert job.next_ply == 0
    assert job.total == len(job.moves) + 1
    with django_capture_on_commit_callbacks(execute=True):
        assert run(job, "first", range(2), now) == [True, True]
        # Stored once: the same position again, a position out of order, another process.
        assert run(job, "first", range(1, 2), now) == [False]
        assert run(job, "first", range(3, 4), now) == [False]
        assert run(job, "second", range(2, 3), now) == [False]
    body = read(client, game).json()
    assert [entry["ply"] for entry in body["plies"]] == [0, 1]
    assert body["progress"] == pytest.approx(2 / job.total)
    sent = [event for _, event in broadcasts if event["type"] == "game.analysis"]
    assert sent[-1] == {
        "type": "game.analysis",
        "status": "running",
        "progress": pytest.approx(2 / job.total),
    }


def test_a_killed_process_review_is_taken_over_from_the_last_stored_position(
    client: Client,
) -> None:
    game = finished_othello(seed=2)
    post(client, game)
    now = timezone.now()
    [job] = analysis.claim_analyses(process="killed", limit=1, now=now)
    assert run(job, "killed", range(3), now) == [True, True, True]
    # The lease holds: nobody takes it over yet.
    assert analysis.claim_analyses(process="other", limit=1, now=now + LEASE / 2) == []
    later = now + LEASE + datetime.timedelta(seconds=1)
    [resumed] = analysis.claim_analyses(process="other", limit=1, now=later)
    assert resumed.next_ply == 3
    # The killed process, back too late, stores nothing.
    assert run(job, "killed", range(3, 4), later) == [False]
    assert all(run(resumed, "other", range(3, resumed.total), later))
    response = read(client, game).json()
    assert response["status"] == "done"
    assert response["progress"] == 1
    assert [entry["ply"] for entry in response["plies"]] == list(range(job.total))
    again = post(client, game)
    assert (again.status_code, again.json()) == (200, {"status": "done"})
    assert read(client, game).json() == response


def test_the_json_has_every_field_and_the_losses_add_up(client: Client) -> None:
    game = finished_othello(seed=3)
    post(client, game)
    now = timezone.now()
    [job] = analysis.claim_analyses(process="one", limit=1, now=now)
    run(job, "one", range(job.total), now)
    body = read(client, game).json()
    plies = body["plies"]
    first = plies[0]
    assert set(first) == FIRST_KEYS
    assert first["to_move"] == "black"
    position = OthelloPosition.start(4)
    moves = list(game.moves.filter(action__in=["place", "pass"]))
    for before, after in itertools.pairwise(plies):
        assert set(after) == FIRST_KEYS | MOVE_KEYS
        # What the mover should have played: the best move before the move, not after.
        assert after["best_for_mover"] == before["best"]
        move = moves[after["ply"] - 1]
        if move.row is not None:
            played = position.format_point((move.row, move.col))
            assert after["advice"].startswith(f"{move.color.title()}'s {played}")
            if after["loss"]:
                best = position.format_point(tuple(before["best"]))
                assert after["advice"].endswith(f"; {best} was best.")
        # 4x4: every position is solved exactly, so each loss is the drop in the value.
        assert after["exact"]
        mover = before["to_move"]
        drop = (
            before["eval"] - after["eval"] if mover == "black" else after["eval"] - before["eval"]
        )
        assert after["loss"] == max(0, drop)
        assert after["judgement"] == (
            None
            if after["loss"] < 1
            else "inaccuracy"
            if after["loss"] < 2
            else "mistake"
            if after["loss"] < 4
            else "blunder"
        )
    last = plies[-1]
    assert (last["to_move"], last["best"], last["pv"]) == (None, None, [])
    # Each player's summary: their moves' judgements, average loss and accuracy.
    summary = body["summary"]
    assert set(summary) == {"black", "white"}
    for color, numbers in summary.items():
        assert set(numbers) == SUMMARY_KEYS
        own = [entry for entry, move in zip(plies[1:], moves, strict=True) if move.color == color]
        judged = [entry["judgement"] for entry in own]
        assert numbers["blunders"] == judged.count("blunder")
        assert numbers["mistakes"] == judged.count("mistake")
        assert 0 <= numbers["accuracy"] <= 100
        assert (numbers["accuracy"] == 100) == all(entry["loss"] == 0 for entry in own)


needs_gnugo = pytest.mark.skipif(
    not gnugo.available() and not os.environ.get("CI"),
    reason="GNU Go (Debian's gnugo) is not installed",
)


def finished_go(seed: int = 1, moves: int = 16) -> Game:
    """A 9x9 game of ``moves`` random moves and two passes, counted and finished."""
    return play_random(new_game("go", 9), seed=seed, go_passes_after=moves)


def test_a_go_game_in_play_is_refused_with_409(client: Client) -> None:
    game = new_game("go", 9)
    response = post(client, game)
    assert response.status_code == 409
    assert "finished" in response.json()["error"]
    assert not Analysis.objects.exists()


@needs_gnugo
def test_a_finished_go_game_is_reviewed_by_gnu_go_to_the_end(client: Client) -> None:
    game = finished_go()
    assert game.status == Game.Status.FINISHED
    assert post(client, game).status_code == 202
    now = timezone.now()
    [job] = analysis.claim_analyses(process="one", limit=1, now=now)
    assert (job.kind, job.komi) == ("go", game.komi)
    assert job.total == 16 + 2 + 1  # the moves, the two passes, the start
    assert all(run(job, "one", range(job.total), now))
    body = read(client, game).json()
    assert (body["status"], body["progress"], body["engine"]) == ("done", 1, "GNU Go 3.8")
    plies = body["plies"]
    assert [entry["ply"] for entry in plies] == list(range(job.total))
    assert set(plies[0]) == FIRST_KEYS
    moves = [
        "pass" if move.row is None else [move.row, move.col]
        for move in game.moves.filter(action__in=["place", "pass"])
    ]
    for before, after in itertools.pairwise(plies):
        assert set(after) == FIRST_KEYS | MOVE_KEYS
        assert after["best_for_mover"] == before["best"]
        if after["loss"]:
            assert re.search(r" cost [\d.]+ points?[,;]", after["advice"])
        assert after["exact"] is False
        assert isinstance(after["eval"], int | float)
        assert after["loss"] >= 0
        if moves[after["ply"] - 1] == before["best"]:
            assert after["loss"] == 0
        assert after["judgement"] == judgement(after["loss"], kind="go", size=9)
    for entry in plies[:-1]:
        assert entry["to_move"] == ("black" if entry["ply"] % 2 == 0 else "white")
        best = entry["best"]
        assert best == "pass" or (isinstance(best, list) and len(best) == 2)
        assert 1 <= len(entry["pv"]) <= 10
        assert entry["pv"][0] == best
    last = plies[-1]
    assert (last["to_move"], last["best"], last["pv"]) == (None, None, [])
    # Random moves against GNU Go's: some of them cost points.
    assert any(entry.get("judgement") for entry in plies)
    record = import_sgf(client.get(f"/games/{game.public_id}/sgf").content.decode())
    for entry in plies[1:]:
        line = record.comments[entry["ply"]]
        value = entry["eval"]
        assert line.startswith(f"Review: {'B' if value >= 0 else 'W'}+{abs(value)} (engine)")
        assert f"loss {entry['loss']} points" in line
        best = plies[entry["ply"] - 1]["best"]
        if best == "pass":
            assert "best pass" in line
        else:
            name = GoPosition.start(9).format_point((best[0], best[1]))
            assert f"best {name.lower()}" in line.lower()


def test_beyond_five_requests_an_hour_a_session_gets_429(client: Client, settings: Any) -> None:
    settings.RATE_LIMITS = True
    games = [finished_othello(seed=seed) for seed in range(6)]
    answers = [post(client, game).status_code for game in games]
    assert answers == [202] * 5 + [429]
    assert Analysis.objects.count() == 5


def test_the_sgf_of_an_analysed_game_carries_each_moves_review(client: Client) -> None:
    game = finished_othello(seed=4)
    before = client.get(f"/games/{game.public_id}/sgf").content.decode()
    assert "Review:" not in before
    post(client, game)
    now = timezone.now()
    [job] = analysis.claim_analyses(process="one", limit=1, now=now)
    run(job, "one", range(job.total), now)
    plies = read(client, game).json()["plies"]
    record = import_sgf(client.get(f"/games/{game.public_id}/sgf").content.decode())
    for entry in plies[1:]:
        line = record.comments[entry["ply"]]
        value = entry["eval"]
        assert line.startswith(f"Review: {'B' if value >= 0 else 'W'}+{abs(value)} (perfect play)")
        assert f"loss {entry['loss']} discs" in line
        assert (entry["judgement"] or "") in line
        best = plies[entry["ply"] - 1]["best"]
        assert ("best " in line) == (best is not None)


# Exploring other moves: POST /games/<id>/explore.json


def explore(client: Client, game: Game, body: object) -> Any:
    return client.post(
        f"/games/{game.public_id}/explore.json", data=body, content_type="application/json"
    )


def test_exploring_plays_the_rules_and_answers_with_the_engine(client: Client) -> None:
    game = finished_othello(size=6, seed=1)
    answer = explore(client, game, {"ply": 0, "moves": [[1, 2], [1, 1]]})
    assert answer.status_code == 200
    body = answer.json()
    assert body["diffs"] == [
        {"color": "black", "point": [1, 2], "flipped": [[2, 2]], "captured": []},
        {"color": "white", "point": [1, 1], "flipped": [[2, 2]], "captured": []},
    ]
    assert body["board"] == ["......", ".WB...", "..WB..", "..BW..", "......", "......"]
    assert body["to_move"] == "black"
    assert [1, 2] not in body["legal"]
    assert body["best"] in body["legal"]
    assert body["pv"][0] == body["best"]
    assert isinstance(body["eval"], int | float)
    assert body["exact"] is False


def test_exploring_with_few_empties_is_exact(client: Client) -> None:
    game = finished_othello(size=4, seed=1)
    # 4x4: 12 empties at the start, past the explore's exact limit (10); two moves in, exact.
    assert explore(client, game, {"ply": 0, "moves": []}).json()["exact"] is False
    body = explore(client, game, {"ply": 2, "moves": []}).json()
    assert body["exact"] is True
    assert body["best"] in body["legal"]
    assert body["diffs"] == []


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"ply": 0, "moves": [[0, 0]]}, "illegal_move"),
        ({"ply": 0, "moves": ["pass"]}, "illegal_move"),
        ({"ply": 0, "moves": [[9, 9]]}, "bad_request"),
        ({"ply": 0, "moves": [[1]]}, "bad_request"),
        ({"ply": -1, "moves": []}, "bad_request"),
        ({"ply": 999, "moves": []}, "bad_request"),
        ({"ply": "1", "moves": []}, "bad_request"),
        ({"ply": 0, "moves": "d3"}, "bad_request"),
        ([1, 2], "bad_request"),
    ],
)
def test_exploring_refuses_illegal_and_malformed_moves(
    client: Client, body: object, code: str
) -> None:
    game = finished_othello(size=6, seed=1)
    answer = explore(client, game, body)
    assert answer.status_code == 400
    assert answer.json()["error"] == code


def test_exploring_a_game_in_play_is_refused(client: Client) -> None:
    game = new_game("othello", 6)
    assert explore(client, game, {"ply": 0, "moves": []}).status_code == 409


def test_exploring_go_plays_the_rules_without_the_engine_unless_asked(client: Client) -> None:
    game = finished_go(seed=2)
    body = explore(client, game, {"ply": 0, "moves": [[4, 4], [4, 5]]}).json()
    assert [diff["point"] for diff in body["diffs"]] == [[4, 4], [4, 5]]
    assert body["board"][4] == "....BW..."
    assert body["to_move"] == "black"
    assert "eval" not in body
    assert [4, 4] not in body["legal"]
    answer = explore(client, game, {"ply": 0, "moves": [[4, 4]], "engine": "yes"})
    assert (answer.status_code, answer.json()["error"]) == (400, "bad_request")


def test_exploring_go_captures(client: Client) -> None:
    game = finished_go(seed=2)
    # Black surrounds White's stone in the corner: A9 (0, 0) is taken.
    tried = [[0, 0], [0, 1], [8, 8], [1, 0]]
    body = explore(client, game, {"ply": 0, "moves": ["pass", *tried]}).json()
    assert body["diffs"][-1]["captured"] == [[0, 0]]
    assert body["board"][0].startswith(".B")


@needs_gnugo
def test_exploring_go_asks_the_engine_on_request(client: Client) -> None:
    game = finished_go(seed=2)
    body = explore(client, game, {"ply": 2, "moves": [[4, 4]], "engine": True}).json()
    assert body["to_move"] in ("black", "white")
    assert isinstance(body["eval"], int | float)
    assert body["exact"] is False
    assert body["best"] == "pass" or body["best"] in body["legal"]
    assert body["pv"][0] == body["best"]
    assert len(body["pv"]) <= 4


def test_exploring_go_says_when_the_engine_failed(client: Client, settings: Any) -> None:
    settings.REVIEW_GO_COMMAND = ["/bin/false"]
    game = finished_go(seed=2)
    body = explore(client, game, {"ply": 0, "moves": [], "engine": True}).json()
    assert "eval" not in body
    assert "false" in body["engine_error"]
    assert body["diffs"] == []
