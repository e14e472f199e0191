"""The notifications' tests: no push host exempt from the address check unless a test
says so; ``dns``, names that resolve as the test says (``push.example`` to a public
address, which no test connects to); ``timeouts``, those of the requests made."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from urllib3.connectionpool import HTTPConnectionPool

from tests.support.push_service import FakeDNS

PUBLIC = "93.184.215.14"
"""An address on the internet that a fake name resolves to: never connected to here."""


@pytest.fixture(autouse=True)
def no_host_exempt(settings: Any) -> None:
    settings.PUSH_ENDPOINT_ALLOW = []


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> FakeDNS:
    fake = FakeDNS({"push.example": [PUBLIC]})
    monkeypatch.setattr(socket, "getaddrinfo", fake)
    return fake


@pytest.fixture
def timeouts(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The timeout (``urllib3.Timeout``) of each request urllib3 makes, in order."""
    seen: list[Any] = []
    urlopen = HTTPConnectionPool.urlopen

    def spied(pool: HTTPConnectionPool, *args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs["timeout"])
        return urlopen(pool, *args, **kwargs)

    monkeypatch.setattr(HTTPConnectionPool, "urlopen", spied)
    return seen
