"""Accounts' e-mail addresses (docs/api/http.md, "Accounts"): sign-up asks for one, unique
among accounts in any case, and mails a link that verifies it; existing accounts keep
theirs, unverified, and get a link at their next log-in, once; where two share one, the
first to verify keeps it. A password reset mails an address at most 3 times an hour and
answers alike whether or not the address is known. Mails are counted in Django's
in-memory backend (``mail.outbox``)."""

from __future__ import annotations

import importlib
import re
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from tests.conftest import forget_cached

pytestmark = pytest.mark.django_db

PASSWORD = "a long pass phrase"
LINK = re.compile(r"http://testserver(/accounts/confirm-email/[^/\s]+/)")


def sign_up(username: str, email: str | None, browser: Client | None = None) -> Any:
    fields = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    if email is not None:
        fields["email"] = email
    return (browser or Client()).post("/accounts/signup/", fields)


def verified_email(username: str) -> str:
    from accounts.selectors import verified_email

    return verified_email(get_user_model().objects.get(username=username).pk)


def links_to(address: str) -> list[str]:
    """The verification links mailed to ``address`` so far."""
    return [
        found.group(1)
        for message in mail.outbox
        if message.to == [address]
        for found in [LINK.search(message.body)]
        if found
    ]


def existing_accounts_get_their_addresses() -> None:
    """The data migration that gives every account with an address an unverified one."""
    migration = importlib.import_module("accounts.migrations.0006_email_addresses")
    migration.unverified_addresses(apps, None)


def test_sign_up_asks_for_an_email_address() -> None:
    answer = sign_up("ann", None)
    assert answer.status_code == 400
    assert answer.context["form"].errors["email"]
    assert sign_up("ann", "").status_code == 400
    assert not get_user_model().objects.filter(username="ann").exists()
    assert mail.outbox == []


def test_an_address_taken_in_another_case_is_refused() -> None:
    assert sign_up("ann", "Ann@Example.org").status_code == 302
    answer = sign_up("bob", "ann@EXAMPLE.ORG")
    assert answer.status_code == 400
    assert answer.context["form"].errors["email"]
    assert not get_user_model().objects.filter(username="bob").exists()


def test_an_address_of_an_account_made_elsewhere_is_taken_too() -> None:
    get_user_model().objects.create_user("ann", email="Ann@Example.org")  # the admin, a script
    assert sign_up("bob", "ann@example.org").status_code == 400


def test_sign_up_mails_one_link_and_following_it_verifies_the_address() -> None:
    browser = Client()
    assert sign_up("ann", "ann@example.org", browser)["Location"] == "/"
    [message] = mail.outbox
    assert message.to == ["ann@example.org"]
    assert message.subject == "Othello & Go: confirm your e-mail address"
    [link] = links_to("ann@example.org")
    assert "ann" in message.body
    assert verified_email("ann") == ""

    page = browser.get(link)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="site-header"' in html and "ann@example.org" in html
    assert browser.post(link).status_code == 302
    assert verified_email("ann") == "ann@example.org"
    assert len(mail.outbox) == 1, "no second mail"


def test_a_link_works_without_logging_in_and_a_wrong_one_says_so() -> None:
    sign_up("ann", "ann@example.org")
    [link] = links_to("ann@example.org")
    stranger = Client()
    assert stranger.post(link).status_code == 302
    assert verified_email("ann") == "ann@example.org"

    wrong = Client().get("/accounts/confirm-email/no-such-key/")
    assert wrong.status_code == 404
    assert "This link no longer works" in wrong.content.decode()


def test_existing_accounts_keep_their_address_unverified_and_get_a_link_at_their_next_login() -> (
    None
):
    from allauth.account.models import EmailAddress

    get_user_model().objects.create_user("ann", email="Ann@example.org", password=PASSWORD)
    get_user_model().objects.create_user("nobody", password=PASSWORD)
    existing_accounts_get_their_addresses()
    [address] = EmailAddress.objects.all()
    assert (address.user.username, address.email) == ("ann", "ann@example.org")
    assert (address.primary, address.verified) == (True, False)
    assert get_user_model().objects.get(username="ann").email == "Ann@example.org", "kept"

    for _ in range(2):
        answer = Client().post("/accounts/login/", {"username": "ann", "password": PASSWORD})
        assert answer.status_code == 302
        forget_cached()  # the limits on resending: the second log-in sends nothing anyway
    assert len(links_to("ann@example.org")) == 1, "a link at the next log-in, once"
    Client().post("/accounts/login/", {"username": "nobody", "password": PASSWORD})
    assert len(mail.outbox) == 1

    [link] = links_to("ann@example.org")
    Client().post(link)
    assert verified_email("ann") == "ann@example.org"


def test_two_accounts_sharing_an_address_the_first_to_verify_keeps_it() -> None:
    for username in ("ann", "bob"):
        get_user_model().objects.create_user(
            username, email="shared@example.org", password=PASSWORD
        )
    existing_accounts_get_their_addresses()
    Client().post("/accounts/login/", {"username": "bob", "password": PASSWORD})
    forget_cached()  # a second link to one address within minutes would wait
    Client().post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    bobs, anns = links_to("shared@example.org")

    assert Client().post(anns).status_code == 302
    assert verified_email("ann") == "shared@example.org"
    refused = Client().get(bobs)
    assert "already verified by another account" in refused.content.decode()
    Client().post(bobs)
    assert verified_email("bob") == ""
    assert verified_email("ann") == "shared@example.org"


def resets(address: str, *, sender: str) -> list[tuple[int, str, str]]:
    """What a visitor at IP address ``sender`` sees of 20 password resets asked for
    ``address`` in a row, the address it gave and the form's one-time CSRF token left out."""
    seen = []
    for _ in range(20):
        response = Client(REMOTE_ADDR=sender).post("/accounts/password_reset/", {"email": address})
        page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())
        seen.append(
            (response.status_code, response.get("Location", ""), page.replace(address, "@"))
        )
    return seen


def test_password_resets_mail_an_address_three_times_an_hour_and_answer_alike() -> None:
    get_user_model().objects.create_user("ann", email="ann@example.org", password=PASSWORD)

    known = resets("ann@example.org", sender="10.0.0.1")
    assert len(mail.outbox) == 3
    unknown = resets("nobody@example.org", sender="10.0.0.2")
    assert len(mail.outbox) == 3, "nothing is mailed to an address without an account"
    assert known == unknown
    assert [status for status, _, _ in known] == [302] * 3 + [429] * 17
    assert "Too many links" in known[-1][2]
