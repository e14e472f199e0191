"""A route's refusal in the form the request asks for: JSON for a request that is JSON or
asks for it (``accounts.api.wants_json``), else a page that says why in words.

One rule for every route a page's form posts to: a browser never gets a page of raw JSON,
and a script never gets a page. A view that has a better page to answer with (its own
form with the error beside the field) asks ``api.wants_json`` itself.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required as page_login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from accounts import api
from accounts.refusals import Refusal


def refused(
    request: HttpRequest,
    code: str,
    message: str,
    *,
    field: str | None = None,
    status: int = 400,
    back: str | None = None,
    details: dict[str, Any] | None = None,
) -> HttpResponse:
    """The refusal ``code`` with ``message``: ``{"error", "message", "field"}`` (and
    ``details``' keys: a playban's ``until``) with ``status`` for a request that wants
    JSON. Else a page: with ``back`` (the page whose
    form was posted), 302 there with the message shown above it; without, the site's error
    page with ``status``, ``403.html`` for a 403 (who may do this), ``400.html`` for any
    other (the message in words, then "Nothing was changed.": a message as the services
    write them, lower case without a final stop)."""
    if api.wants_json(request):
        return api.error_json(code, message, field=field, status=status, details=details)
    if back is not None:
        messages.error(request, message)
        return redirect(back)
    if status == 403:
        return render(request, "403.html", {"exception": message}, status=status)
    return render(request, "400.html", {"message": message}, status=status)


def refusal(request: HttpRequest, error: Refusal, *, back: str | None = None) -> HttpResponse:
    """``refused`` for an app's ``Refusal`` (its code, message, field, details and status);
    a page for a 404 is the site's page not found, for a 429 ``429.html``."""
    if not api.wants_json(request):
        if error.status == 404:
            raise Http404(error.message)
        if error.status == 429 and back is None:
            return render(request, "429.html", {"message": error.message}, status=429)
    return refused(
        request,
        error.code,
        error.message,
        field=error.field,
        status=error.status,
        back=back,
        details=error.details,
    )


def login_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Django's ``login_required`` (a visitor not logged in: 302 to the login page) for a
    page's form; a request that wants JSON gets 401 ``login_required`` instead."""
    for_pages = page_login_required(view)

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated and api.wants_json(request):
            return api.error_json("login_required", gettext("log in first"), status=401)
        return for_pages(request, *args, **kwargs)

    return wrapped
