"""Pairing's parts of the pages: the home page's pools and counts, the game page's note
and its "Seek again"."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.players import Player
from pairing import selectors as pairing_selectors
from pairing import services

pytestmark = pytest.mark.django_db

BLITZ = {"kind": "othello", "size": 8, "clock": "fischer", "main_time": 180, "increment": 2}


def visitor() -> tuple[Client, Player]:
    browser = Client()
    assert browser.get("/").status_code == 200
    return browser, Player(session_key=browser.cookies["sessionid"].value)


def seek(player: Player, name: str) -> None:
    assert player.session_key is not None
    services.socket_opened(session_key=player.session_key, channel_name=name, process="here")
    now = datetime.datetime.now(datetime.UTC)
    services.seek(player=player, user=None, name=name, message=BLITZ, now=now)


def test_the_home_page_offers_the_pools_with_their_counts() -> None:
    browser, player = visitor()
    seek(player, "Ann")
    page = browser.get("/").content.decode()
    assert page.count('class="pool"') == 10
    assert 'data-casual="othello8-fischer-180+2-casual"' in page
    assert "1 waiting" in page and "Log in</a> to play rated games" in page


def test_the_correspondence_pools_name_their_days_in_the_visitors_language() -> None:
    japanese = Client(HTTP_ACCEPT_LANGUAGE="ja").get("/").content.decode()
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get("/").content.decode()

    assert japanese.count('<span class="pool-clock">3日</span>') == 2
    assert "3 days" not in japanese
    assert english.count('<span class="pool-clock">3 days</span>') == 2


def test_a_paired_game_says_how_and_offers_its_players_to_seek_again() -> None:
    (ann_browser, ann), (_, bob) = visitor(), visitor()
    seek(ann, "Ann")
    seek(bob, "Bob")
    [game] = services.wave() or []
    page = ann_browser.get(f"/games/{game.public_id}/").content.decode()
    assert (
        "Paired by the casual Othello 8\N{MULTIPLICATION SIGN}8, "
        "3 min, +2 s per move (Fischer) pool" in page
    )
    assert f"{game.black_name} (Black) 1500, {game.white_name} (White) 1500." in page
    again = "/?seek=again&amp;kind=othello&amp;size=8&amp;clock=fischer&amp;main_time=180"
    assert again in page
    # A spectator reads how they were paired, and is offered nothing.
    spectator = Client().get(f"/games/{game.public_id}/").content.decode()
    assert "Paired by the casual" in spectator and "seek=again" not in spectator
    # The note and the offer read the pairing once between them, and a process reads a
    # game's pairing once whatever it builds G for afterwards (a move's event).
    pairing_selectors._paired.clear()
    for reads in (1, 0):
        with CaptureQueriesContext(connection) as page:
            ann_browser.get(f"/games/{game.public_id}/")
        assert sum('"pairing_pairing"' in query["sql"] for query in page.captured_queries) == (
            reads
        )


def test_a_game_not_made_by_the_pools_says_nothing_of_them() -> None:
    browser, _ = visitor()
    response = browser.post("/games/new/", {"kind": "othello", "size": 8, "name": "Ann"})
    page = browser.get(response.url).content.decode()
    assert "Paired by the" not in page and "seek-again" not in page


def test_the_admin_lists_the_seeks_and_the_pairings(admin_client: Client) -> None:
    _, player = visitor()
    seek(player, "Ann")
    page = admin_client.get("/admin/pairing/seek/")
    assert page.status_code == 200 and "othello8-fischer-180+2-casual" in page.content.decode()
    assert admin_client.get("/admin/pairing/pairing/").status_code == 200
