"""The limits that keep a public server up (docs/api/README.md#limits).

- A websocket may send ``SOCKET_MESSAGES`` messages within ``SOCKET_WINDOW`` seconds;
  beyond, ``rate_limited``, and a socket that keeps flooding is closed with
  ``CLOSE_FLOODING``. Applied where daphne queues the frames
  (``othello_site.websocket_flow``), with ``SlidingWindow``.
- A chat: ``CHAT_LINES`` lines within ``CHAT_WINDOW`` from one speaker in one room,
  whatever the number of its sockets (``chat_flooding``, counted in the database by the
  service that stores the line).
- ``POST`` to create a game, to join one or to import an SGF file: at most
  ``HTTP_PER_SESSION`` a minute from one session and ``HTTP_PER_IP`` from one address;
  beyond, HTTP 429 with ``Retry-After`` and nothing stored (``limit_posts``). The counts
  live in Django's cache (django-ratelimit): the process's memory on the embedded
  default, Redis when ``REDIS_URL`` is set, so that every process counts together.

``RATE_LIMITS=off`` in the environment (``settings.RATE_LIMITS``) turns every limit off.
"""

from __future__ import annotations

import datetime
import functools
import logging
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.conf import settings
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, ngettext
from django_ratelimit.core import get_usage

from accounts import api
from accounts.players import Player

logger = logging.getLogger(__name__)

View = TypeVar("View", bound=Callable[..., Any])

SOCKET_MESSAGES = 20
SOCKET_WINDOW = 1.0
CLOSE_FLOODING = 4429
REFUSE_UNAUTHORIZED = 4401
"""A websocket refused with this close code before its handshake is accepted gets HTTP
401 (othello_site.websocket_flow), not daphne's 403: a bad or revoked token."""

HTTP_PER_SESSION = "10/m"
HTTP_PER_IP = "60/m"
ANALYSIS_PER_SESSION = "5/h"
ANALYSIS_PER_IP = "60/h"
EXPLORE_PER_SESSION = "60/m"
EXPLORE_PER_IP = "300/m"

HTTP_BODY_BYTES = 2 * 1024 * 1024
"""An HTTP request's body may be this long; a longer one is answered 413 unread
(othello_site.body_limit), whatever ``RATE_LIMITS`` says."""
CHAT_LINES = 5
CHAT_WINDOW = datetime.timedelta(seconds=10)
"""A speaker says at most ``CHAT_LINES`` within ``CHAT_WINDOW`` in one room (``chat_flooding``)."""


def enabled() -> bool:
    """Whether the limits apply (not ``RATE_LIMITS=off``)."""
    return bool(settings.RATE_LIMITS)


