"""The API's side of HTTP: which routes take an API token, and which requests are
answered in JSON rather than with a page.

An API token (``Authorization: Bearer``, read by ``bots.middleware``) authenticates the
routes marked ``token_route`` and no other: the routes that answer JSON or a record, and
the few forms bots and scripts post (create, join, abort, challenge, decline), which
answer a token's request with a redirect or JSON, never with a page. Every other route (a
page, a form that answers a page, the admin, the account's tokens, password, e-mail and
settings) refuses a request carrying a Bearer header with 403: a token is never a login.
A view is marked where it is defined, so a new route takes no token unless it says so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.http import HttpRequest, JsonResponse

View = TypeVar("View", bound=Callable[..., Any])

_MARK = "takes_api_token"


def token_route(view: View) -> View:
    """Mark ``view`` as one of the API's routes: an API token is taken there (put it
    outermost, above the other decorators)."""
    setattr(view, _MARK, True)
    return view


def takes_token(view: Callable[..., Any]) -> bool:
    """Whether ``view`` (a URL pattern's callback) takes an API token."""
    return bool(getattr(view, _MARK, False))


def by_token(request: HttpRequest) -> bool:
    """Whether ``request`` acts by an API token (``request.auth_token``, set by the bots'
    middleware on a token route)."""
    return getattr(request, "auth_token", None) is not None


def wants_json(request: HttpRequest) -> bool:
    """Whether ``request`` is answered in JSON: it acts by a token, asks for JSON
    (``Accept: application/json``) or sends JSON. Else it is a browser's, answered with
    pages."""
    return (
        by_token(request)
        or "application/json" in request.headers.get("Accept", "")
        or request.content_type == "application/json"
    )


def error_json(
    code: str,
    message: str,
    *,
    field: str | None = None,
    status: int = 400,
    details: dict[str, Any] | None = None,
) -> JsonResponse:
    """The contract's refusal: ``{"error": code, "message", "field"}`` (``field`` only when
    one is at fault) with ``status``, and ``details``' keys (a mute's ``until``)."""
    body: dict[str, Any] = {"error": code, "message": message, **(details or {})}
    if field is not None:
        body["field"] = field
    return JsonResponse(body, status=status)


def form_error_json(form: Any, *, status: int = 400) -> JsonResponse:
    """A refused form (Django's, bound and invalid) as ``error_json``: ``bad_request``
    naming its first field at fault and that field's first error."""
    field, errors = next(iter(form.errors.items()))
    return error_json(
        "bad_request",
        str(errors[0]),
        field=None if field == "__all__" else field,
        status=status,
    )
