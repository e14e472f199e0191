"""G, the contract's state object (docs/api/websocket.md), as the game socket, the game
page and ``state.json`` send it: the stored game's part (``games.selectors.game_state``)
and what the apps above it say of the game, asked directly: its players' ``ratings``
(players), the ``challenge`` it is (challenges), how the pools made it (``paired``:
pairing), the ``tournament`` it is of (tournaments)."""

from __future__ import annotations

import datetime
from typing import Any

from accounts.players import Player
from challenges.services import game_challenge
from games import selectors
from games.models import Game
from pairing.selectors import game_paired
from players.ratings import game_ratings
from tournaments.selectors import game_tournament


def game_state(
    game: Game, *, you: str | None, last_move: dict[str, Any] | None = None
) -> dict[str, Any]:
    """G of ``game`` for a viewer playing ``you`` (a colour or None); given ``last_move``
    (M of the game's last move), without ``moves`` and at no query for them
    (``games.selectors.game_state``)."""
    state = selectors.game_state(game, you=you, last_move=last_move)
    state["ratings"] = game_ratings(game)
    state["challenge"] = game_challenge(game)
    state["paired"] = game_paired(game)
    state["tournament"] = game_tournament(game)
    return state


EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)


def changed_at(game: Game) -> int:
    """When ``game`` last changed, in microseconds since the epoch: the order of its live
    events (its ``updated_at`` never goes back, ``games.models.ChangedAt``)."""
    return (game.updated_at - EPOCH) // datetime.timedelta(microseconds=1)


def state_for(game_id: str, *, you: Player) -> dict[str, Any] | None:
    """G of the game ``game_id`` as ``you`` sees it; None when there is no such game."""
    read = dated_state_for(game_id, you=you)
    return None if read is None else read[0]


def dated_state_for(game_id: str, *, you: Player) -> tuple[dict[str, Any], int] | None:
    """G of the game ``game_id`` as ``you`` sees it, and when the game last changed
    (``changed_at``: a socket sends no older state after it); None for no such game."""
    game = Game.objects.filter(public_id=game_id).first()
    if game is None:
        return None
    return game_state(game, you=selectors.color_of(game, you)), changed_at(game)
