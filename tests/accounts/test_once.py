"""accounts.once: the create, join and challenge forms do their work once however often
they are sent with their one-time token (a double click, a resent request)."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connections
from django.test import Client

from accounts.models import Submission
from challenges.models import Challenge
from games.models import Game
from tests.bots.test_bots import make_bot, online, person

TOKEN = "A-one-time-token-0123456789"
CREATE = {"kind": "othello", "size": 8, "color": "black", "name": "Ann"}


def token_of(page: str) -> str:
    found = re.search(r'name="form_token" value="([^"]+)"', page)
    assert found, "the form carries a one-time token"
    return found.group(1)


@pytest.mark.django_db
def test_the_create_form_posted_twice_makes_one_game() -> None:
    browser = Client()
    token = token_of(browser.get("/").content.decode())

    first = browser.post("/games/new/", {**CREATE, "form_token": token})
    second = browser.post("/games/new/", {**CREATE, "form_token": token})

    assert (first.status_code, second.status_code) == (302, 302)
    assert second.url == first.url
    assert Game.objects.count() == 1
    assert token_of(browser.get("/").content.decode()) != token, "each page its own token"


@pytest.mark.django_db
def test_without_a_token_each_post_is_new_as_before() -> None:
    browser = Client()
    browser.post("/games/new/", CREATE)
    browser.post("/games/new/", CREATE)
    assert Game.objects.count() == 2


@pytest.mark.django_db
def test_the_join_form_posted_twice_takes_the_seat_once() -> None:
    creator, joiner = Client(), Client()
    game_url = creator.post("/games/new/", CREATE).url
    token = token_of(joiner.get(game_url).content.decode())

    first = joiner.post(f"{game_url}join/", {"name": "Bob", "form_token": token})
    second = joiner.post(f"{game_url}join/", {"name": "Bob", "form_token": token})

    assert second.url == first.url == game_url
    game = Game.objects.get()
    assert (game.status, game.white_name) == ("active", "Bob")
    messages = [str(m) for m in second.wsgi_request._messages]  # type: ignore[attr-defined]
    assert not any("just taken" in message for message in messages)


@pytest.mark.django_db
def test_the_challenge_form_posted_twice_challenges_once() -> None:
    make_bot()
    online("robo")
    ann = person()
    token = token_of(ann.get("/players/bots/").content.decode())
    fields = {"kind": "go", "size": 9, "color": "black", "form_token": token}

    first = ann.post("/players/robo/challenge/", fields)
    second = ann.post("/players/robo/challenge/", fields)

    assert (first.status_code, second.url) == (302, first.url)
    assert (Game.objects.count(), Challenge.objects.count()) == (1, 1)


@pytest.mark.django_db
def test_a_refused_form_keeps_its_token_for_the_corrected_one() -> None:
    browser = Client()
    refused = browser.post("/games/new/", {**CREATE, "size": 7, "form_token": TOKEN})
    corrected = browser.post("/games/new/", {**CREATE, "form_token": TOKEN})

    assert (refused.status_code, corrected.status_code) == (400, 302)
    assert Game.objects.count() == 1


@pytest.mark.django_db
def test_a_refused_service_keeps_nothing_either() -> None:
    User.objects.create_user("ann")
    browser = Client()
    refused = browser.post("/games/new/", {**CREATE, "form_token": TOKEN})  # an account's name
    corrected = browser.post("/games/new/", {**CREATE, "name": "Anne", "form_token": TOKEN})

    assert (refused.status_code, corrected.status_code) == (400, 302)
    assert Game.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "token", ["short", "x" * 65, "with spaces in it ok", "ünïcode-tokens-are-not"]
)
def test_a_malformed_token_is_refused_naming_it(token: str) -> None:
    response = Client().post("/games/new/", {**CREATE, "form_token": token})

    assert response.status_code == 400
    assert response.context["form"].errors["form_token"]
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_another_visitors_token_answers_nothing_of_theirs() -> None:
    ann, mallory = Client(), Client()
    ann.post("/games/new/", {**CREATE, "form_token": TOKEN})

    response = mallory.post("/games/new/", {**CREATE, "name": "Mal", "form_token": TOKEN})

    assert response.status_code == 400
    assert "someone else" in " ".join(response.context["form"].errors["form_token"])
    assert Game.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_posts_racing_with_one_token_make_one_game() -> None:
    browser = Client()
    browser.get("/")
    answers: list[Any] = []

    def post() -> None:
        try:
            answers.append(browser.post("/games/new/", {**CREATE, "form_token": TOKEN}))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert [answer.status_code for answer in answers] == [302] * 4
    assert len({answer.url for answer in answers}) == 1
    assert Game.objects.count() == 1 and Submission.objects.count() == 1
