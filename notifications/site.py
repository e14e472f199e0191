"""The site's address for the links of e-mails: ``SITE_URL`` when it is set; else the
address of the request that caused the notification, where there is one.

An e-mail is sent by the outbox after the commit, with no request at hand: so the
address (scheme, host and port: ``http://games.example.org:8123``) of the request being
served is kept while it is served (``current``: an HTTP request, ``RequestSite``; the
websocket that made the move, ``SocketSite``: its ``Origin``, which
``othello_site.origins`` has checked is the site's own), and ``notify`` stores it with
the notification (``Notification.site``). A notification no request caused (a clock
that ran out, a tournament's round, the pools' pairing) has none: its links use the
default, ``http://127.0.0.1:8000``, and the server says so in its log. A server that
starts without ``SITE_URL`` says so once (``warn_when_serving``).
"""

from __future__ import annotations

import contextvars
import logging
import sys
import urllib.parse
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)

DEFAULT = "http://127.0.0.1:8000"
"""Where the links of an e-mail lead with neither ``SITE_URL`` nor a request's address."""

UNSET = (
    "SITE_URL is not set: the links in notification e-mails use the address of the request"
    " that caused each (the host and port the browser used), and %s where no request did (a"
    " clock that ran out, a tournament's pairing). Set SITE_URL to the site's address as"
    " its players reach it, e.g. SITE_URL=https://games.example.org"
)

LONGEST = 200
"""The longest address kept (``Notification.site``'s length); a longer one is not kept."""

_current: contextvars.ContextVar[str] = contextvars.ContextVar("site_address", default="")


def _kept(address: str) -> str:
    return address if len(address) <= LONGEST else ""


def current() -> str:
    """The address of the request (or websocket) being served: ``scheme://host[:port]``;
    "" outside of one."""
    return _current.get()


def of_request(request: HttpRequest) -> str:
    """``request``'s site address: its scheme (``https`` behind a proxy that says so, as
    daphne's ``--proxy-headers`` passes it on) and its ``Host`` (one of
    ``ALLOWED_HOSTS``, with its port); "" for a host Django refuses."""
    try:
        host = request.get_host()
    except DisallowedHost:
        return ""
    return f"{request.scheme}://{host}"


def of_scope(scope: dict[str, Any]) -> str:
    """A websocket's site address: its ``Origin`` (checked against the site's scheme,
    host and port by ``othello_site.origins.SameOriginValidator`` before this runs); ""
    without one that is an origin."""
    for key, value in scope.get("headers", []):
        if key == b"origin":
            origin = value.decode("latin1").strip()
            parts = urllib.parse.urlsplit(origin)
            if parts.scheme in ("http", "https") and parts.netloc and not parts.path:
                return origin
    return ""


class RequestSite:
    """Django middleware: ``current`` is the request's address while it is served."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _current.set(_kept(of_request(request)))
        try:
            return self.get_response(request)
        finally:
            _current.reset(token)


class SocketSite:
    """ASGI middleware of the websockets (inside ``SameOriginValidator``): ``current`` is
    the socket's ``Origin`` for as long as it is open (its consumer's services run in
    the task's context, copied to their threads)."""

    def __init__(self, inner: Callable[..., Awaitable[Any]]) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        token = _current.set(_kept(of_scope(scope)))
        try:
            return await self.inner(scope, receive, send)
        finally:
            _current.reset(token)


def links(stored: str, *, notification_id: int | None = None) -> str:
    """Where an e-mail's links start: ``SITE_URL``; else ``stored`` (the address of the
    request that caused the notification); else ``DEFAULT``, saying so in the log."""
    if settings.SITE_URL:
        return str(settings.SITE_URL).rstrip("/")
    if stored:
        return stored.rstrip("/")
    logger.warning(
        "SITE_URL is not set and no request caused notification %s: its e-mail links to %s",
        notification_id,
        DEFAULT,
    )
    return DEFAULT


def warn_when_serving() -> None:
    """Say once, as a server starts serving (daphne's reactor runs: daphne, or
    ``runserver`` through daphne), that ``SITE_URL`` is unset and what the links of
    e-mails will be; nothing in a process that daphne does not serve (a command, the
    tests), nor when it is set."""
    if settings.SITE_URL or "daphne.server" not in sys.modules:
        return
    from twisted.internet import reactor

    reactor.callWhenRunning(logger.warning, UNSET, DEFAULT)  # type: ignore[attr-defined]
