"""The site in the players' own languages, in Chromium: the browser's language chooses the
page's (its words, the scripts' words from /jsi18n/, <html lang>), the language menu
changes it at once and for the pages after, on a desktop and a phone; and axe-core finds
nothing on the pages in Japanese. The words expected are the catalogues' own."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import polib
import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.game_page import create_game
from tests.browser.test_accessibility import VIEWPORTS, violations

pytestmark = pytest.mark.browser

NewContext = Callable[..., BrowserContext]
LOCALE = Path(__file__).resolve().parents[2] / "locale"
#: The browser's locale (its Accept-Language), the page's language, the catalogue's folder.
BROWSERS = [("ja-JP", "ja", "ja"), ("ko-KR", "ko", "ko"), ("zh-CN", "zh-hans", "zh_Hans")]


def translated(folder: str, msgid: str, *, domain: str = "django", context: str = "") -> str:
    catalogue = polib.pofile(str(LOCALE / folder / "LC_MESSAGES" / f"{domain}.po"))
    entry = catalogue.find(msgid, msgctxt=context or False)
    assert entry is not None and entry.msgstr, f"{folder}: {msgid!r} is not translated"
    return str(entry.msgstr)


def footer_help(page: Page) -> Any:
    return page.locator(".site-footer nav a").first


@pytest.mark.parametrize(("locale", "language", "folder"), BROWSERS)
def test_the_browsers_language_chooses_the_pages(
    new_context: NewContext, locale: str, language: str, folder: str
) -> None:
    page = new_context(locale=locale, **VIEWPORTS["desktop"]).new_page()
    page.goto("/help/")

    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(footer_help(page)).to_have_text(translated(folder, "Help"))
    expect(page.locator(".site-nav .nav-links a").nth(1)).to_have_text(
        translated(folder, "Archive")
    )
    # The scripts speak it too: Django's JavaScriptCatalog, loaded before every script.
    msgid = polib.pofile(str(LOCALE / folder / "LC_MESSAGES" / "djangojs.po"))[0]
    assert page.evaluate("(msgid) => gettext(msgid)", msgid.msgid) == msgid.msgstr != msgid.msgid


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_the_language_menu_changes_the_language_for_the_pages_after(
    new_context: NewContext, screen: str
) -> None:
    page = new_context(locale="en-US", **VIEWPORTS[screen]).new_page()
    page.goto("/faq/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(footer_help(page)).to_have_text("Help")

    page.locator("#language-footer").select_option("fr")  # chosen: the page reloads in it

    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert page.url.endswith("/faq/")  # back on the page the choice was made on
    expect(footer_help(page)).to_have_text(translated("fr", "Help"))
    page.goto("/players/top/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#language-footer")).to_have_value("fr")

    page.locator("#language-footer").select_option("ko")
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    expect(footer_help(page)).to_have_text(translated("ko", "Help"))


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_no_accessibility_violations_in_japanese(new_context: NewContext, screen: str) -> None:
    options = VIEWPORTS[screen]
    game = create_game(new_context(**options).new_page(), kind="go", size=9, name="Alice")
    page = new_context(locale="ja-JP", **options).new_page()
    found: dict[str, list[dict[str, Any]]] = {}
    for path in ["/", "/help/", "/rules/", "/faq/", "/games/", "/players/top/", game.url]:
        page.goto(path)
        expect(page.locator("html")).to_have_attribute("lang", "ja")
        found[path] = violations(page)
    assert found == {path: [] for path in found}
