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
