"""Flow control for websockets, applied where daphne queues their messages.

Daphne reads every frame as soon as it arrives and puts it, as an ASGI message, in the
application's ``asyncio.Queue``, which has no bound (``daphne.server.create_application``);
nothing slows a client down. A spectator sending ``sync`` as fast as it could grew a
process by 300 MB in 15 s (2.5 million messages queued, 68 answered), and the time spent
reading a flood is taken from every other game. The consumer cannot help: by the time
it sees a message, the message has been read and queued. So this protocol, a subclass of
daphne's, decides before a frame becomes a message:

- The contract's limit (``games.limits``): a socket may send 20 messages within any
  second; a message beyond is dropped and answered ``rate_limited`` (those answers are
  limited too, ``ERRORS_PER_SECOND``, so that a flood cannot make us write without bound).
  A socket that goes on, ``FLOOD`` messages dropped in a row, is not read for ``PAUSE``
  seconds: what the client sends meanwhile waits in the kernel's buffers, TCP's flow
  control then stops the client itself, and the flood costs this process neither memory
  nor time. When the pause ends the rate has fallen (nothing was read), so the socket may
  send again; paused ``STRIKES`` times within ``STRIKE_WINDOW`` seconds, it keeps
  flooding and is closed with 4429.
- Whatever the limits (``RATE_LIMITS=off`` too), the socket is not read while its
  consumer has ``QUEUE_HIGH`` messages waiting, until they are down to ``QUEUE_LOW``:
  memory stays bounded however fast a client sends; it only waits.
- Nor while the client does not read what we send: the transport tells its registered
  producer (Twisted's back-pressure) when its write buffer is full and when it drained.

- The ``X-Forwarded-Proto`` and ``X-Forwarded-Port`` of a handshake reach the application
  only when daphne trusts a proxy's headers (``--proxy-headers``): a client's own would
  name another origin (``othello_site.origins``).

- A handshake the application refuses with ``limits.REFUSE_UNAUTHORIZED`` (a websocket.close
  before accept, with that code: a bad token) is answered HTTP 401, as the contract asks;
  daphne answers every refused handshake 403 otherwise.

``install()`` makes daphne build this protocol for every websocket (its factory's
``protocol``, Twisted's extension point), however daphne was started: the ``daphne``
command, ``manage.py runserver`` or the tests' processes.
"""

from __future__ import annotations

import json
import time
from typing import Any

from autobahn.websocket.types import ConnectionDeny
from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
from twisted.internet.interfaces import IPushProducer
from zope.interface import implementer

from games import limits

PAUSE = 1.0
STRIKES = 2
STRIKE_WINDOW = 10.0
ERRORS_PER_SECOND = limits.SOCKET_MESSAGES
QUEUE_HIGH = 32
QUEUE_LOW = 8
QUEUE_POLL = 0.02
FLOOD = 100
PROXY_HEADERS = ("x-forwarded-proto", "x-forwarded-port")

RATE_LIMITED = json.dumps(
    {
        "type": "error",
        "code": "rate_limited",
        "message": (
            f"more than {limits.SOCKET_MESSAGES} messages within {limits.SOCKET_WINDOW:g} s: "
            "this one was dropped; slow down"
        ),
    }
).encode()


@implementer(IPushProducer)
class _WriteBackPressure:
    """Registered with the transport: told when the client stops and resumes reading."""

    def __init__(self, protocol: FlowControlledProtocol) -> None:
        self.protocol = protocol

    def pauseProducing(self) -> None:
        self.protocol.hold("unread output")

    def resumeProducing(self) -> None:
        self.protocol.release("unread output")

    def stopProducing(self) -> None:
        pass


