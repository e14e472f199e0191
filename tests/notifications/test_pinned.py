"""notifications.pinned: a request connects to the address its host was checked at, one
lookup, and keeps the host's name for TLS (SNI, the certificate) and the ``Host``
header; an address that is not public is never connected to; redirects are answers,
never followed; 10 s whatever the caller asks. Against real servers on the loopback: an
HTTPS one with a certificate of a test authority, the tests' push service, a listener."""

from __future__ import annotations

import datetime
import ssl
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from notifications import endpoints
from notifications.pinned import TIMEOUT, PinnedSession
from tests.notifications.conftest import PUBLIC
from tests.support.push_service import FakeDNS, Listener, PushService


def certificate(
    name: str, *, issuer: x509.Name | None = None, key: Any = None
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """A certificate for ``name`` and its key: an authority's own (no ``issuer``), or
    one the authority ``issuer`` (with its ``key``) signs."""
    own = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    built = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer or subject)
        .public_key(own.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
    )
    if issuer is None:
        built = built.add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
    else:
        built = built.add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), False)
    return built.sign(key or own, hashes.SHA256()), own


class TLSServer:
    """An HTTPS server on 127.0.0.1 with a certificate for ``name`` signed by a test
    authority (its certificate in ``authority``): records the name each client asked
    for (SNI) and each request's ``Host``; answers 201."""

    def __init__(self, name: str, folder: Path) -> None:
        authority, authority_key = certificate("Test authority")
        leaf, leaf_key = certificate(name, issuer=authority.subject, key=authority_key)
        self.authority = folder / "authority.pem"
        self.authority.write_bytes(authority.public_bytes(serialization.Encoding.PEM))
        chain = folder / "server.pem"
        chain.write_bytes(
            leaf.public_bytes(serialization.Encoding.PEM)
            + leaf_key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
        self.sni: list[str | None] = []
        self.hosts: list[str] = []
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(chain)
        context.sni_callback = lambda _socket, name, _context: self.sni.append(name)
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                server.hosts.append(self.headers["Host"])
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.socket = context.wrap_socket(self.http.socket, server_side=True)
        self.port = self.http.server_address[1]
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.http.shutdown()
        self.http.server_close()
        self.thread.join(timeout=5)


@pytest.fixture
def tls(tmp_path: Path) -> Iterator[TLSServer]:
    server = TLSServer("push.test", tmp_path)
    yield server
    server.stop()


def test_a_request_goes_to_the_checked_address_under_the_hosts_name(
    tls: TLSServer, dns: FakeDNS
) -> None:
    dns.names["push.test"] = ["127.0.0.1"]
    with PinnedSession(allow=["push.test"]) as session:
        answer = session.post(f"https://push.test:{tls.port}/push/1", verify=str(tls.authority))

    assert answer.status_code == 201
    assert tls.sni == ["push.test"]  # TLS asked for the name, not the address
    assert tls.hosts == [f"push.test:{tls.port}"]
    assert dns.asked == ["push.test"]  # one lookup: the connection went where it said


def test_a_certificate_for_another_name_is_refused(tls: TLSServer, dns: FakeDNS) -> None:
    dns.names["other.test"] = ["127.0.0.1"]
    with (
        PinnedSession(allow=["other.test"]) as session,
        pytest.raises(requests.exceptions.SSLError),
    ):
        session.post(f"https://other.test:{tls.port}/push/1", verify=str(tls.authority))
    assert tls.hosts == []


@pytest.mark.parametrize("addresses", [["127.0.0.1"], [PUBLIC, "127.0.0.1"], ["::1"]])
def test_an_address_that_is_not_public_is_never_connected_to(
    addresses: list[str], dns: FakeDNS
) -> None:
    dns.names["push.test"] = addresses
    with Listener() as listener, PinnedSession(allow=[]) as session:
        with pytest.raises(endpoints.Refused):
            session.post(f"https://push.test:{listener.port}/push/1")
        with pytest.raises(endpoints.Refused):
            session.post(f"http://127.1:{listener.port}/push/1")
        assert listener.contacted == []


def test_a_redirect_is_the_answer_never_followed(timeouts: list[Any]) -> None:
    with (
        Listener() as listener,
        PushService() as service,
        PinnedSession(allow=[service.host]) as session,
    ):
        service.redirect = f"http://127.0.0.1:{listener.port}/latest/meta-data/"
        answer = session.post(f"{service.url}/push/1", data=b"x", timeout=10_000)

        assert answer.status_code == 303
        assert answer.headers["Location"] == service.redirect
        assert listener.contacted == []
    [timeout] = timeouts  # one request, 10 s whatever the caller asked
    assert (timeout.connect_timeout, timeout.read_timeout) == (TIMEOUT, TIMEOUT) == (10, 10)
