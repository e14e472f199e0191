"""The game socket's refusals in its visitor's language, the rules' own words included
(they are said in the consumer's database thread): the language cookie of the handshake."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings

from othello_site.asgi import application
from tests.live.test_consumers import HEADERS, TIMEOUT, Socket, table
from tests.support import catalogues

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(("language", "said"), [("fr", "b2 est occupée"), ("en", "b2 is occupied")])
async def test_a_refused_move_is_explained_in_the_sockets_language(
    monkeypatch: pytest.MonkeyPatch, language: str, said: str
) -> None:
    catalogues.fill(monkeypatch, "fr", {"%(where)s is occupied": "%(where)s est occupée"})
    seats = await table()
    cookie = f"sessionid={seats.black}; {settings.LANGUAGE_COOKIE_NAME}={language}"
    communicator = WebsocketCommunicator(
        application, f"/ws/games/{seats.game_id}/", headers=[*HEADERS, (b"cookie", cookie.encode())]
    )
    assert (await communicator.connect(timeout=TIMEOUT))[0]
    try:
        ws = Socket(communicator)
        while (await ws.receive())["type"] != "chat_history":
            pass
        await ws.send({"type": "play", "ply": 0, "point": [1, 1]})
        answer = await ws.receive()
        assert (answer["type"], answer["code"], answer["message"]) == (
            "error",
            "illegal_move",
            said,
        )
    finally:
        await communicator.disconnect()