class FlowControlledProtocol(WebSocketProtocol):  # type: ignore[misc]
    """Daphne's websocket protocol with the contract's message limit and back-pressure.

    Holding a socket stops both the transport (no more reads) and autobahn's parsing of
    what was already read: the frames stay in its buffer, at most one read's worth, and
    are parsed once the socket is released.
    """

    def onConnect(self, request: Any) -> Any:
        if not self.factory.server_class.proxy_forwarded_address_header:
            request.headers = {
                name: value for name, value in request.headers.items() if name not in PROXY_HEADERS
            }
        return super().onConnect(request)

    def handle_reply(self, message: dict[str, Any]) -> None:
        refused = message.get("type") == "websocket.close" and self.state == self.STATE_CONNECTING
        if refused and message.get("code") == limits.REFUSE_UNAUTHORIZED:
            self._reject_unauthorized()
            return
        super().handle_reply(message)

    def _reject_unauthorized(self) -> None:
        """daphne's ``serverReject`` (its 403 written in) with 401, logged as daphne logs a
        refused handshake."""
        self.handshake_deferred.errback(ConnectionDeny(code=401, reason="Unauthorized"))
        del self.handshake_deferred
        self.server.protocol_disconnected(self)
        client = ":".join(map(str, self.client_addr)) if self.client_addr else None
        self.server.log_action(
            "websocket", "rejected", {"path": self.request.path, "client": client}
        )

    def onOpen(self) -> None:
        super().onOpen()
        self._held: set[str] = set()
        self._dropped = 0
        self._messages = limits.SlidingWindow(
            limit=limits.SOCKET_MESSAGES, window=limits.SOCKET_WINDOW
        )
        self._errors = limits.SlidingWindow(limit=ERRORS_PER_SECOND, window=1.0)
        self._strikes = limits.SlidingWindow(limit=STRIKES - 1, window=STRIKE_WINDOW)
        self.registerProducer(_WriteBackPressure(self), True)

    def consumeData(self) -> None:
        if not hasattr(self, "_held"):  # the handshake
            super().consumeData()
            return
        while not self._held and self.state == self.STATE_OPEN and self.processData():
            pass

    def onMessage(self, payload: bytes, isBinary: bool) -> None:
        if self.muted or self.state != self.STATE_OPEN:
            return
        now = time.monotonic()
        if limits.enabled() and not self._messages.hit(now):
            self._refuse(now)
            return
        self._dropped = 0
        super().onMessage(payload, isBinary)
        if self.application_queue.qsize() >= QUEUE_HIGH and "queue" not in self._held:
            self.hold("queue")
            _reactor().callLater(QUEUE_POLL, self._drain)

    def onClose(self, wasClean: bool, code: int | None, reason: str | None) -> None:
        if hasattr(self, "_held"):
            self.unregisterProducer()
        super().onClose(wasClean, code, reason)

    def serverSend(self, content: str | bytes, binary: bool = False) -> None:
        # The consumer answering a message after the socket was closed here (4429), or
        # while it closes: there is nothing to send it on (daphne would log an error).
        if self.state not in (self.STATE_CLOSING, self.STATE_CLOSED):
            super().serverSend(content, binary)

    def hold(self, reason: str) -> None:
        """Stop reading the socket (until every reason is released)."""
        if not self._held:
            self.transport.pauseProducing()
        self._held.add(reason)

    def release(self, reason: str) -> None:
        """Read the socket again once no other reason holds it."""
        if reason not in self._held:
            return
        self._held.discard(reason)
        if not self._held and self.state == self.STATE_OPEN:
            self.transport.resumeProducing()
            _reactor().callLater(0, self.consumeData)  # what was left in the buffer

    def _refuse(self, now: float) -> None:
        self._dropped += 1
        if self._errors.hit(now):
            self.sendMessage(RATE_LIMITED, False)
        if self._dropped < FLOOD:
            return
        if not self._strikes.hit(now):
            # No more reading: autobahn drops the connection when the client's answer to
            # the close frame does not come (closeHandshakeTimeout).
            self.hold("closing")
            self.sendClose(code=limits.CLOSE_FLOODING, reason="too many messages")
            return
        self._dropped = 0
        self.hold("rate")
        _reactor().callLater(PAUSE, self.release, "rate")

    def _drain(self) -> None:
        if self.state != self.STATE_OPEN:
            return
        if self.application_queue.qsize() <= QUEUE_LOW:
            self.release("queue")
        else:
            _reactor().callLater(QUEUE_POLL, self._drain)


def _reactor() -> Any:
    # Imported when first needed: importing it installs a reactor, which is daphne's to
    # choose (its asyncio reactor), not this module's (imported by othello_site.asgi in
    # processes daphne does not serve too).
    from twisted.internet import reactor

    return reactor


def install() -> None:
    """Have daphne serve every websocket with ``FlowControlledProtocol``."""
    WebSocketFactory.protocol = FlowControlledProtocol
