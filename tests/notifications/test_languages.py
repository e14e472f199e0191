"""Notifications and their e-mails in the language of the account they are for, whatever
the language of the request that caused them (the other player's move, a worker)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.core import mail
from django.test import Client
from django.utils import translation
from django.utils.translation import trans_real

from accounts.models import Account
from gamerules.clock import TimeControl
from notifications import channels, outbox
from notifications.models import Notification
from tests.notifications.test_games import account, bell, game_between, move
from tests.support import catalogues

pytestmark = pytest.mark.django_db(transaction=True)

FRENCH = {
    "Your move against %(opponent)s (%(game)s)": "À vous de jouer contre %(opponent)s (%(game)s)",
    "Othello & Go: %(text)s": "Othello et Go : %(text)s",
}
"""What a French catalogue says for the msgids of a move's notification and its e-mail."""


@pytest.fixture
def french_catalogue(monkeypatch: pytest.MonkeyPatch) -> Callable[[dict[str, str]], None]:
    return lambda entries: catalogues.fill(monkeypatch, "fr", entries)


@pytest.fixture(autouse=True)
def _english_request() -> Iterator[None]:
    with translation.override("en"):  # the request that causes it speaks English
        yield


def catalogue_msgids(language: str) -> str:
    return (Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "django.po").read_text()


@pytest.mark.parametrize("language", ["fr", "ja", "ko", "zh_Hans"])
def test_the_catalogues_hold_the_notifications_words(language: str) -> None:
    catalogue = catalogue_msgids(language)
    for msgid in FRENCH:
        assert f'msgid "{msgid}"' in catalogue


def test_a_move_tells_a_french_account_in_french_and_mails_it_in_french(
    french_catalogue: Callable[[dict[str, str]], None], settings: Any
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    french_catalogue(FRENCH)
    (ann, black), (bob, white) = account("ann"), account("bob")
    Account.objects.update_or_create(user=bob, defaults={"language": "fr"})
    game = game_between(black, white, TimeControl.correspondence(days=3))

    game = move(game, black)

    [told] = Notification.objects.filter(user=bob)
    with translation.override("fr"):  # Bob's pages
        assert told.text == "À vous de jouer contre ann (Othello 8×8)"  # noqa: RUF001
    outbox.deliver(process="a", send=channels.send)
    [message] = mail.outbox
    assert message.to == ["bob@example.org"]
    assert message.subject == "Othello et Go : À vous de jouer contre ann (Othello 8×8)"  # noqa: RUF001
    assert translation.get_language() == "en"  # the request's own language is untouched

    # Ann chose no language: hers come in the site's, English, whoever sends it.
    move(game, white)
    assert Notification.objects.filter(user=ann).count() == 1
    with translation.override("fr"):
        outbox.deliver(process="a", send=channels.send)
    assert mail.outbox[-1].subject == "Othello & Go: Your move against bob (Othello 8×8)"  # noqa: RUF001


def test_without_a_translation_a_french_account_reads_english(
    settings: Any,
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    (_, black), (bob, white) = account("ann"), account("bob")
    Account.objects.update_or_create(user=bob, defaults={"language": "fr"})
    game = game_between(black, white, TimeControl.correspondence(days=3))

    move(game, black)

    [told] = Notification.objects.filter(user=bob)
    french = trans_real.translation("fr")
    expected = french.gettext("Your move against %(opponent)s (%(game)s)") % {
        "opponent": "ann",
        "game": french.gettext("%(kind)s %(size)s×%(size)s")  # noqa: RUF001
        % {"kind": french.gettext("Othello"), "size": 8},
    }
    with translation.override("fr"):
        assert told.text == expected  # whatever the shipped catalogue says, through gettext


def in_japanese(opponent: str) -> str:
    """A ``your_move`` against ``opponent`` in Othello 8x8, as the shipped Japanese
    catalogue says it."""
    japanese = trans_real.translation("ja")
    return japanese.gettext("Your move against %(opponent)s (%(game)s)") % {
        "opponent": opponent,
        "game": japanese.gettext("%(kind)s %(size)s×%(size)s")  # noqa: RUF001
        % {"kind": japanese.gettext("Othello"), "size": 8},
    }


def test_a_notification_made_in_english_reads_in_japanese_once_its_reader_switches(
    settings: Any,
) -> None:
    """Its words are made when read: the page, the JSON and the e-mail sent after the
    switch speak the reader's language now, not the one of when it was made."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    (_, black), (bob, white) = account("ann"), account("bob")
    game = game_between(black, white, TimeControl.correspondence(days=3))
    move(game, black)  # Bob is told, in English (he chose no language)
    english = "Your move against ann (Othello 8×8)"  # noqa: RUF001
    assert Notification.objects.get(user=bob).text == english
    browser = Client()
    browser.force_login(bob)
    assert english in browser.get("/notifications/").content.decode()

    browser.post("/language/", {"language": "ja", "next": "/"})

    japanese = in_japanese("ann")
    assert japanese != english
    page = browser.get("/notifications/").content.decode()
    assert japanese in page and english not in page
    [listed] = browser.get("/notifications.json").json()["notifications"]
    assert listed["text"] == japanese
    outbox.deliver(process="a", send=channels.send)  # the e-mail goes after the switch
    [message] = mail.outbox
    assert japanese in message.subject and japanese in message.body


async def test_each_socket_of_the_reader_hears_it_in_its_own_language() -> None:
    (_, black), (_, white) = await database_sync_to_async(
        lambda: (account("ann"), account("bob"))
    )()
    game = await database_sync_to_async(game_between)(
        black, white, TimeControl.correspondence(days=3)
    )
    async with bell("bob") as english, bell("bob", language="ja") as japanese:
        await database_sync_to_async(move)(game, black)
        heard = [(await socket.receive_json_from(timeout=2)) for socket in (english, japanese)]
    assert [said["notification"]["text"] for said in heard] == [
        "Your move against ann (Othello 8×8)",  # noqa: RUF001
        await database_sync_to_async(in_japanese)("ann"),
    ]
