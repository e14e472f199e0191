"""othello_site.body_limit in a real daphne process: a request body over 2 MiB is answered
413 without being read, declared or chunked, and the process's memory stays within +64 MB.

Daphne reads a body before the application runs, so only daphne itself shows it (Django's
test client bypasses it): one process on the embedded default, its memory read from
/proc. The uploads are the SGF import's, a browser's multipart form with its CSRF token,
which Twisted used to parse whole in memory: 50 MB raised a process by 600 MB.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.limits import HTTP_BODY_BYTES
from tests.support.clients import Browser, Upload, upload
from tests.support.daphne import Daphne, embedded

MEBIBYTE = 1024 * 1024
HUGE = 50 * MEBIBYTE
MEMORY_GROWTH_KB = 64 * 1024
BOUNDARY = "b0undary"
HEAD = (
    f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="sgf"; filename="game.sgf"\r\n'
    "Content-Type: application/x-go-sgf\r\n\r\n(;GM[1]C["
).encode()
TAIL = f"])\r\n--{BOUNDARY}--\r\n".encode()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daphne]:
    with embedded(tmp_path_factory.mktemp("body")) as daphne:
        yield daphne


def status_kb(server: Daphne, field: str) -> int:
    """A field of /proc/<pid>/status (VmRSS: resident now; VmHWM: the peak), in KiB."""
    assert server.process is not None
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith(field))


def reset_peak(server: Daphne) -> None:
    """The process's peak (VmHWM) from now on, not since it started (Linux's clear_refs)."""
    assert server.process is not None
    Path(f"/proc/{server.process.pid}/clear_refs").write_text("5")


def import_sgf(server: Daphne, size: int, *, chunked: bool) -> Upload:
    """An SGF upload of ``size`` bytes to ``POST /games/import/``, as a browser posts it."""
    browser = Browser(server.url)
    browser.get("/games/import/")
    token = browser.cookie("csrftoken")
    headers = {
        "Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
        "Cookie": f"csrftoken={token}",
        "X-CSRFToken": token,
    }
    return upload(
        server.url, "/games/import/", size, head=HEAD, tail=TAIL, headers=headers, chunked=chunked
    )


@pytest.mark.parametrize("chunked", [False, True], ids=["declared", "chunked"])
def test_a_huge_body_is_answered_413_unread_and_memory_stays_bounded(
    server: Daphne, chunked: bool
) -> None:
    reset_peak(server)
    before = status_kb(server, "VmRSS")

    answer = import_sgf(server, HUGE, chunked=chunked)

    assert answer.status == 413
    assert answer.headers["connection"] == "close"
    assert b"2 MiB" in answer.body
    # Refused when the headers said the length, or once 2 MiB had come: the rest was not
    # read (what the client managed to send meanwhile sits in the sockets' buffers).
    assert answer.sent < HTTP_BODY_BYTES + 16 * MEBIBYTE
    growth = status_kb(server, "VmHWM") - before
    assert growth <= MEMORY_GROWTH_KB, f"the process grew by {growth // 1024} MB"
    # And it serves on.
    assert Browser(server.url).get("/games/import/")


@pytest.mark.parametrize("chunked", [False, True], ids=["declared", "chunked"])
def test_a_body_of_2_mib_is_read_and_the_sgf_limit_of_1_mib_answers(
    server: Daphne, chunked: bool
) -> None:
    at_limit = import_sgf(server, HTTP_BODY_BYTES, chunked=chunked)
    assert at_limit.status == 400
    assert b"at most 1 MiB" in at_limit.body

    over = import_sgf(server, HTTP_BODY_BYTES + 1, chunked=chunked)
    assert over.status == 413


def test_a_json_request_is_answered_in_json(server: Daphne) -> None:
    answer = upload(
        server.url,
        "/games/new/",
        3 * MEBIBYTE,
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )
    assert answer.status == 413
    assert answer.headers["content-type"] == "application/json"
    assert json.loads(answer.body)["error"] == "too_large"


def test_a_page_speaks_the_visitors_language(server: Daphne) -> None:
    answer = upload(server.url, "/games/new/", 3 * MEBIBYTE, headers={"Accept-Language": "fr"})
    assert answer.status == 413
    assert answer.headers["content-language"] == "fr"
    assert answer.headers["content-type"].startswith("text/html")


def test_a_clients_own_mark_refuses_nothing(server: Daphne) -> None:
    # The header that tells Django a body was refused is the server's to set.
    answer = upload(server.url, "/games/new/", 10, headers={"Body-Too-Large": "1"})
    assert answer.status == 403  # (no CSRF token)
