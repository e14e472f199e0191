"""Every page of the site, in each language, leaves no English where the catalogue has a
translation: no text of the page (between tags, or an attribute a person reads or hears)
is a catalogue's msgid whose translation differs from it. Pages of a guest, of an
account, a game waiting, in play and over, its replay, a profile and the error pages."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.test import Client

from manual.topics import TOPICS

pytestmark = pytest.mark.django_db

LOCALE = Path(__file__).resolve().parents[2] / "locale"
LANGUAGES = {"ja": "ja", "ko": "ko", "zh-hans": "zh_Hans", "fr": "fr"}
#: Elements whose text is code, not words (a result's notation, coordinates, SGF), as the
#: scan of the templates counts them (tests/site/test_translations.py).
UNREAD = {"script", "style", "code", "kbd", "pre", "samp"}
READ_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt", "label", "data-label"}


class Texts(HTMLParser):
    """The texts of a page a person reads: between tags (not in scripts, styles, code, or
    an element marked ``translate="no"``) and in the attributes read aloud or shown."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: set[str] = set()
        self.hidden = 0
        self.hiding: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in UNREAD or ("translate", "no") in attrs:
            self.hidden += 1
            self.hiding.append(tag)
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value:
                self.texts.add(" ".join(value.split()))

    def handle_endtag(self, tag: str) -> None:
        if self.hiding and self.hiding[-1] == tag:
            self.hiding.pop()
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not self.hidden:
            self.texts.add(text)


def english_left(folder: str) -> set[str]:
    """The msgids of ``folder``'s catalogue that read differently once translated, as a
    page shows them (no placeholders, whitespace folded)."""
    catalogue = polib.pofile(str(LOCALE / folder / "LC_MESSAGES" / "django.po"))
    return {
        " ".join(entry.msgid.split())
        for entry in catalogue
        if entry.msgstr and entry.msgstr != entry.msgid and "%" not in entry.msgid
    }


def pages() -> tuple[Client, list[str]]:
    """An account's browser and the pages to read: the site's, and games'."""
    from games.services import play
    from tests.players.test_ratings import account, opening, rated_game

    ann, bob = account("ann"), account("bob")
    browser = Client()
    assert browser.login(username="ann", password="secret-pass-1")  # account()'s password
    waiting = browser.post("/games/new/", {"kind": "othello", "size": "8", "color": "black"}).url
    playing = rated_game(ann, bob)
    opening(playing, ann, bob)
    over = rated_game(ann, bob, kind="go", size=9)
    opening(over, ann, bob, plies=0)
    play.resign(player=bob, game_id=over.public_id)
    paths = [
        "/",
        "/games/",
        "/players/top/",
        "/players/bots/",
        "/tournaments/",
        "/players/ann/",
        "/accounts/games/",
        "/notifications/",
        "/notifications/settings/",
        "/accounts/settings/",
        "/account/tokens/",
        "/help/",
        "/rules/",
        "/faq/",
        *(f"/help/{topic.slug}/" for topic in TOPICS),
        waiting,
        f"/games/{playing.public_id}/",
        f"/games/{over.public_id}/",
        f"/games/{over.public_id}/replay/",
        "/no-such-page/",
    ]
    return browser, paths


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_is_left_where_the_catalogue_has_a_translation(language: str) -> None:
    ann, paths = pages()
    guest = Client()
    english = english_left(LANGUAGES[language])
    found: dict[str, set[str]] = {}
    for browser, path in [(ann, path) for path in paths] + [
        (guest, "/accounts/login/"),
        (guest, "/accounts/signup/"),
        (guest, "/"),
    ]:
        response = browser.get(path, HTTP_ACCEPT_LANGUAGE=language, follow=True)
        assert response["Content-Language"] == language, path
        parser = Texts()
        parser.feed(response.content.decode())
        left = parser.texts & english
        if left:
            found[path] = left
    assert found == {}
