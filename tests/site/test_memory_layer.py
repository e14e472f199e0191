"""othello_site.memory_layer: Channels' in-memory layer, its sweep once a second."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels import layers as channels_layers
from channels.exceptions import ChannelFull

from othello_site.memory_layer import SweepingInMemoryChannelLayer


class Clock:
    """Both clocks at once: the layer's sweep interval reads ``monotonic``, Channels' expiry
    ``time.time`` (put in ``channels.layers.time``)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(channels_layers, "time", clock)
    return clock


def layer(clock: Clock, **config: Any) -> SweepingInMemoryChannelLayer:
    return SweepingInMemoryChannelLayer(clock=clock, **config)


async def test_a_group_send_reaches_every_member_once(clock: Clock) -> None:
    memory = layer(clock)
    first, second = await memory.new_channel(), await memory.new_channel()
    for channel in (first, second):
        await memory.group_add("game.abc", channel)
    await memory.group_send("game.abc", {"type": "game.moved", "texts": ["a", "b"]})
    for channel in (first, second):
        assert await memory.receive(channel) == {"type": "game.moved", "texts": ["a", "b"]}
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(memory.receive(channel), 0.01)


async def test_an_unread_message_expires_and_its_channel_leaves_its_groups(clock: Clock) -> None:
    memory = layer(clock, expiry=60)
    gone, reading = await memory.new_channel(), await memory.new_channel()
    for channel in (gone, reading):
        await memory.group_add("game.abc", channel)
    await memory.group_send("game.abc", {"type": "first"})
    assert await memory.receive(reading) == {"type": "first"}

    clock.now += 61  # the sweep is due and `gone` never read its message
    await memory.group_send("game.abc", {"type": "second"})

    assert await memory.receive(reading) == {"type": "second"}
    assert gone not in memory.channels
    assert set(memory.groups["game.abc"]) == {reading}


async def test_a_membership_older_than_group_expiry_ends(clock: Clock) -> None:
    memory = layer(clock, group_expiry=3600)
    channel = await memory.new_channel()
    await memory.group_add("game.abc", channel)
    clock.now += 3601
    await memory.group_send("game.abc", {"type": "late"})
    assert memory.groups["game.abc"] == {}


async def test_the_walk_over_every_channel_runs_once_a_sweep_interval(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    walks = []
    monkeypatch.setattr(
        channels_layers.InMemoryChannelLayer, "_clean_expired", lambda self: walks.append(1)
    )
    memory = layer(clock, sweep_interval=1.0)
    channels = [await memory.new_channel() for _ in range(100)]
    for channel in channels:
        await memory.group_add("game.abc", channel)
    for _ in range(10):
        await memory.group_send("game.abc", {"type": "moved"})
        for channel in channels:
            await memory.receive(channel)
    assert len(walks) == 1  # Channels' own layer: 1,010 walks over 100 queues

    clock.now += 1.0
    await memory.group_send("game.abc", {"type": "moved"})
    assert len(walks) == 2


async def test_a_full_channel_still_refuses_more(clock: Clock) -> None:
    memory = layer(clock, capacity=2)
    channel = await memory.new_channel()
    await memory.send(channel, {"type": "one"})
    await memory.send(channel, {"type": "two"})
    with pytest.raises(ChannelFull):
        await memory.send(channel, {"type": "three"})
