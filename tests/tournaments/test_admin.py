"""The admin's pages of the tournaments answer, with their entries and pairings."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tournaments.helpers import START, joined, tournament
from tournaments import services

pytestmark = pytest.mark.django_db


def test_the_admin_lists_tournaments_their_entries_and_pairings(admin_client: Client) -> None:
    found = tournament("swiss")
    joined(found, "ann", "bob")
    services.advance(tournament_id=found.pk, now=START)
    assert "The swiss" in admin_client.get("/admin/tournaments/tournament/").content.decode()
    page = admin_client.get(f"/admin/tournaments/tournament/{found.pk}/change/").content.decode()
    assert "ann" in page and "bob" in page
    pairings = admin_client.get("/admin/tournaments/tournamentpairing/")
    assert pairings.status_code == 200 and "The swiss" in pairings.content.decode()
