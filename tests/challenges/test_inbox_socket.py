"""The challenged account's pages hear their inbox change on the lobby socket, through the
real ASGI application: ``{"type": "challenges", "incoming": n}`` when a challenge is made
for it and when it declines one (in another tab, say), nothing for a decline refused to
another."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from tests.challenges.test_lobby import FIELDS, lobby, logged_in
from tests.live.test_consumers import TIMEOUT

pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_challenged_accounts_pages_hear_their_inbox_change() -> None:
    (alice, _), (bob_browser, bob_session) = await database_sync_to_async(
        lambda: (logged_in("alice"), logged_in("bob"))
    )()
    async with lobby("/ws/lobby/?bell=1", bob_session) as bob:
        made = await database_sync_to_async(alice.post)("/players/bob/challenge/", FIELDS)
        game_id = made.url.strip("/").split("/")[-1]
        told: dict[str, Any] = await bob.receive_json_from(timeout=TIMEOUT)
        assert (told["type"], told["notification"]["kind"]) == ("notification", "challenge")
        heard = await bob.receive_json_from(timeout=TIMEOUT)
        assert heard == {"type": "challenges", "incoming": 1}

        declined = await database_sync_to_async(Client().post)(f"/games/{game_id}/decline/")
        assert declined.status_code == 403  # not bob's: nothing heard
        assert await bob.receive_nothing(timeout=0.2)

        # bob declines in another tab: this page's inbox hears it is empty now.
        path = f"/games/{game_id}/decline/"
        await database_sync_to_async(bob_browser.post)(path, {"reason": "later"})
        read = await bob.receive_json_from(timeout=TIMEOUT)  # the challenge's notification
        assert read == {"type": "unread", "unread": 0}
        heard = await bob.receive_json_from(timeout=TIMEOUT)
        assert heard == {"type": "challenges", "incoming": 0}
