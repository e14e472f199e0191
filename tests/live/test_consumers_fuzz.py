"""live.consumers' decoder, fuzzed: whatever a frame holds, it gets one answer of the
contract (``state`` for a sync, else ``error`` with a contract code) and the socket stays
open.

Random bytes, random JSON values, messages of every type with fields of any shape, deep
nesting (under 4 KiB, which Python's JSON decoder cannot take: RecursionError), huge
numbers and lone surrogates. Sent by a spectator (nothing it sends can change the game,
so every frame has exactly one answer) and by a seated player in a game that is over.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.services.errors import ERROR_CODES
from live.consumers import MESSAGE_TYPES
from tests.live.test_consumers import seat, socket

pytestmark = pytest.mark.django_db(transaction=True)

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**300, max_value=10**1000)
    | st.floats()
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
FIELD_VALUES = JSON_VALUES | st.lists(st.integers(min_value=-(2**70), max_value=2**70), max_size=3)


@st.composite
def messages(draw: st.DrawFn) -> dict[str, Any]:
    message: dict[str, Any] = {"type": draw(st.sampled_from(MESSAGE_TYPES) | st.text(max_size=8))}
    for field in draw(st.sets(st.sampled_from(["ply", "point", "marking", "text", "x"]))):
        message[field] = draw(FIELD_VALUES)
    return message


def nested(depth: int, inner: str = "") -> str:
    return "[" * depth + inner + "]" * depth


TEXT_FRAMES = st.one_of(
    st.text(),
    st.text(alphabet=st.characters(categories=["Cs", "Co", "Cc"]), max_size=16),
    JSON_VALUES.map(json.dumps),
    messages().map(json.dumps),
    st.integers(min_value=1, max_value=2000).map(nested),
    st.integers(min_value=1, max_value=1000).map(
        lambda depth: json.dumps({"type": "play", "ply": 0, "point": None}).replace(
            "null", nested(depth)
        )
    ),
    st.integers(min_value=1, max_value=4090).map(lambda digits: "9" * digits),
    st.sampled_from(['{"type": "sync"', '"\\ud800"', '{"type": "\\udfff"}', "1e999999", "NaN"]),
)
FRAMES = st.one_of(
    TEXT_FRAMES.map(lambda text: ("text", text)),
    st.binary(max_size=64).map(lambda data: ("bytes", data)),
)


async def answers_each(game_id: str, session: str | None, frames: list[tuple[str, Any]]) -> None:
    async with socket(game_id, session) as ws:
        communicator = ws.communicator
        for kind, data in frames:
            # As daphne passes a frame on (send_to refuses an empty one).
            await communicator.send_input({"type": "websocket.receive", kind: data})
            answer = await ws.receive()
            if answer["type"] == "error":
                assert answer["code"] in ERROR_CODES, answer
                assert answer["message"]
            else:
                assert answer["type"] == "state", answer
            assert await communicator.receive_nothing(timeout=0.01)
        await ws.state()  # still open, still answering


FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@FUZZ
@given(frames=st.lists(FRAMES, min_size=1, max_size=8), finished=st.booleans())
async def test_every_frame_gets_one_contract_answer(
    frames: list[tuple[str, Any]], finished: bool
) -> None:
    """From a spectator, or from a player of a game that is over."""
    seats = await database_sync_to_async(seat)("othello", 4)
    if finished:
        async with socket(seats.game_id, seats.black) as black:
            await black.send({"type": "resign"})
            assert (await black.receive())["type"] == "moved"
    await answers_each(seats.game_id, seats.black if finished else None, frames)


@pytest.mark.parametrize(
    "frame",
    [
        "[" * 1500 + "]" * 1500,
        '{"type": "play", "ply": 0, "point": ' + "[" * 1200 + "]" * 1200 + "}",
    ],
    ids=["brackets", "as-point"],
)
async def test_the_reported_nesting_is_a_bad_request(frame: str) -> None:
    seats = await database_sync_to_async(seat)("othello", 4)
    assert len(frame.encode()) <= 4096
    async with socket(seats.game_id, seats.black) as black:
        await black.communicator.send_to(text_data=frame)
        answer = await black.receive()
        assert (answer["type"], answer["code"]) == ("error", "bad_request")
