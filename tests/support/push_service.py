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
says otherwise, e.g. 410 for a subscription that is gone, 500 for a service in trouble).
"""

from __future__ import annotations

import base64
import json
import os
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
                self.send_response(status)
                self.send_header("Content-Length", "0")
                if status == 201:
                    self.send_header("Location", f"{self.path}/message")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

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
