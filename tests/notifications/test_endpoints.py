"""notifications.endpoints: which push endpoints the server may send to. Public unicast
addresses only, whatever their spelling; every address of a name; https, or plain http
on a host ``PUSH_ENDPOINT_ALLOW`` names."""

from __future__ import annotations

import ipaddress

import pytest

from notifications import endpoints
from tests.notifications.conftest import PUBLIC
from tests.support.push_service import FakeDNS


@pytest.mark.parametrize(
    ("address", "is_public"),
    [
        ("93.184.215.14", True),
        ("8.8.8.8", True),
        ("2606:4700:4700::1111", True),
        ("2001:4860:4860::8888", True),
        ("::ffff:8.8.8.8", True),  # IPv4-mapped: the IPv4 address decides
        ("64:ff9b::808:808", True),  # NAT64 (an IPv6-only host's DNS64): likewise
        ("127.0.0.1", False),  # loopback
        ("127.255.255.254", False),
        ("::1", False),
        ("0.0.0.0", False),  # unspecified
        ("::", False),
        ("10.0.0.7", False),  # private
        ("172.16.0.1", False),
        ("192.168.1.1", False),
        ("fc00::1", False),  # unique local
        ("fd12:3456::1", False),
        ("169.254.169.254", False),  # link-local: a cloud's metadata service
        ("fe80::1", False),
        ("fec0::1", False),  # site-local
        ("100.64.0.7", False),  # shared (carrier-grade NAT)
        ("100.127.255.254", False),
        ("224.0.0.1", False),  # multicast
        ("239.255.255.250", False),
        ("ff02::1", False),
        ("ff0e::1", False),
        ("240.0.0.1", False),  # reserved
        ("255.255.255.255", False),
        ("192.0.0.8", False),  # IETF protocol assignments
        ("192.0.2.1", False),  # documentation
        ("198.51.100.1", False),
        ("203.0.113.1", False),
        ("2001:db8::1", False),
        ("3fff::1", False),
        ("198.18.0.1", False),  # benchmarking
        ("192.88.99.1", False),  # 6to4 relays
        ("::ffff:127.0.0.1", False),  # IPv4-mapped forms of the above
        ("::ffff:10.0.0.7", False),
        ("::ffff:169.254.169.254", False),
        ("::ffff:100.64.0.7", False),
        ("::127.0.0.1", False),  # IPv4-compatible (deprecated), whatever inside
        ("::8.8.8.8", False),
        ("64:ff9b::7f00:1", False),  # NAT64 of the loopback
        ("64:ff9b::a9fe:a9fe", False),  # NAT64 of 169.254.169.254
        ("64:ff9b:1::808:808", False),  # NAT64 for local use
        ("2002:7f00:1::1", False),  # 6to4, whatever inside
        ("2002:808:808::1", False),
        ("2001:0:4136:e378::1", False),  # Teredo
        ("100::1", False),  # discard-only
        ("5f00::1", False),  # segment routing
    ],
)
def test_only_public_unicast_addresses_are_public(address: str, is_public: bool) -> None:
    assert endpoints.public(ipaddress.ip_address(address)) is is_public


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1", "localhost", "0x7f000001", "2130706433", "127.1", "0177.0.0.1", "[::1]"],
)
def test_every_spelling_of_the_loopback_is_refused(host: str) -> None:
    with pytest.raises(endpoints.Refused) as refused:
        endpoints.check(f"https://{host}/push/1", allow=[])
    assert refused.value.reason == "address"


def test_a_name_is_refused_when_any_of_its_addresses_is_not_public(dns: FakeDNS) -> None:
    dns.names["inside.example"] = [PUBLIC, "10.0.0.7"]
    dns.names["outside.example"] = [PUBLIC, "2606:4700:4700::1111"]

    with pytest.raises(endpoints.Refused):
        endpoints.check("https://inside.example/push/1", allow=[])
    found = endpoints.check("https://outside.example:8443/push/1", allow=[])

    assert found == endpoints.Endpoint("https", "outside.example", 8443)
    assert endpoints.checked("outside.example", 443, allow=[]) == ipaddress.ip_address(PUBLIC)


def test_a_name_that_does_not_resolve_is_refused_at_the_check_and_fails_at_a_send(
    dns: FakeDNS,
) -> None:
    dns.names["gone.example"] = []

    with pytest.raises(endpoints.Refused):
        endpoints.check("https://gone.example/push/1", allow=[])
    with pytest.raises(OSError):  # a send tries again later: it may resolve then
        endpoints.checked("gone.example", 443, allow=[])


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://push.example/push/1",
        "ftp://push.example/push/1",
        "push.example/push/1",
        "//push.example/push/1",
        "javascript:alert(1)",
    ],
)
def test_an_endpoint_is_https(endpoint: str, dns: FakeDNS) -> None:
    with pytest.raises(endpoints.Refused) as refused:
        endpoints.check(endpoint, allow=[])
    assert refused.value.reason == "scheme"


@pytest.mark.parametrize(
    "endpoint", ["https:///push/1", "https://push.example:99999/push/1", "https://[::1/push"]
)
def test_an_endpoint_has_a_host_and_a_port(endpoint: str, dns: FakeDNS) -> None:
    with pytest.raises(endpoints.Refused) as refused:
        endpoints.check(endpoint, allow=[])
    assert refused.value.reason == "address"


def test_an_exempt_host_is_not_resolved_and_may_be_plain_http(dns: FakeDNS) -> None:
    dns.names["relay.internal"] = ["10.0.0.7"]
    allow = ["relay.internal", "::1"]

    assert endpoints.check("http://relay.internal:8080/push/1", allow=allow).port == 8080
    assert endpoints.check("http://[::1]:8080/push/1", allow=allow).host == "::1"
    assert dns.asked == []  # named by the operator: taken as it is
    assert endpoints.checked("relay.internal", 8080, allow=allow) == ipaddress.ip_address(
        "10.0.0.7"
    )
    with pytest.raises(endpoints.Refused):  # exempt names the host, not its addresses
        endpoints.check("http://10.0.0.7:8080/push/1", allow=allow)
