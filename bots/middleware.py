"""``Authorization: Bearer <token>`` on HTTP (Django middleware) and on the websocket
handshake (Channels middleware): the request acts as the token's account.

On HTTP a token is taken only by the API's routes (views marked
``accounts.api.token_route``); a Bearer header on any other route (a page, a form that
answers a page, the admin, the account's tokens, password, e-mail and settings) is refused
with 403 ``token_not_accepted`` before the view runs, whatever the token: a token is never
a login, and a leaked one of a staff account is no admin credential. Every websocket takes
one.

A request with a Bearer header and an unknown or revoked token is refused: HTTP 401,
and on the websocket the handshake is refused with HTTP 401 too (the close code
``games.limits.REFUSE_UNAUTHORIZED`` before accept, which othello_site.websocket_flow
turns into 401 where daphne would answer 403). A request with a
token needs no CSRF token (no browser sends one on its own) and makes no session: its
rate limits count by account (games.limits reads ``request.auth_token``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext

from accounts import api
from bots.accounts import bearer, token_user
from games import limits


def _refused() -> JsonResponse:
    response = JsonResponse(
        {"error": "invalid_token", "message": gettext("unknown or revoked token")}
    )
    response.status_code = 401
    response["WWW-Authenticate"] = 'Bearer error="invalid_token"'
    return response


def _not_here() -> JsonResponse:
    return api.error_json(
        "token_not_accepted",
        gettext(
            "an API token is not accepted on this route: tokens are for the API's routes"
            " and websockets, not for pages, forms, the admin or the account's settings"
        ),
        status=403,
    )


def _takes_token(request: HttpRequest) -> bool:
    """Whether the route ``request`` goes to is one of the API's (its view marked
    ``accounts.api.token_route``); no route at all takes none."""
    try:
        match = resolve(request.path_info, getattr(request, "urlconf", None))
    except Resolver404:
        return False
    return api.takes_token(match.func)


class BearerTokenMiddleware:
    """After Django's AuthenticationMiddleware: on the API's routes a Bearer token replaces
    the session's user; on any other route a Bearer header is refused (403)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = bearer(request.headers.get("Authorization", ""))
        if token is None:
            return self.get_response(request)
        if not _takes_token(request):
            return _not_here()
        found = token_user(token) if token else None
        if found is None:
            return _refused()
        request.user, request.auth_token = found  # type: ignore[attr-defined]
        request._dont_enforce_csrf_checks = True  # type: ignore[attr-defined]
        return self.get_response(request)


class TokenAuthMiddleware(BaseMiddleware):
    """Inside Channels' AuthMiddlewareStack: a Bearer token on the handshake sets
    ``scope["user"]`` and ``scope["auth_token"]`` (the token's id); a bad one is refused."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        header = dict(scope.get("headers", ())).get(b"authorization", b"")
        token = bearer(header.decode("latin-1"))
        if token is None:
            return await super().__call__(scope, receive, send)
        found = await database_sync_to_async(token_user)(token) if token else None
        if found is None:
            # Refused before the handshake is accepted: HTTP 401 (othello_site.websocket_flow).
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": limits.REFUSE_UNAUTHORIZED})
            return None
        scope = dict(scope)
        scope["user"], scope["auth_token"] = found
        return await super().__call__(scope, receive, send)
