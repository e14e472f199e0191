"""Accounts' e-mail addresses and their verification (django-allauth's ``EmailAddress``:
one primary address an account, verified by following a link mailed to it).

Sign-up mails the link (allauth). An account made before the addresses were verified
kept its address, unverified (migration 0005), and the first time it logs in on the
site's login page afterwards it is mailed a link (``VerificationStage``), once: never
again at log-in once a link went to that address for that account. The notification
settings page sends it again on request (``send_link``). allauth waits a few minutes
between two links to one address; where two accounts share one, the first to follow its
link keeps it, and the other's link then fails (``EmailAddress.can_set_verified``).
"""

from __future__ import annotations

from typing import Any

from allauth.account.internal.flows.email_verification import (
    send_verification_email_to_address,
)
from allauth.account.models import EmailAddress, EmailConfirmation
from allauth.account.stages import EmailVerificationStage
from django.http import HttpRequest


def primary_address(user: Any) -> EmailAddress | None:
    """The address an account is mailed at (its primary one; the one on its row, held
    from now on, for an account made by the admin or a script), None when it has none."""
    address = EmailAddress.objects.filter(user_id=user.pk, primary=True).first()
    if address is None and user.email:
        address, _ = EmailAddress.objects.update_or_create(
            user=user, email=user.email.lower(), defaults={"primary": True}
        )
    return address


def send_link(request: HttpRequest, user: Any) -> bool:
    """Mail ``user`` a link that verifies its address; whether one was sent (not for an
    account without an address, nor one verified, nor within minutes of the last link to
    that address)."""
    address = primary_address(user)
    if address is None or address.verified:
        return False
    return send_verification_email_to_address(request, address)


class VerificationStage(EmailVerificationStage):
    """allauth's step of a log-in that mails the link (at sign-up; the address being
    optional to verify, at no other log-in), which also mails an account whose address
    is not verified and was never sent a link (an account from before the links) one."""

    def handle(self) -> tuple[Any, bool]:
        response, go_on = super().handle()
        user = self.login.user
        if not self.login.signup and user is not None:
            address = primary_address(user)
            if (
                address is not None
                and not address.verified
                and not EmailConfirmation.objects.filter(email_address=address).exists()
            ):
                send_verification_email_to_address(self.request, address)
        return response, go_on
