"""games.middleware: a page whose database cannot be reached is a 503 saying so."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.test import Client

from games import selectors


@pytest.mark.django_db
def test_an_unreachable_database_is_a_503_with_retry_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def unreachable(*args: object, **kwargs: object) -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(selectors, "open_games", unreachable)

    response = Client(raise_request_exception=False).get("/")

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert b"database cannot be reached" in response.content


@pytest.mark.django_db
def test_other_errors_stay_server_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("a bug")

    monkeypatch.setattr(selectors, "open_games", broken)

    assert Client(raise_request_exception=False).get("/").status_code == 500
