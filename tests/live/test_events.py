"""live.events: what a game's change sends its group, and what each socket makes of it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from accounts.players import Player
from games.realtime import events as game_events
from games.services import play
from live import events
from tests.conftest import RecordingLayer
from tests.games.services.test_services import start
from tests.live.test_consumers import AUTOMATIC_PASS_LINE

pytestmark = pytest.mark.django_db


def test_a_move_and_its_automatic_pass_go_to_the_group_as_one_event(
    black: Player,
    white: Player,
    recording_layer: RecordingLayer,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = start(black, white, size=4)
    with django_capture_on_commit_callbacks(execute=True):
        for ply, point in enumerate(AUTOMATIC_PASS_LINE):
            play.play(
                player=black if ply % 2 == 0 else white,
                game_id=game.public_id,
                ply=ply,
                point=point,
            )

    assert [event["type"] for _, event in recording_layer.events] == ["game.moved"] * 4
    group, last = recording_layer.events[-1]
    assert group == game_events.group_name(game.public_id)
    # Each socket sends its client one `moved` a move, in ply order, both with the game
    # after the pass, its own colour put in.
    for you in ("black", "white", None):
        place, automatic = (json.loads(text) for text in events.personal(last, you))
        assert (place["move"]["ply"], place["move"]["action"]) == (4, "place")
        assert (automatic["move"]["ply"], automatic["move"]["action"]) == (5, "pass")
        assert automatic["move"]["color"] == "black"
        for message in (place, automatic):
            assert message["type"] == "moved"
            assert (message["game"]["ply"], message["game"]["to_move"]) == (5, "white")
            assert message["game"]["you"] == you
            assert message["game"]["last_move"] == automatic["move"]


def test_a_state_is_one_message_with_each_sockets_colour(
    black: Player, white: Player, recording_layer: RecordingLayer
) -> None:
    game = start(black, white)
    events.send_state(game)

    [(_, event)] = recording_layer.events
    assert event["type"] == "game.state"
    for you in ("black", "white", None):
        [text] = events.personal(event, you)
        message = json.loads(text)
        assert (message["type"], message["game"]["id"], message["game"]["you"]) == (
            "state",
            game.public_id,
            you,
        )
    [decoded] = events.decoded(event)
    assert "you" not in decoded["game"] and decoded["seats"] == event["seats"]
