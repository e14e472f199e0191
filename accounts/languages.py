"""The visitor's language: chosen (kept in Django's language cookie, read without a query,
and for an account in its row, so that it follows the account to another browser at
login), else the browser's ``Accept-Language``; the language of an account that is not
there (its e-mails)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext, trans_real

from accounts.models import Account

CHOSEN = "chosen_language"
"""The request attribute naming a language to keep in the visitor's cookie (set at login
to the account's; ``accounts.middleware.ChosenLanguage`` writes the cookie)."""


def known(code: object) -> str | None:
    """``code`` as one of ``settings.LANGUAGES`` (``zh-Hans`` and ``ja-JP`` too), None for
    anything else."""
    if not isinstance(code, str) or not code:
        return None
    try:
        return translation.get_supported_language_variant(code.lower())
    except LookupError:
        return None


def of_request(request: HttpRequest) -> str:
    """The language of ``request``: the visitor's choice (the cookie), else
    ``Accept-Language`` (Django's reading of it, among ``settings.LANGUAGES``), else
    English."""
    chosen = known(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
    return chosen or translation.get_language_from_request(request)


def of_scope(scope: Mapping[str, Any]) -> str:
    """The language of a websocket's handshake (an ASGI ``scope``): the visitor's choice
    (the cookie, as Channels' ``CookieMiddleware`` parsed it), else its
    ``Accept-Language``, else English."""
    chosen = known((scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME))
    if chosen:
        return chosen
    headers = dict(scope.get("headers") or ())
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in trans_real.parse_accept_lang_header(accept):
        if code == "*":
            break
        found = known(code)
        if found:
            return found
    return str(settings.LANGUAGE_CODE)


def of_account(user_id: int) -> str:
    """The language an account chose (its e-mails and notifications are written in it),
    else the site's default."""
    chosen = Account.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    return known(chosen) or settings.LANGUAGE_CODE


@transaction.atomic
def choose(*, request: HttpRequest, user: Any, code: str) -> str:
    """Keep ``code`` as the visitor's language (the cookie, written on the way out; an
    account's row too). Raises ValueError for a language the site does not speak."""
    language = known(code)
    if language is None:
        raise ValueError(
            gettext("%(code)s is not one of the site's languages") % {"code": repr(code)}
        )
    setattr(request, CHOSEN, language)
    if user is not None and user.is_authenticated:
        Account.objects.update_or_create(user=user, defaults={"language": language})
    return language


def logged_in(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """``user_logged_in`` receiver: the account's language becomes this browser's (the
    choice follows the account); an account without one keeps the browser's."""
    if request is None:
        return
    chosen = known(Account.objects.filter(user=user).values_list("language", flat=True).first())
    if chosen:
        setattr(request, CHOSEN, chosen)


def remember(request: HttpRequest, response: Any) -> None:
    """Write the language chosen during ``request`` (if any) into the visitor's cookie."""
    chosen = getattr(request, CHOSEN, None)
    if chosen:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            chosen,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
        )
