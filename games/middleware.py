"""HTTP middleware of the games app."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5


class DatabaseUnavailableMiddleware:
    """A page whose database cannot be reached is a 503 with ``Retry-After``, saying so,
    rather than a server error: the request changed nothing (each write is one
    transaction), and trying again shortly is the right thing to do (as the websocket's
    ``unavailable``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning("database unavailable for %s: %s", request.path, exception)
        response = HttpResponse(
            gettext(
                "The database cannot be reached just now: nothing was changed. "
                "Try again in %(seconds)s seconds."
            )
            % {"seconds": RETRY_AFTER_SECONDS}
            + "\n",
            status=503,
            content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
