"""A requests session that sends only where ``notifications.endpoints`` allows: each
request connects to the address its host was checked at (``endpoints.checked``: one
lookup, so a name cannot resolve to a public address for the check and to an inside one
for the connection), keeping the host name for the ``Host`` header, TLS's SNI and the
certificate's check; a redirect is never followed, no proxy from the environment is used
(a proxy would resolve the name again, itself), and every send has a timeout.

requests-hardened (Saleor) pins connections the same way (``IPFilterAdapter``), but
checks only the first address a name resolves to, by rules of its own, and exempts
loopback addresses, not named hosts: the rule here is ``endpoints.public``, every address,
and ``PUSH_ENDPOINT_ALLOW``'s hosts.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.connection import allowed_gai_family

from notifications import endpoints

TIMEOUT = 10
"""Seconds to connect, and to wait for each read of the answer."""


class PinnedAdapter(HTTPAdapter):
    """Connects to the address ``endpoints.checked`` gives for the request's host (any
    of ``allow``'s hosts unchecked). Raises ``endpoints.Refused`` before connecting to
    an address that is not public, ``OSError`` for a host that does not resolve."""

    def __init__(self, *, allow: Collection[str]) -> None:
        super().__init__(max_retries=0)
        self.allow = frozenset(allow)

    def build_connection_pool_key_attributes(
        self, request: requests.PreparedRequest, verify: Any, cert: Any = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(
            request, verify, cert
        )
        scheme, host, port = host_params["scheme"], host_params["host"], host_params["port"]
        address = endpoints.checked(
            host,
            port or endpoints.PORTS[scheme],
            allow=self.allow,
            family=allowed_gai_family(),  # only a family this machine can reach
        )
        name = f"[{host}]" if ":" in host else host
        request.headers["Host"] = f"{name}:{port}" if port else name
        if scheme == "https":
            pool_kwargs["server_hostname"] = host  # SNI, and the certificate's name
        host_params["host"] = str(address)
        return host_params, pool_kwargs


class PinnedSession(requests.Session):
    """A session whose every request goes through ``PinnedAdapter`` (``allow``: the
    hosts exempt from the address check), never follows a redirect (a 3xx is the
    answer), ignores the environment's proxies and waits ``TIMEOUT`` whatever timeout
    its caller gives."""

    def __init__(self, *, allow: Collection[str]) -> None:
        super().__init__()
        self.trust_env = False
        adapter = PinnedAdapter(allow=allow)
        for scheme in endpoints.PORTS:
            self.mount(f"{scheme}://", adapter)

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        kwargs["allow_redirects"] = False
        kwargs["timeout"] = TIMEOUT
        return super().send(request, **kwargs)
