"""Request bodies over ``limits.HTTP_BODY_BYTES`` (2 MiB), refused where daphne reads them.

Daphne reads a request's whole body before the application runs: Twisted's channel writes
it to a file (in memory below 100,000 bytes), parses a form in memory on the way (into
``request.args``, which daphne never reads), and daphne queues it for the application.
Nothing bounds it: a 50 MB upload raised a process by 600 MB before Django's 400. So this
request, a subclass of daphne's, decides as the body comes:

- a ``Content-Length`` over the limit is refused when the headers end, before any of the
  body is read (and without the ``100 Continue`` a client may wait for);
- a chunked body (no length said) is refused once what came passes the limit.

A refused request reaches the application at once, with no body and the header
``Body-Too-Large`` (only this module sets it: a client's own is removed), and
``TooLargeBodies``, a Django middleware, answers it 413: the site's page, or JSON to a
JSON request. The connection then closes: what the client goes on sending is not read
(Twisted stops reading the socket once 16 KiB wait while a request is answered), and
the client reads the answer as browsers and curl do, while sending.

``install()`` makes daphne build this request for every HTTP request (its factory's
``WebRequest``), however daphne was started, as ``othello_site.websocket_flow`` does for
websockets.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from daphne import http_protocol
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext

from games import limits

TOO_LARGE_HEADER = b"Body-Too-Large"


def _ignore(data: bytes) -> None:
    pass


class BodyLimitedRequest(http_protocol.WebRequest):  # type: ignore[misc]
    """Daphne's request, reading no body over ``limits.HTTP_BODY_BYTES``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Twisted's parse of a form body into ``args``: daphne hands the body on as it is.
        super().__init__(*args, parsePOSTFormSubmission=False, **kwargs)
        self.body_refused = False
        self._body_bytes = 0

    def gotLength(self, length: int | None) -> None:
        self.requestHeaders.removeHeader(TOO_LARGE_HEADER)
        if length is not None and length > limits.HTTP_BODY_BYTES:
            self._refuse()
            # The headers are all the channel reads: the request is complete now.
            self.channel.length = 0
            return
        super().gotLength(length)

    def handleContentChunk(self, data: bytes) -> None:
        if self.body_refused:
            return
        self._body_bytes += len(data)
        if self._body_bytes <= limits.HTTP_BODY_BYTES:
            super().handleContentChunk(data)
            return
        self._refuse()
        # A chunked body: its decoder goes on through what was read already, into nothing,
        # and the request is complete now.
        decoder = self.channel._transferDecoder
        decoder.dataCallback = decoder.finishCallback = _ignore
        self.channel.allContentReceived()

    def _refuse(self) -> None:
        self.body_refused = True
        if self.content is not None:
            self.content.close()
        self.content = io.BytesIO()
        headers = self.requestHeaders
        headers.setRawHeaders(TOO_LARGE_HEADER, [b"1"])
        # No "100 Continue": the client need not send the body. And the answer is HTTP's,
        # not a websocket's.
        headers.removeHeader(b"Expect")
        headers.removeHeader(b"Upgrade")
        # The rest of the body is never read: the connection ends with the answer.
        self.channel.persistent = False
        self.responseHeaders.setRawHeaders(b"Connection", [b"close"])


class TooLargeBodies:
    """A Django middleware: a request whose body ``BodyLimitedRequest`` refused is
    answered 413 (``413.html``, or ``{"error": "too_large", "message"}`` to a request that
    is JSON or asks for it), in the visitor's language: list it after ``ChosenLanguage``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if TOO_LARGE_HEADER.decode() not in request.headers:
            return self.get_response(request)
        message = gettext("The request's body is over %(size)s: the server did not read it.") % {
            "size": f"{limits.HTTP_BODY_BYTES // 1024 // 1024} MiB"
        }
        if _wants_json(request):
            return JsonResponse({"error": "too_large", "message": message}, status=413)
        return render(request, "413.html", {"message": message}, status=413)


def _wants_json(request: HttpRequest) -> bool:
    asks = "application/json" in request.headers.get("Accept", "")
    return asks or request.content_type == "application/json"


def install() -> None:
    """Have daphne build ``BodyLimitedRequest`` for every HTTP request."""
    http_protocol.WebRequest = BodyLimitedRequest
