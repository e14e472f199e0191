"""games.pages: the slots of the games' pages that the apps above fill."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.test import Client
from django.utils.safestring import mark_safe

from games import pages

Register = Callable[[str, pages.Part], None]


@pytest.fixture
def register() -> Iterator[Register]:
    """``pages.register_part`` for this test only (the slots are the process's)."""
    added: list[tuple[str, pages.Part]] = []

    def add(slot: str, part: pages.Part) -> None:
        pages.register_part(slot, part)
        added.append((slot, part))

    yield add
    for slot, part in added:
        pages._parts[slot].remove(part)


def test_an_unknown_slot_is_refused() -> None:
    with pytest.raises(ValueError, match="no slot 'footer'"):
        pages.register_part("footer", lambda context: "")


def test_parts_show_in_order_and_plain_text_is_escaped(register: Register) -> None:
    register("game-over", lambda context: "<b>plain</b>")
    register("game-over", lambda context: mark_safe("<i>safe</i>"))
    html = pages.render("game-over", {"state": {"id": "x", "you": None}})
    assert html.endswith("&lt;b&gt;plain&lt;/b&gt;<i>safe</i>")


@pytest.mark.django_db
def test_the_home_page_shows_the_pools_that_pairing_registers() -> None:
    page = Client().get("/").content.decode()
    assert 'id="pools"' in page
    assert "js/pairing.js" in page
