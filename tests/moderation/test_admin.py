"""moderation.admin: the reports, the log and the playbans shown read-only, each linked
to the account's case at the desk."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from moderation import services
from moderation.models import Action, Playban, Report
from tests.moderation.helpers import account, game_between, reported, said

pytestmark = pytest.mark.django_db


def test_the_admin_shows_reports_and_the_log_linked_to_the_desk_and_changes_nothing(
    admin_client: Client, admin_user: object
) -> None:
    ann, bob = account("ann"), account("bob")
    line = said(bob, game_between(ann, bob), "potato")
    report = reported(ann, bob, "abuse", chat=line.pk, text="rude words")
    services.act(staff_id=admin_user.pk, username="bob", action="mute", reason="insults")  # type: ignore[attr-defined]
    entry = Action.objects.get()

    reports = admin_client.get("/admin/moderation/report/").content.decode()
    log = admin_client.get("/admin/moderation/action/").content.decode()
    one = admin_client.get(f"/admin/moderation/report/{report.pk}/change/").content.decode()

    assert 'href="/moderation/bob/"' in reports and "rude words" in reports
    assert 'href="/moderation/bob/"' in log and "insults" in log
    assert "rude words" in one and 'href="/moderation/bob/"' in one
    for page in (reports, log):
        assert "/admin/moderation/report/add/" not in page
        assert "/admin/moderation/action/add/" not in page
    assert admin_client.get("/admin/moderation/report/add/").status_code == 403
    changed = admin_client.post(
        f"/admin/moderation/action/{entry.pk}/change/", {"reason": "edited", "action": "close"}
    )
    assert changed.status_code == 403
    assert (
        admin_client.post(
            f"/admin/moderation/report/{report.pk}/delete/", {"post": "yes"}
        ).status_code
        == 403
    )
    assert Action.objects.get().reason == "insults" and Report.objects.count() == 1


def test_the_admin_lists_the_playbans_linked_to_the_desk(admin_client: Client) -> None:
    ann = account("ann")
    at = timezone.now()
    given = Playban.objects.create(
        account=ann, reason="left", at=at, until=at + datetime.timedelta(minutes=15)
    )

    listed = admin_client.get("/admin/moderation/playban/").content.decode()
    one = admin_client.get(f"/admin/moderation/playban/{given.pk}/change/").content.decode()

    assert 'href="/moderation/ann/"' in listed and 'href="/moderation/ann/"' in one
    assert "/admin/moderation/playban/add/" not in listed
    assert admin_client.get("/admin/moderation/playban/add/").status_code == 403
