"""Every page gives a visitor a session (docs/api/README.md#who-you-are), so that a guest's seek,
the seat it is paired into and the lobby socket share one; and speaks the visitor's
language."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

from accounts import languages


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


class ChosenLanguage:
    """Each request in the visitor's language (``accounts.languages.of_request``: the one
    chosen, kept in a cookie, else the browser's ``Accept-Language``), with
    ``request.LANGUAGE_CODE`` and ``Content-Language`` set; URLs carry no language."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = languages.of_request(request)
        # Only for this request: the thread that served it (a test's, a pool's) goes back to
        # the language it had, so that nothing read later speaks this visitor's.
        with translation.override(language):
            request.LANGUAGE_CODE = translation.get_language()  # type: ignore[attr-defined]
            response = self.get_response(request)
        languages.remember(request, response)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        response.headers.setdefault("Content-Language", language)
        return response


class SocketLanguage:
    """A websocket in its visitor's language (``accounts.languages.of_scope``: the chosen
    language's cookie, else the handshake's ``Accept-Language``): the consumer's messages
    (errors, words) are written in it. An ASGI middleware, inside Channels'
    ``AuthMiddlewareStack`` (which parses the cookies)."""

    def __init__(self, inner: Callable[..., Awaitable[Any]]) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        with translation.override(languages.of_scope(scope)):
            return await self.inner(scope, receive, send)
