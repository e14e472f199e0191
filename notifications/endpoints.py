"""Where the server may send a push: a browser's subscription names its push service by
URL, so whoever subscribes chooses where the server connects, and the server must never
be made to reach what only it can reach (its own host, its network, a cloud's metadata
service).

An endpoint is accepted when it is ``https`` and its host resolves only to public unicast
addresses (``public``); a host named in ``PUSH_ENDPOINT_ALLOW`` is exempt, and may be
plain ``http`` (the tests' push service on the loopback, a private deployment's own).
Hosts are resolved with the system's resolver (``socket.getaddrinfo``), so the odd
spellings the C library reads (``0x7f000001``, ``2130706433``, ``127.1``) are checked as
the addresses they are, and every address a name has is checked, not only the first.

Plain Python: ``notifications.pinned`` uses ``checked`` for the address each send
connects to, the services ``check`` a subscription's endpoint with it.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

PORTS = {"https": 443, "http": 80}

_NOT_PUBLIC = tuple(
    ipaddress.ip_network(network)
    for network in (
        "100.64.0.0/10",  # shared address space (carrier-grade NAT), a provider's inside
        "192.0.0.0/24",  # IETF protocol assignments
        "192.88.99.0/24",  # 6to4 relays' anycast
        "198.18.0.0/15",  # benchmarking
        "2001::/23",  # IETF protocol assignments, Teredo among them
        "2002::/16",  # 6to4: an IPv4 address inside, reached through a relay
        "3fff::/20",  # documentation
        "5f00::/16",  # segment routing
        "64:ff9b:1::/48",  # NAT64 for local use
        "fec0::/10",  # site-local
    )
)
"""Ranges that Python's ``is_global`` takes for public in some of its versions."""

_NAT64 = ipaddress.ip_network("64:ff9b::/96")
"""The well-known NAT64 prefix: an IPv4 address in its last 32 bits (what an IPv6-only
host's DNS64 makes of a name with IPv4 addresses only)."""


class Refused(Exception):
    """An endpoint the server will not send to. ``reason``: ``"scheme"`` (not https),
    or ``"address"`` (no host, or a host with an address that is not public).

    Not a ``ValueError``: requests takes those, raised while it picks a connection, for a
    malformed URL (``InvalidURL``), and the outbox must tell a refusal from a failure."""

    def __init__(self, reason: Literal["scheme", "address"], detail: str) -> None:
        super().__init__(detail)
        self.reason = reason


def public(address: Address) -> bool:
    """Whether ``address`` is a public unicast address: not loopback, private,
    link-local, shared (100.64/10), multicast, reserved, unspecified, nor one of these
    inside an IPv6 address (IPv4-mapped ``::ffff:a.b.c.d``, NAT64 ``64:ff9b::a.b.c.d``;
    6to4 and the deprecated IPv4-compatible ``::a.b.c.d`` are refused whole)."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return public(address.ipv4_mapped)
        if address in _NAT64:
            return public(ipaddress.IPv4Address(int(address) & 0xFFFF_FFFF))
    if any(address in network for network in _NOT_PUBLIC):
        return False
    return address.is_global and not (
        address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
    )


@dataclass(frozen=True)
class Endpoint:
    """What the server connects to for an endpoint URL."""

    scheme: str
    host: str
    """Lower-case; an IPv6 address without its brackets."""
    port: int


def parse(endpoint: str, *, allow: Collection[str]) -> Endpoint:
    """The scheme, host and port of ``endpoint``, without resolving its host. Raises
    ``Refused`` unless it is ``https`` (or plain ``http`` on a host of ``allow``) with a
    host and a valid port, the host not an address written out that is not public."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise Refused("address", "not a URL with a host and a port") from None
    host = parts.hostname or ""
    if parts.scheme not in PORTS or (parts.scheme == "http" and host not in allow):
        raise Refused("scheme", f"{parts.scheme or 'no'} scheme")
    if not host:
        raise Refused("address", "no host")
    try:
        written = ipaddress.ip_address(host)
    except ValueError:  # a name, or an address spelled as only the resolver reads it
        written = None
    if written is not None and host not in allow and not public(written):
        raise Refused("address", f"{host} is not a public address")
    return Endpoint(parts.scheme, host, port or PORTS[parts.scheme])


def addresses(host: str, port: int, *, family: int = socket.AF_UNSPEC) -> list[Address]:
    """Every address ``host`` resolves to (``socket.getaddrinfo``), in the resolver's
    order. Raises ``OSError`` (``socket.gaierror``) when it resolves to none."""
    found = socket.getaddrinfo(host, port, family, socket.SOCK_STREAM)
    return [
        ipaddress.ip_address(str(info[4][0]).partition("%")[0])
        for info in found
        if info[0] in (socket.AF_INET, socket.AF_INET6)
    ]


def checked(
    host: str, port: int, *, allow: Collection[str], family: int = socket.AF_UNSPEC
) -> Address:
    """The address to connect to for ``host``: the first it resolves to, once every one
    is public (any, for a host of ``allow``). Raises ``Refused`` for an address that is
    not public, ``OSError`` when the host resolves to none (a name that may resolve
    later)."""
    found = addresses(host, port, family=family)
    if not found:
        raise socket.gaierror(socket.EAI_NONAME, f"{host} has no address")
    if host not in allow:
        for address in found:
            if not public(address):
                raise Refused("address", f"{host} resolves to {address}, not a public address")
    return found[0]


def check(endpoint: str, *, allow: Collection[str]) -> Endpoint:
    """``endpoint`` as ``parse`` reads it, once its host resolves to public addresses
    only (a host of ``allow``: not resolved). Raises ``Refused`` otherwise, a host that
    does not resolve included."""
    found = parse(endpoint, allow=allow)
    if found.host not in allow:
        try:
            checked(found.host, found.port, allow=allow)
        except Refused:
            raise
        except (OSError, ValueError):  # no address; a name the resolver cannot even read
            raise Refused("address", f"{found.host} does not resolve") from None
    return found
