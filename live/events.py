"""The game's events that carry G, sent to its websocket group once a change committed
(``games.signals.game_changed``, received here), and the lobby's message.

Every event carries its message encoded once (``text``: G without ``you``) and the seats'
tokens; each consumer puts in ``you`` from ``seats`` and its own ``Player.token``
(``personal``; the group is shared by players and spectators alike):

- ``{"type": "game.moved", "move": M, "game": G, "seats": ...}``, one per stored move, in
  ply order. G is the game after the whole service call, so when an Othello move is
  followed by an automatic pass, both events carry the state after the pass; it has no
  ``moves`` (the clients have them; ``state`` and ``sync`` carry them), so that an event
  costs the same after 300 moves as after 3.
- ``{"type": "game.state", "game": G, "seats": ..., "skip": channel or None}`` for a
  change without a move: a player joined, the game was aborted, Go's count changed (a
  mark, an accept, the game finished by both accepts, a resume), a seat came online or
  went offline.
- ``{"type": "game.undone", "game": G, "seats": ...}``: the last move taken back (G with
  the moves left).

Each also carries ``at``, when the game last changed (``live.state.changed_at``): events
sent by different processes, or queued while a socket was still sending its client the
state on connect, may arrive after a later state, and a socket drops a ``state`` or an
``undone`` older than what its client already has.
"""

from __future__ import annotations

import json
from typing import Any

import broadcast
from games.models import Game, Move
from games.realtime.events import group_name
from games.selectors import move_json, seat_tokens
from live.state import changed_at, game_state
from pairing import lobby


def game_changed(
    sender: Any,
    *,
    game: Game | None,
    change: str,
    moves: list[Move] | None = None,
    skip: str | None = None,
    **kwargs: Any,
) -> None:
    """``games.signals.game_changed`` receiver: the event of ``change`` sent."""
    if change == "lobby":
        lobby.broadcast_lobby()
        return
    assert game is not None, "a game's change names its game"
    if change == "moved":
        assert moves, "a move was stored"
        send_moved(game, moves)
    elif change == "undone":
        send_undone(game)
    else:
        send_state(game, skip=skip)


def send_moved(game: Game, moves: list[Move]) -> None:
    """Send ``game.moved`` for each of ``moves`` (the last ones of the game) to its group."""
    game_json, seats = _public_state(game, last_move=move_json(moves[-1]))
    for move in moves:
        message = {"type": "moved", "move": move_json(move), "game": game_json}
        _send(game, {"type": "game.moved", "text": _encoded(message), "seats": seats})


def send_state(game: Game, *, skip: str | None = None) -> None:
    """Send ``game.state`` to the game's group (but to the channel ``skip``, which sends
    its client the state itself: a socket that just connected)."""
    game_json, seats = _public_state(game)
    message = {"type": "state", "game": game_json}
    _send(game, {"type": "game.state", "text": _encoded(message), "seats": seats, "skip": skip})


def send_undone(game: Game) -> None:
    """Send ``game.undone`` (the last move taken back: G with the moves left) to the group."""
    game_json, seats = _public_state(game)
    message = {"type": "undone", "game": game_json}
    _send(game, {"type": "game.undone", "text": _encoded(message), "seats": seats})


def personal(event: dict[str, Any], you: str | None) -> str:
    """The text a socket whose seat is ``you`` (a colour, None for a spectator) sends its
    client for ``event``: the message encoded once for everyone, ``you`` put in."""
    text: str = event["text"]
    return f"{text},{_YOU}{json.dumps(you)}}}}}"


def decoded(event: dict[str, Any]) -> dict[str, Any]:
    """``event`` with its message decoded (``move``, ``game`` without ``you``...), for tests."""
    if "whole" in event:
        return {**json.loads(event["whole"]), "type": event["type"]}
    message: dict[str, Any] = json.loads(personal(event, None))
    del message["game"]["you"]
    return {**{k: v for k, v in event.items() if k != "text"}, **message, "type": event["type"]}


_YOU = '"you":'


def _encoded(message: dict[str, Any]) -> str:
    """``message`` (whose last key is ``game``) as JSON, but for the two closing braces:
    ``personal`` puts each socket's ``you`` into the game, so that an event is encoded
    once for every socket that receives it, not once each (and the in-memory layer's copy
    of an event for each socket copies a string, not the whole state)."""
    return json.dumps(message, separators=(",", ":"))[:-2]


def _public_state(
    game: Game, *, last_move: dict[str, Any] | None = None
) -> tuple[dict[str, Any], dict[str, str | None]]:
    state = game_state(game, you=None, last_move=last_move)
    del state["you"]
    return state, seat_tokens(game)


def _send(game: Game, event: dict[str, Any]) -> None:
    """``event`` to the game's group, with when the game last changed (``at``)."""
    broadcast.send_to_group(group_name(game.public_id), {**event, "at": changed_at(game)})
