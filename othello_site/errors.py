"""The site's error pages: Django's own handlers render ``403.html``, ``404.html`` and
``500.html`` (templates/, in the site's look); a bad request says why."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: ``400.html`` with the reason (a ``BadRequest``'s message, e.g. "ply
    must be an integer move number"), nothing changed."""
    return render(request, "400.html", {"message": str(exception)}, status=400)


def too_many_requests(request: HttpRequest) -> HttpResponse:
    """``handler429``, which django-allauth answers its limits with (sign-up, the password
    reset's link): ``429.html``, saying a form was sent too often."""
    return render(request, "429.html", {"group": "accounts"}, status=429)
