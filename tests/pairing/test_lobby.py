"""pairing.lobby: when the lobby's counts are not what this process last told it, and the
pairing loop telling it so."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from accounts.players import Player
from games.models import Game
from games.services import lobby as lobby_services
from games.services import play
from pairing import lobby, loop
from pairing import services as pairing
from tests.conftest import FrozenClock, RecordingLayer

pytestmark = pytest.mark.django_db(transaction=True)


def guest(name: str) -> Player:
    return Player(session_key=f"{name}-session")


def game_with_a_move(black: str, white: str) -> Game:
    """A Go game between two guests, Black's first move stored now."""
    game = lobby_services.create_game(
        player=guest(black),
        new=lobby_services.NewGame(kind="go", size=9, color="black", name=black),
    )
    lobby_services.join_game(player=guest(white), game_id=game.public_id, name=white)
    play.play(player=guest(black), game_id=game.public_id, ply=0, point=[4, 4])
    return game


def told_playing() -> int:
    """How many games being played the lobby's message says, built now."""
    return int(json.loads(lobby.lobby_event()["whole"])["playing"])


def test_nothing_told_yet_is_stale() -> None:
    assert lobby.stale_counts(playing=False)
    lobby.lobby_event()
    assert not lobby.stale_counts(playing=True)


def test_a_count_caught_in_passing_by_a_message_is_told_again(frozen_clock: FrozenClock) -> None:
    game_with_a_move("ann", "bob")
    assert told_playing() == 1
    assert not lobby.stale_counts(playing=True)

    # Ann's game leaves the count; a message goes (a game created, say) and says 0; then
    # Cid's game comes in. Read twice, the count is 1 both times, yet every socket was
    # last told 0: it is stale, and the lobby is told again.
    frozen_clock.advance(10 * 60 + 1)
    assert told_playing() == 0
    game_with_a_move("cid", "dan")
    assert lobby.stale_counts(playing=True)
    assert told_playing() == 1
    assert not lobby.stale_counts(playing=True)


def test_the_pools_counts_are_compared_every_time_the_games_only_when_asked(
    frozen_clock: FrozenClock,
) -> None:
    lobby.lobby_event()
    game_with_a_move("ann", "bob")
    assert not lobby.stale_counts(playing=False)  # the games being played not counted
    assert lobby.stale_counts(playing=True)

    lobby.lobby_event()
    pairing.socket_opened(session_key="eve-session", channel_name="eve-1", process="here")
    seek = {"kind": "othello", "size": 8, "clock": "fischer", "main_time": 180, "increment": 2}
    pairing.seek(player=guest("eve"), user=None, name="Eve", message=seek, now=frozen_clock.now)
    assert lobby.stale_counts(playing=False)


async def test_the_loop_tells_the_lobby_a_count_it_was_not_told(
    monkeypatch: pytest.MonkeyPatch, frozen_clock: FrozenClock, recording_layer: RecordingLayer
) -> None:
    told = recording_layer.lobby
    monkeypatch.setattr(loop, "get_channel_layer", lambda: recording_layer)
    running = loop.PairingLoop()
    await running.tick()
    assert [message["playing"] for message in told] == [0]  # nothing told yet
    running.lobby_sent -= loop.TICK
    await running.tick()
    assert len(told) == 1  # told already

    # The game's join tells the lobby (0 being played), then its first move is stored.
    await database_sync_to_async(game_with_a_move)("ann", "bob")
    assert told[-1]["playing"] == 0
    seen = len(told)
    running.lobby_sent -= loop.TICK
    await running.tick()
    assert len(told) == seen  # counted every RECOUNT seconds, not every tick
    running.recounted -= loop.RECOUNT
    await running.tick()
    assert len(told) == seen + 1
    assert told[-1]["playing"] == 1
