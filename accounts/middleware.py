"""Every page gives a visitor a session (DESIGN.md, "Pairing"), so that a guest's seek,
the seat it is paired into and the lobby socket share one."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class SessionForEveryVisitor:
    """A page (a GET answered 200 with HTML) to a visitor without a session saves one, and
    Django's SessionMiddleware (listed before this one) sends its cookie."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        page = response.get("Content-Type", "").startswith("text/html")
        if request.method == "GET" and response.status_code == 200 and page:
            session = request.session
            if session.session_key is None:
                session.save()
                session.modified = True
        return response
