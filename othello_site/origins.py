"""A websocket's ``Origin`` must be the site's own: scheme, host and port.

Channels' ``AllowedHostsOriginValidator`` compares the host alone, so a page served by
another port or scheme of an allowed host (another program on the same machine, a plain
``http://`` page beside the ``https://`` site) could open a player's socket with the
player's cookies. ``SameOriginValidator`` accepts a handshake only when its ``Origin``
is exactly the origin the request was made to:

- the scheme: ``X-Forwarded-Proto`` when a proxy reports it (``https`` behind TLS), else
  the connection's own (plain ``http`` from daphne);
- the host: one of ``ALLOWED_HOSTS`` (as Django checks ``Host``: a name that merely
  resolves to the server, DNS rebinding, is refused);
- the port: the request's own, the one its ``Host`` names, else the one the proxy
  reports in ``X-Forwarded-Port`` (a proxy passing the host without its port), else
  the scheme's default. An allowed host other than ``Host``'s is accepted with the port
  the proxy reports only.

Anything else, no ``Origin`` or one that is not an origin (``null``, a path, a user), is
refused before the consumer runs: daphne answers the handshake 403.

Daphne passes the ``X-Forwarded-*`` headers on only when it trusts them
(``--proxy-headers``: ``othello_site.websocket_flow`` removes them otherwise).
"""

from __future__ import annotations

import urllib.parse
from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}
SECURE_SCHEMES = {"https", "wss"}


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin1")).strip()
    return None


def _allowed_hosts() -> list[str]:
    # As Django's HttpRequest.get_host: in DEBUG, no ALLOWED_HOSTS means the loopback.
    if settings.DEBUG and not settings.ALLOWED_HOSTS:
        return [".localhost", "127.0.0.1", "[::1]"]
    return list(settings.ALLOWED_HOSTS)


def _port(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None


def same_origin(scope: dict[str, Any]) -> bool:
    """Whether the websocket handshake ``scope`` comes from the site's own origin."""
    origin = _header(scope, b"origin")
    host = _header(scope, b"host")
    if not origin or not host:
        return False
    forwarded_proto = _header(scope, b"x-forwarded-proto")
    connection = forwarded_proto.split(",")[0].strip() if forwarded_proto else scope.get("scheme")
    scheme = "https" if str(connection).lower() in SECURE_SCHEMES else "http"

    parts = urllib.parse.urlsplit(origin)
    if parts.scheme != scheme or parts.path or parts.query or parts.fragment:
        return False
    domain, port_text = split_domain_port(parts.netloc)
    port = _port(port_text) if port_text else DEFAULT_PORTS[scheme]
    if not domain or port is None or not validate_host(domain, _allowed_hosts()):
        return False

    own_domain, own_port = split_domain_port(host)
    forwarded_port = _port(_header(scope, b"x-forwarded-port"))
    if (domain, port) == (own_domain, _port(own_port) or forwarded_port or DEFAULT_PORTS[scheme]):
        return True
    return port == forwarded_port


class SameOriginValidator:
    """ASGI middleware: a websocket whose ``Origin`` is not ``same_origin`` is refused
    before ``application`` sees it (HTTP 403); other scopes pass."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not same_origin(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
