"""Seeks stored together (one socket's batch) are each refused in their own socket's
language."""

from __future__ import annotations

import pytest
from django.utils import timezone

from accounts.players import Player
from pairing import services
from pairing.services import PairingError, SeekRequest
from tests.support import catalogues

pytestmark = pytest.mark.django_db


def test_each_seek_of_a_batch_is_refused_in_its_sockets_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    catalogues.fill(monkeypatch, "fr", {"The game must be Othello or Go": "Othello ou Go"})
    chess = {"type": "seek", "kind": "chess", "size": 8, "clock": "none"}
    requests = [
        SeekRequest(Player(session_key=f"s{n}"), None, "Guest", chess, timezone.now(), language)
        for n, language in enumerate(("fr", "en", None))
    ]

    made = services.seek_many(requests)

    assert all(isinstance(refused, PairingError) for refused in made)
    assert [(refused.code, refused.message) for refused in made] == [  # type: ignore[union-attr]
        ("bad_request", "Othello ou Go"),
        ("bad_request", "The game must be Othello or Go"),
        ("bad_request", "The game must be Othello or Go"),
    ]
