"""django-allauth adapted to the site (``ACCOUNT_ADAPTER``).

- Failed logins are counted per address and per (address, username) pair, never per
  username alone (anyone could lock anyone out): allauth's ``login_failed`` limit counts
  each address (``ip``) and each "key", which is made the pair here. The locked form says
  so, in the site's words.
- An address is unique among accounts in any case, also against an account made
  elsewhere (the admin, a script) whose address allauth does not hold yet.
- Logging in mails the link that verifies an address to an account that was never sent
  one (``accounts.emails.VerificationStage``).
- The site's mails name the site in their own subject; the account pages answer HTML
  whatever the request accepts, as Django's own views did.
"""

from __future__ import annotations

from typing import Any, ClassVar

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.internal.ratelimit import truncate_ip
from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.utils.encoding import force_str
from django.utils.translation import gettext_lazy


class AccountAdapter(DefaultAccountAdapter):
    error_messages: ClassVar[dict[str, Any]] = {
        **DefaultAccountAdapter.error_messages,
        "too_many_login_attempts": gettext_lazy(
            "Too many failed log-ins from your IP address: try again in 15 minutes. Forgot "
            "your password? Reset it by e-mail."
        ),
        "email_taken": gettext_lazy("An account already has this e-mail address."),
    }

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        """The pair whose failed logins are counted (allauth's "key" of ``login_failed``):
        the address the request comes from and the username, in any case."""
        username = str(credentials.get("username", "")).casefold()
        return f"{truncate_ip(self.get_client_ip(request))}:{username}"

    def validate_unique_email(self, email: str) -> str:
        """``email``, unless an account has it in any case (allauth finds the addresses it
        holds; an account made by the admin or a script holds its own on its row)."""
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise self.validation_error("email_taken")
        return email

    def format_email_subject(self, subject: str) -> str:
        """The subject as written (each names the site itself)."""
        return force_str(subject)

    def get_login_stages(self) -> list[str]:
        """allauth's steps of a log-in, the one that mails the link ours
        (``accounts.emails.VerificationStage``: also to an account from before the links)."""
        ours = "accounts.emails.VerificationStage"
        return [
            ours if stage.endswith(".EmailVerificationStage") else stage
            for stage in super().get_login_stages()
        ]

    def is_ajax(self, request: HttpRequest) -> bool:
        """Never: the account pages answer HTML (a form with its errors, a redirect)."""
        return False