class SlidingWindow:
    """At most ``limit`` events within any ``window`` seconds.

    ``hit(now)`` records an event at ``now`` (seconds, any monotonic clock: the caller
    passes the time in, so tests use fixed times) and says whether it is within the limit.
    An event beyond the limit counts too, so a sender is refused until its own rate falls
    below the limit, not merely until old events expire.

    >>> rate = SlidingWindow(limit=2, window=1.0)
    >>> [rate.hit(t) for t in (0.0, 0.1, 0.2, 1.05, 1.2)]
    [True, True, False, False, True]
    """

    def __init__(self, *, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._times: deque[float] = deque(maxlen=limit)

    def hit(self, now: float) -> bool:
        """Record an event at ``now``; True if it is within the limit."""
        full = len(self._times) == self.limit and now - self._times[0] < self.window
        self._times.append(now)
        return not full


def chat_flooding(lines: QuerySet[Any], *, speaker: Player, now: datetime.datetime) -> bool:
    """Whether ``speaker`` already said ``CHAT_LINES`` of ``lines`` (a room's chat lines:
    a game's, a tournament's; rows with ``user``, ``session_key`` and ``created_at``)
    within the ``CHAT_WINDOW`` before ``now``: its next line there is refused
    (``rate_limited``). An account counts by its account (from any browser), a guest by
    its session; every visitor with neither counts as one. Counted in the database, so
    every socket of the speaker, on every process, counts together; the caller holds the
    room's lock, so two lines at once are counted one after the other."""
    if speaker.user_id is not None:
        said = lines.filter(user_id=speaker.user_id)
    else:
        said = lines.filter(user=None, session_key=speaker.session_key or "")
    return said.filter(created_at__gt=now - CHAT_WINDOW).count() >= CHAT_LINES


def chat_limit_message() -> str:
    """The words of a chat line refused by ``chat_flooding``."""
    return gettext("at most %(chat_messages)s chat messages within %(chat_window)s s") % {
        "chat_messages": CHAT_LINES,
        "chat_window": format(CHAT_WINDOW.total_seconds(), "g"),
    }


def _session(group: str, request: HttpRequest) -> str:
    # A request with an API token (bots.middleware) counts by its account, as a session.
    if getattr(request, "auth_token", None) is not None:
        return f"user:{request.user.pk}"
    return request.session.session_key or ""


def _usages(
    request: HttpRequest, group: str, per_session: str, per_ip: str
) -> list[dict[str, Any]]:
    # A request without a session gets the one it would get anyway (creating and joining
    # seat it by its session), so that its first game counts too. A client that drops its
    # cookies gets a new session each time: HTTP_PER_IP holds it.
    if request.session.session_key is None and getattr(request, "auth_token", None) is None:
        request.session.save()
    keys: list[tuple[Callable[[str, HttpRequest], str] | str, str]] = [
        ("ip", per_ip),
        (_session, per_session),
    ]
    usages = []
    for key, rate in keys:
        try:
            usage = get_usage(request, group=group, key=key, rate=rate, increment=True)
        except Exception:
            # The cache (Redis) is down: the limits fail open rather than take the site
            # down with them; the channel layer's own failure is what players will notice.
            logger.warning("rate limit %s not checked: the cache failed", group, exc_info=True)
            return []
        if usage is not None:
            usages.append(usage)
    return usages


def refusal(request: HttpRequest, group: str, per_session: str, per_ip: str) -> HttpResponse | None:
    """Count this ``POST`` against ``group``'s limits: None within them, else the 429 to
    answer (with ``Retry-After``: seconds until the window that is full ends): the site's
    page, or ``{"error": "rate_limited", "message"}`` for a token's request (or one asking
    for JSON)."""
    full = [
        usage for usage in _usages(request, group, per_session, per_ip) if usage["should_limit"]
    ]
    if not full:
        return None
    retry_after = max(1, *(int(usage["time_left"]) for usage in full))
    response: HttpResponse
    if api.wants_json(request):
        message = ngettext(
            "too many requests: try again in %(seconds)d second",
            "too many requests: try again in %(seconds)d seconds",
            retry_after,
        ) % {"seconds": retry_after}
        response = api.error_json("rate_limited", message, status=429)
    else:
        context = {"retry_after": retry_after, "group": group}
        response = render(request, "429.html", context, status=429)
    response["Retry-After"] = str(retry_after)
    return response


def limit_posts(
    group: str, *, per_session: str = HTTP_PER_SESSION, per_ip: str = HTTP_PER_IP
) -> Callable[[View], View]:
    """A view decorator: each ``POST`` counts against ``group``'s limits (``per_session``
    and ``per_ip``, django-ratelimit's rates); beyond either, the view is not called and
    the answer is 429 with ``Retry-After`` (seconds until the window that is full ends).
    Other methods pass. An async view stays async (the count, which reads the session and
    the cache, runs in the request's thread)."""

    def decorate(view: View) -> View:
        if iscoroutinefunction(view):

            @functools.wraps(view)
            async def limited_async(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
                if request.method == "POST" and enabled():
                    refused = await sync_to_async(refusal)(request, group, per_session, per_ip)
                    if refused is not None:
                        return refused
                return await view(request, *args, **kwargs)

            return limited_async

        @functools.wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            if request.method == "POST" and enabled():
                refused = refusal(request, group, per_session, per_ip)
                if refused is not None:
                    return refused
            return view(request, *args, **kwargs)

        return limited

    return decorate
