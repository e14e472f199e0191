"""The puzzles' routes: next.json, the answer (JSON and a form), the page, the home
page's puzzle of the day and the profile's puzzles."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from puzzles.models import PuzzleAttempt
from tests.puzzles.test_services import stored_puzzle

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(client: Client) -> User:
    user = User.objects.create_user("alice", password="secret-pass-1")
    client.force_login(user)
    return user


def post_json(client: Client, url: str, body: Any) -> Any:
    return client.post(
        url, json.dumps(body), content_type="application/json", HTTP_ACCEPT="application/json"
    )


def test_next_json_answers_the_contracts_keys(client: Client) -> None:
    puzzle = stored_puzzle()
    answer = client.get("/puzzles/next.json?kind=othello")
    assert answer.status_code == 200
    body = answer.json()
    assert {key: body[key] for key in ("id", "kind", "size", "to_play", "rating", "plays")} == {
        "id": puzzle.pk,
        "kind": "othello",
        "size": 8,
        "to_play": "black",
        "rating": 1500,
        "plays": 0,
    }
    assert body["board"] == puzzle.rows


def test_next_json_refuses_another_kind_and_says_when_none_is_left(client: Client) -> None:
    refused = client.get("/puzzles/next.json?kind=chess")
    assert (refused.status_code, refused.json()["error"], refused.json()["field"]) == (
        400,
        "bad_request",
        "kind",
    )
    assert client.get("/puzzles/next.json?kind=go").status_code == 404


def test_an_answer_in_json_moves_the_ratings_once(client: Client, alice: User) -> None:
    puzzle = stored_puzzle()
    first = post_json(client, f"/puzzles/{puzzle.pk}/answer/", {"point": [1, 1]})
    assert first.status_code == 200
    body = first.json()
    assert (body["correct"], body["solution"], body["value"]) == (True, [1, 1], 2)
    assert body["rating"]["player"] > 1500 > body["rating"]["puzzle"]
    again = post_json(client, f"/puzzles/{puzzle.pk}/answer/", {"point": [1, 0]})
    assert again.json()["rating"] == body["rating"]
    assert PuzzleAttempt.objects.count() == 1
    assert client.get("/puzzles/next.json?kind=othello").status_code == 404


def test_a_form_answer_as_row_col_gets_a_page(client: Client) -> None:
    puzzle = stored_puzzle()
    answer = client.post(f"/puzzles/{puzzle.pk}/answer/", {"point": "1,1"})
    assert answer.status_code == 200
    assert b"b2" in answer.content


@pytest.mark.parametrize("body", [{"point": "x"}, {"point": [0, 0]}, {}, [1, 1]])
def test_a_bad_point_is_a_400_naming_point(client: Client, alice: User, body: Any) -> None:
    puzzle = stored_puzzle()
    refused = post_json(client, f"/puzzles/{puzzle.pk}/answer/", body)
    assert refused.status_code == 400
    assert (refused.json()["error"], refused.json()["field"]) == ("bad_request", "point")
    assert not PuzzleAttempt.objects.exists()


def test_an_unknown_puzzle_is_a_404(client: Client) -> None:
    refused = post_json(client, "/puzzles/999999/answer/", {"point": [1, 1]})
    assert (refused.status_code, refused.json()["error"]) == (404, "not_found")


def test_the_page_draws_the_puzzle_and_sets_the_csrf_cookie(client: Client) -> None:
    puzzle = stored_puzzle()
    page = client.get("/puzzles/")
    assert page.status_code == 200
    assert b'id="puzzle-board"' in page.content
    assert f'"id": {puzzle.pk}'.encode() in page.content
    assert "csrftoken" in page.cookies
    empty = client.get("/puzzles/?kind=go")
    assert b'id="puzzle-empty"' in empty.content


def test_the_home_page_shows_the_puzzle_of_the_day(client: Client) -> None:
    assert b"daily-puzzle" not in client.get("/").content
    puzzle = stored_puzzle()
    home = client.get("/")
    assert f"/puzzles/?puzzle={puzzle.pk}".encode() in home.content
    assert client.get(f"/puzzles/?puzzle={puzzle.pk}").status_code == 200


def test_the_profile_shows_the_puzzle_rating_and_history(client: Client, alice: User) -> None:
    puzzle = stored_puzzle()
    assert b"profile-puzzles" not in client.get("/players/alice/").content
    post_json(client, f"/puzzles/{puzzle.pk}/answer/", {"point": [1, 1]})
    profile = client.get("/players/alice/")
    assert b"profile-puzzles" in profile.content
    assert b"1 solved of 1" in profile.content
