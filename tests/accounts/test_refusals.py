"""One shape for every app's refusal (``accounts.refusals.Refusal``) and one way to answer
it (``accounts.answers.refusal``): JSON with the code's status to a request that wants
JSON, else the site's page, the page not found, or back to the form's page saying why."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.db import SessionStore
from django.http import Http404, HttpRequest
from django.test import RequestFactory

from accounts.answers import refusal
from accounts.refusals import Refusal
from games.services.errors import GameError
from moderation.services import ModerationError
from pairing.services import PairingError
from puzzles.services import PuzzleError
from tournaments.services import TournamentError

pytestmark = pytest.mark.django_db


class Refused(Refusal, codes={"bad_request": 400, "not_found": 404, "rate_limited": 429}):
    pass


def request(*, json: bool) -> HttpRequest:
    asked = RequestFactory().post("/somewhere/", HTTP_ACCEPT="application/json" if json else "")
    asked.session = SessionStore()
    asked._messages = FallbackStorage(asked)  # type: ignore[attr-defined]
    return asked


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (GameError("stale", "x"), 400),
        (GameError("not_a_player", "x"), 403),
        (GameError("rate_limited", "x"), 429),
        (PairingError("login_required", "x"), 401),
        (PairingError("playban", "x"), 400),
        (TournamentError("playban", "x"), 400),
        (TournamentError("not_found", "x"), 404),
        (ModerationError("rate_limited", "x"), 429),
        (PuzzleError("not_found", "x"), 404),
    ],
)
def test_each_apps_refusal_carries_its_codes_status(error: Refusal, status: int) -> None:
    assert isinstance(error, Refusal)
    assert error.status == status


def test_a_code_an_app_does_not_name_is_refused_where_it_is_written() -> None:
    with pytest.raises(ValueError, match="unknown error code 'stale' for PuzzleError"):
        PuzzleError("stale", "x")
    with pytest.raises(ValueError, match="unknown error code"):
        ModerationError("playban", "x")


def test_a_request_that_wants_json_gets_code_message_field_details_and_status() -> None:
    error = Refused("rate_limited", "slow down", field="text", details={"until": "soon"})
    answer = refusal(request(json=True), error)
    assert answer.status_code == 429
    assert answer["Content-Type"] == "application/json"
    body = answer.content.decode()
    for part in ('"error": "rate_limited"', '"message": "slow down"', '"field": "text"'):
        assert part in body
    assert '"until": "soon"' in body


def test_a_page_gets_the_sites_page_in_words_or_its_page_not_found() -> None:
    page = refusal(request(json=False), Refused("bad_request", "no such thing here"))
    assert page.status_code == 400 and "No such thing here." in page.content.decode()
    limited = refusal(request(json=False), Refused("rate_limited", "too many reports"))
    assert limited.status_code == 429 and "Too many reports." in limited.content.decode()
    with pytest.raises(Http404, match="gone"):
        refusal(request(json=False), Refused("not_found", "gone"))


def test_a_pages_form_goes_back_to_its_page_with_the_reason_above() -> None:
    asked = request(json=False)
    answer = refusal(asked, Refused("rate_limited", "wait a minute"), back="/tournaments/1/")
    assert answer.status_code == 302 and answer["Location"] == "/tournaments/1/"
    assert [str(message) for message in get_messages(asked)] == ["wait a minute"]
