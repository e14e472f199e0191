"""A Web Push service on the loopback, and a device as a browser makes one, for the tests
and the benchmarks: what the server sends is received, checked and decrypted as a real
push service and browser would (RFC 8030, 8291, 8292).

``Device`` makes what a browser's ``PushManager.subscribe`` makes: a P-256 key pair and a
16-byte authentication secret, and the subscription JSON (``toJSON()``) that carries the
public half to the server. It decrypts an ``aes128gcm`` body (RFC 8188, 8291) with
``http_ece`` (the library pywebpush encrypts with) and checks a VAPID ``Authorization``
header (RFC 8292: an ES256 JWT and the key it is signed with) with ``cryptography``.

``PushService`` is an HTTP server on a thread (the standard library's): every POST is
kept (``received``: path, headers, body) and answered with ``status`` (201 unless the test
says otherwise, e.g. 410 for a subscription that is gone, 500 for a service in trouble),
or with a redirect elsewhere (``redirect``).

For the tests of where the server may connect: ``Listener``, a port on the loopback that
records every connection made to it (what the server must never reach), and ``FakeDNS``,
names that resolve as the test says (``socket.getaddrinfo`` itself, so the server's code
and requests' alike see them).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import selectors
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

import http_ece  # type: ignore[import-untyped]
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(raw: bytes) -> str:
    """base64url without padding, as the Push API and JWTs write bytes."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Device:
    """A browser's push subscription: its keys, and reading what is pushed to it."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(
            Encoding.X962, PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def subscription(self) -> dict[str, Any]:
        """``PushSubscription.toJSON()``: what the page posts to ``/notifications/push/``."""
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> Any:
        """The JSON an ``aes128gcm`` body carries (raises if it was not encrypted for this
        device's keys)."""
        plain: bytes = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


class VapidError(ValueError):
    """A push without a valid VAPID signature."""


def vapid_claims(authorization: str, *, public_key: str) -> dict[str, Any]:
    """The claims of a VAPID ``Authorization: vapid t=<JWT>, k=<key>`` header, after
    checking that ``k`` is ``public_key`` (base64url, uncompressed point) and that the JWT
    is ES256-signed by it. Raises ``VapidError`` otherwise."""
    scheme, _, rest = authorization.partition(" ")
    if scheme.lower() != "vapid":
        raise VapidError(f"not a VAPID authorization: {authorization[:40]!r}")
    params = dict(part.strip().split("=", 1) for part in rest.split(","))
    if params.get("k") != public_key:
        raise VapidError("signed with another key")
    header, claims, signature = params["t"].split(".")
    if json.loads(unb64url(header)) != {"typ": "JWT", "alg": "ES256"}:
        raise VapidError(f"not an ES256 JWT: {unb64url(header)!r}")
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    try:
        key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except Exception as error:
        raise VapidError("a bad signature") from error
    found: dict[str, Any] = json.loads(unb64url(claims))
    return found


@dataclass
class Push:
    """One POST the service received."""

    path: str
    headers: dict[str, str]
    """By lower-case name."""
    body: bytes


@dataclass
class PushService:
    """A push service on 127.0.0.1 (a free port), on a thread; a context manager."""

    status: int = 201
    statuses: dict[str, int] = field(default_factory=dict)
    """A status for a path of its own (else ``status``)."""
    received: list[Push] = field(default_factory=list)
    redirect: str = ""
    """When set, every POST is answered 303 See Other to this URL (a push service that
    would send the server elsewhere)."""

    def __post_init__(self) -> None:
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                with service.lock:
                    headers = {name.lower(): value for name, value in self.headers.items()}
                    service.received.append(Push(self.path, headers, body))
                status = service.statuses.get(self.path, service.status)
                if service.redirect:
                    status = 303
                self.send_response(status)
                self.send_header("Content-Length", "0")
                if service.redirect:
                    self.send_header("Location", service.redirect)
                elif status == 201:
                    self.send_header("Location", f"{self.path}/message")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def host(self) -> str:
        return str(self.server.server_address[0])

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.server.server_address[1]}"

    def device(self, name: str = "device") -> Device:
        """A device subscribed at this service (its endpoint ``/push/<name>``)."""
        return Device(f"{self.url}/push/{name}")

    def start(self) -> PushService:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)

    def __enter__(self) -> PushService:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


class Listener:
    """A port on the loopback, the same on 127.0.0.1 and (where the machine has it) ::1,
    that records who connects and hangs up at once: a service the server must never
    reach. ``contacted`` first takes every connection still waiting to be accepted, so
    that one made just before it is read is counted too. A context manager."""

    def __init__(self) -> None:
        first = socket.create_server(("127.0.0.1", 0))
        self.port: int = first.getsockname()[1]
        self.sockets = [first]
        with contextlib.suppress(OSError):  # a machine without an IPv6 loopback
            self.sockets.append(socket.create_server(("::1", self.port), family=socket.AF_INET6))
        self.selector = selectors.DefaultSelector()
        for listening in self.sockets:
            listening.setblocking(False)
            self.selector.register(listening, selectors.EVENT_READ)
        self.lock = threading.Lock()
        self.peers: list[str] = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def _accept(self, timeout: float) -> None:
        with self.lock:
            for key, _ in self.selector.select(timeout):
                listening: socket.socket = key.fileobj  # type: ignore[assignment]
                try:
                    connection, peer = listening.accept()
                except BlockingIOError:
                    continue
                connection.close()
                self.peers.append(str(peer[0]))

    def _serve(self) -> None:
        while not self.stopped.is_set():
            self._accept(0.05)

    @property
    def contacted(self) -> list[str]:
        """The addresses of those who connected, in order."""
        self._accept(0)
        with self.lock:
            return list(self.peers)

    def __enter__(self) -> Listener:
        self.thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stopped.set()
        self.thread.join(timeout=5)
        self.selector.close()
        for listening in self.sockets:
            listening.close()


class FakeDNS:
    """Host names that resolve to the addresses the test gives (``names``, which it may
    change between two lookups, as a DNS rebinding does); every other name as the
    machine resolves it. Installed in place of ``socket.getaddrinfo`` by the test (with
    pytest's ``monkeypatch``: ``monkeypatch.setattr(socket, "getaddrinfo", dns)``)."""

    def __init__(self, names: dict[str, list[str]]) -> None:
        self.names = names
        self.asked: list[str] = []
        """The names of ``names`` looked up, in order, once a lookup."""
        self.real = socket.getaddrinfo

    def __call__(
        self,
        host: str | bytes | None,
        port: str | int | None,
        family: int = 0,
        type: int = 0,
        proto: int = 0,
        flags: int = 0,
    ) -> list[tuple[Any, ...]]:
        name = host.decode() if isinstance(host, bytes) else host
        if name not in self.names:
            return self.real(host, port, family, type, proto, flags)
        self.asked.append(name)
        found: list[tuple[Any, ...]] = []
        for address in self.names[name]:
            ipv6 = ":" in address
            kind = socket.AF_INET6 if ipv6 else socket.AF_INET
            if family not in (socket.AF_UNSPEC, kind):
                continue
            number = int(port or 0)
            where = (address, number, 0, 0) if ipv6 else (address, number)
            found.append((kind, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", where))
        if not found:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return found
