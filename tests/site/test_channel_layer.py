"""othello_site.channel_layer on the Redis of REDIS_URL: a socket's consumer that is told
to stop stops, whenever the cancellation lands in its wait for a message.

(What a Redis restart does to the layer is tested with real processes in test_faults.)
"""

from __future__ import annotations

import asyncio
import random

import pytest
from channels.layers import get_channel_layer

from othello_site.channel_layer import ResilientRedisChannelLayer

pytestmark = pytest.mark.services

RECEIVES = 80
"""Cancelled receives: before the fix, about one in ten never ended."""

READ = 1
"""Seconds a BZPOPMIN waits here (channels-redis's ``brpop_timeout``, 5 s in the server):
a cancelled receive ends at the latest when its read returns, so 80 of them at 5 s took
80 s, and at 1 s 18 s (measured)."""


async def test_a_cancelled_receive_always_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    layer = get_channel_layer()
    assert isinstance(layer, ResilientRedisChannelLayer)
    monkeypatch.setattr(layer, "brpop_timeout", READ)
    chooser = random.Random(5)
    channel = await layer.new_channel()
    stuck = 0
    for _ in range(RECEIVES):
        receive = asyncio.ensure_future(layer.receive(channel))
        # Anywhere in the wait: before the read, in the cleanup script, in BZPOPMIN.
        await asyncio.sleep(chooser.choice([0, 0.001, chooser.uniform(0, 0.02)]))
        receive.cancel()
        done, _ = await asyncio.wait([receive], timeout=READ + 2)  # past the read's end
        if not done:
            stuck += 1
            # It reads on: cancel it again until it goes, or this loop's end waits for ever.
            while not done:
                receive.cancel()
                done, _ = await asyncio.wait([receive], timeout=READ + 2)
            break
    assert stuck == 0
    await layer.send(channel, {"type": "ping"})
    assert await asyncio.wait_for(layer.receive(channel), 7) == {"type": "ping"}
    await layer.close_pools()
