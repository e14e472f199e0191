"""The create form's labels and choices in the visitor's language (Accept-Language)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.support import catalogues

pytestmark = pytest.mark.django_db


def test_the_create_forms_words_follow_the_visitors_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    catalogues.fill(
        monkeypatch,
        "fr",
        {
            "Your colour": "Votre couleur",
            "Random": "Au hasard",
            "handicap\x04None": "Aucun",
            "%(minutes)s min": "%(minutes)s mn",
        },
    )

    french = Client(HTTP_ACCEPT_LANGUAGE="fr").get("/").content.decode()
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get("/").content.decode()

    for words in ("Votre couleur", "Au hasard", "Aucun</option>", "5 mn"):
        assert words in french
        assert words not in english
    assert "Your colour" in english and "Random" in english


def test_the_computers_seat_is_named_in_the_readers_language_and_stored_as_it_was() -> None:
    browser = Client(HTTP_ACCEPT_LANGUAGE="ja")
    created = browser.post(
        "/games/new/",
        {"kind": "othello", "size": 8, "color": "black", "name": "Ann", "opponent": "computer"}
        | {"level": 3},
    )
    game = created.url.rstrip("/").rsplit("/", 1)[1]
    shown = "エンジン\N{FULLWIDTH LEFT PARENTHESIS}レベル3\N{FULLWIDTH RIGHT PARENTHESIS}"

    page = browser.get(f"/games/{game}/").content.decode()
    assert f'data-computer-name="{shown}"' in page
    assert f'<span class="player-name">{shown}</span>' in page
    assert f"<title>オセロ 8\N{MULTIPLICATION SIGN}8: Ann 対 {shown}" in page
    for path in ("/", "/games/", f"/games/{game}/replay/"):
        text = browser.get(path).content.decode()
        assert shown in text and "Engine (level" not in text, path
    # The stored name is data: G (the API, the socket) and the record keep it.
    assert browser.get(f"/games/{game}/state.json").json()["players"]["white"] == (
        "Engine (level 3)"
    )
    assert "PW[Engine (level 3)]" in browser.get(f"/games/{game}/sgf").content.decode()
    english = Client().get(f"/games/{game}/").content.decode()
    assert '<span class="player-name">Engine (level 3)</span>' in english


def test_the_replay_names_the_review_engine_in_the_readers_words() -> None:
    game = Client().post("/games/new/", {"kind": "othello", "size": 8, "name": "Ann"}).url
    stored = "Engine (review: exact at 14 empties)"  # analysis.json's engine: data

    english = Client().get(f"{game}replay/").context["replay"]["engines"]
    japanese = Client(HTTP_ACCEPT_LANGUAGE="ja").get(f"{game}replay/").context["replay"]["engines"]

    assert english == {stored: "our Othello engine: perfect play over the last 14 squares"}
    assert japanese[stored].startswith("このサイトのオセロエンジン")
