"""The site's error pages: Django's own handlers render ``403.html`` and ``500.html``
(templates/, in the site's look); a bad request says why, and a page not found is
``404.html``. A request answered in JSON (a token's, or one asking for JSON:
``accounts.api.wants_json``) gets the contract's ``{"error", "message"}`` instead of a
page for a 400 and a 404."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views import defaults

from accounts import api


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: ``400.html`` with the reason (a ``BadRequest``'s message, e.g. "ply
    must be an integer move number"), nothing changed; JSON ``bad_request`` for JSON."""
    if api.wants_json(request):
        return api.error_json("bad_request", str(exception))
    return render(request, "400.html", {"message": str(exception)}, status=400)


def too_many_requests(request: HttpRequest) -> HttpResponse:
    """``handler429``, which django-allauth answers its limits with (sign-up, the password
    reset's link): ``429.html``, saying a form was sent too often."""
    return render(request, "429.html", {"group": "accounts"}, status=429)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: Django's ``404.html``; JSON ``not_found`` for JSON."""
    if api.wants_json(request):
        return api.error_json(
            "not_found", gettext("no page, game or player has this address"), status=404
        )
    return defaults.page_not_found(request, exception)
