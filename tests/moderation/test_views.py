"""moderation.views over HTTP: POST /reports/ in JSON and as a page's form; the desk, an
account's case, the actions and the log for staff only (a guest to the login, any other
account 403); an action's answers in JSON and as a page."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from moderation.models import Action, Report
from tests.moderation.helpers import account, game_between, logged_in, reported, said, staff

pytestmark = pytest.mark.django_db

JSON = {"content_type": "application/json", "HTTP_ACCEPT": "application/json"}


def post_json(client: Client, path: str, body: Any) -> Any:
    return client.post(path, json.dumps(body), **JSON)


# Reports


def test_a_chat_line_reported_in_json_is_201_with_its_id_and_a_repeat_200_with_the_same() -> None:
    ann, bob = account("ann"), account("bob")
    line = said(bob, game_between(ann, bob))
    client = logged_in(ann)
    body = {"username": "bob", "reason": "abuse", "text": "rude", "chat": line.pk}

    first = post_json(client, "/reports/", body)
    again = post_json(client, "/reports/", {**body, "text": "ruder"})

    assert first.status_code == 201 and first.json() == {"id": Report.objects.get().pk}
    assert again.status_code == 200 and again.json() == first.json()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"username": "ann", "reason": "abuse"}, "username"),
        ({"username": "nobody", "reason": "abuse"}, "username"),
        ({"username": "bob", "reason": "spam"}, "reason"),
        ({"username": "bob", "reason": "abuse", "text": "x" * 1001}, "text"),
        ({"username": "bob", "reason": "abuse", "game": "AAAAAAAAAAAAAAAA"}, "game"),
        ({"username": "bob", "reason": "abuse", "chat": 12345}, "chat"),
    ],
)
def test_a_bad_report_is_400_naming_the_field(body: dict[str, Any], field: str) -> None:
    ann, _ = account("ann"), account("bob")

    response = post_json(logged_in(ann), "/reports/", body)

    assert response.status_code == 400
    assert response.json()["error"] == "bad_request" and response.json()["field"] == field
    assert not Report.objects.exists()


def test_a_body_that_is_not_a_json_object_is_400() -> None:
    response = logged_in(account("ann")).post("/reports/", "[1]", **JSON)
    assert response.status_code == 400 and response.json()["error"] == "bad_request"


def test_the_eleventh_report_of_a_day_is_429() -> None:
    ann = account("ann")
    client = logged_in(ann)
    for number in range(10):
        account(f"p{number}")
        body = {"username": f"p{number}", "reason": "name"}
        assert post_json(client, "/reports/", body).status_code == 201
    account("p10")

    response = post_json(client, "/reports/", {"username": "p10", "reason": "name"})

    assert response.status_code == 429 and response.json()["error"] == "rate_limited"
    page = client.post("/reports/", {"username": "p10", "reason": "name"})
    assert page.status_code == 429 and "At most 10 reports a day" in page.content.decode()


def test_a_report_from_a_page_answers_a_page() -> None:
    ann, bob = account("ann"), account("bob")
    client = logged_in(ann)

    sent = client.post(
        "/reports/", {"username": "bob", "reason": "name", "next": "/games/"}, follow=True
    )
    refused = client.post("/reports/", {"username": "bob", "reason": "spam"})

    assert sent.redirect_chain == [("/games/", 302)]
    assert "Thank you: your report went to the staff." in sent.content.decode()
    assert Report.objects.get().account == bob
    assert refused.status_code == 400 and refused["Content-Type"].startswith("text/html")
    assert "Reason must be one of cheat, abuse, name, sandbag, other." in refused.content.decode()
    # Without a page to go back to: the reported account's profile.
    third = client.post(
        "/reports/", {"username": "bob", "reason": "other", "next": "//evil.example/"}
    )
    assert third.url == "/players/bob/"


def test_a_guest_cannot_report() -> None:
    account("bob")
    assert (
        post_json(Client(), "/reports/", {"username": "bob", "reason": "name"}).status_code == 401
    )
    page = Client().post(
        "/reports/", {"username": "bob", "reason": "name", "next": "/players/bob/"}
    )
    assert page.status_code == 302 and page.url.startswith("/accounts/login/?next=/players/bob/")
    assert not Report.objects.exists()


# Who may use the desk


PAGES = ["/moderation/", "/moderation/bob/", "/moderation/log.json"]


@pytest.mark.parametrize("path", PAGES)
def test_a_guest_is_sent_to_the_login_and_asked_to_log_in_in_json(path: str) -> None:
    account("bob")
    page = Client().get(path)
    assert page.status_code == 302 and page.url == f"/accounts/login/?next={path}"
    assert Client().get(path, HTTP_ACCEPT="application/json").status_code == 401


@pytest.mark.parametrize("path", PAGES)
def test_an_account_that_is_not_staff_is_refused(path: str) -> None:
    ann, _ = account("ann"), account("bob")
    page = logged_in(ann).get(path)
    assert page.status_code == 403
    assert "Only staff may use the moderation desk" in page.content.decode()
    refused = logged_in(ann).get(path, HTTP_ACCEPT="application/json")
    assert refused.status_code == 403 and refused.json()["error"] == "forbidden"


def test_only_staff_act() -> None:
    ann, bob = account("ann"), account("bob")
    action = {"action": "mute", "reason": "because"}

    guest = post_json(Client(), "/moderation/bob/", action)
    not_staff = post_json(logged_in(ann), "/moderation/bob/", action)
    guest_form = Client().post("/moderation/bob/", action)

    assert (guest.status_code, not_staff.status_code, guest_form.status_code) == (401, 403, 302)
    assert not Action.objects.exists()
    assert bob.is_active


def test_a_token_is_no_staff_credential() -> None:
    response = Client().get("/moderation/", HTTP_AUTHORIZATION="Bearer anything")
    assert response.status_code == 403 and response.json()["error"] == "token_not_accepted"


# The desk and the actions


def test_the_desk_shows_the_open_reports_by_account_newest_first_with_what_they_name() -> None:
    mod, ann, bob, carol = staff(), account("ann"), account("bob"), account("carol")
    game = game_between(ann, bob)
    line = said(bob, game, "you play like a potato")
    reported(ann, bob, "abuse", chat=line.pk, text="insults")
    reported(ann, carol, "name")
    reported(carol, bob, "cheat", game=game.public_id)

    page = logged_in(mod).get("/moderation/").content.decode()

    table = page.split('id="desk-accounts"')[1].split("</table>")[0]
    assert table.index('data-account="bob"') < table.index('data-account="carol"')
    case = page.split('id="case-bob"')[1].split("</section>")[0]
    assert "you play like a potato" in case and "insults" in case
    assert f"/games/{game.public_id}/" in case
    assert "Insults or abuse" in case and "Cheating: an engine&#x27;s help" in case
    assert 'action="/moderation/bob/"' in case and 'name="reason"' in case
    assert "Mean review accuracy" in case and "Recent games" in case and "Rating history" in case


def test_an_action_in_json_answers_ok_and_is_in_the_log() -> None:
    mod, _ = staff(), account("bob")
    client = logged_in(mod)

    response = post_json(
        client, "/moderation/bob/", {"action": "mute", "reason": "spam", "hours": 2}
    )

    assert response.status_code == 200 and response.json() == {"ok": True}
    [entry] = client.get("/moderation/log.json").json()["entries"]
    assert {key: entry[key] for key in ("staff", "account", "action", "reason")} == {
        "staff": "mod",
        "account": "bob",
        "action": "mute",
        "reason": "spam",
    }
    assert entry["at"] and entry["until"]


def test_the_log_is_newest_first() -> None:
    mod, _ = staff(), account("bob")
    client = logged_in(mod)
    for action in ("mute", "unmute", "mark_engine"):
        post_json(client, "/moderation/bob/", {"action": action, "reason": action})

    entries = client.get("/moderation/log.json").json()["entries"]

    assert [entry["action"] for entry in entries] == ["mark_engine", "unmute", "mute"]


def test_an_action_from_the_desks_form_returns_to_the_desk_saying_what_was_done() -> None:
    mod, bob, ann = staff(), account("bob"), account("ann")
    reported(ann, bob)
    client = logged_in(mod)

    done = client.post(
        "/moderation/bob/",
        {"action": "mute", "hours": "", "reason": "threats", "next": "/moderation/"},
        follow=True,
    )

    assert done.redirect_chain == [("/moderation/", 302)]
    page = done.content.decode()
    assert "Done: Mute, bob." in page and "No open report" in page
    assert "threats" in page.split('id="log"')[1]  # the desk's log


@pytest.mark.parametrize(
    ("username", "fields", "status", "field"),
    [
        ("mod", {"action": "mute", "reason": "x"}, 400, "username"),
        ("bob", {"action": "ban", "reason": "x"}, 400, "action"),
        ("bob", {"action": "mute", "reason": ""}, 400, "reason"),
        ("bob", {"action": "mute", "reason": "x", "hours": -1}, 400, "hours"),
        ("nobody", {"action": "mute", "reason": "x"}, 404, "username"),
    ],
)
def test_a_refused_action_names_its_field(
    username: str, fields: dict[str, Any], status: int, field: str
) -> None:
    mod, _ = staff(), account("bob")

    response = post_json(logged_in(mod), f"/moderation/{username}/", fields)

    assert response.status_code == status and response.json()["field"] == field
    assert not Action.objects.exists()


def test_the_own_account_has_no_action_form() -> None:
    mod, ann = staff(), account("ann")
    reported(ann, mod)

    case = logged_in(mod).get("/moderation/mod/").content.decode()

    assert 'action="/moderation/mod/"' not in case
    assert "another staff member acts on it" in case


def test_an_accounts_case_shows_its_earlier_actions_and_standing() -> None:
    mod, _ = staff(), account("bob")
    client = logged_in(mod)
    post_json(client, "/moderation/bob/", {"action": "mark_engine", "reason": "engine moves"})

    case = client.get("/moderation/bob/").content.decode()

    assert "marked for engine use" in case and "engine moves" in case
    assert client.get("/moderation/nobody/").status_code == 404
