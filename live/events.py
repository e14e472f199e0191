"""The game's events that carry G, sent to its websocket group once a change committed
(``games.signals.game_changed``, received here), and the lobby's message.

Every event carries its message encoded once (``text``, ``texts`` for ``game.moved``: G
without ``you``) and the seats' tokens; each consumer puts in ``you`` from ``seats`` and
its own ``Player.token`` (``personal``; the group is shared by players and spectators
alike):

- ``{"type": "game.moved", "texts": [...], "seats": ...}``: the moves one service call
  stored, one event for all of them, each socket sending its client one ``moved`` a move,
  in ply order. G is the game after the whole call, so when an Othello move is followed
  by an automatic pass, both messages carry the state after the pass (encoded once); it
  has no ``moves`` (the clients have them; ``state`` and ``sync`` carry them), so that an
  event costs the same after 300 moves as after 3. (With an event a move, a pass cost the
  channel layer as much as a move: when every game of a load came to its passes at once,
  those moves took twice as long, docs/benchmarks.md.)
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
    """Send ``game.moved`` for ``moves`` (the last ones of the game, stored by one call)
    to its group: one event, a ``moved`` message for each move."""
    game_json, seats = _public_state(game, last_move=move_json(moves[-1]))
    game_text = _open(game_json)  # once, for every move's message
    texts = [_message({"type": "moved", "move": move_json(move)}, game_text) for move in moves]
    _send(game, {"type": "game.moved", "texts": texts, "seats": seats})


def send_state(game: Game, *, skip: str | None = None) -> None:
    """Send ``game.state`` to the game's group (but to the channel ``skip``, which sends
    its client the state itself: a socket that just connected)."""
    game_json, seats = _public_state(game)
    text = _message({"type": "state"}, _open(game_json))
    _send(game, {"type": "game.state", "text": text, "seats": seats, "skip": skip})


def send_undone(game: Game) -> None:
    """Send ``game.undone`` (the last move taken back: G with the moves left) to the group."""
    game_json, seats = _public_state(game)
    text = _message({"type": "undone"}, _open(game_json))
    _send(game, {"type": "game.undone", "text": text, "seats": seats})


def personal(event: dict[str, Any], you: str | None) -> list[str]:
    """The texts a socket whose seat is ``you`` (a colour, None for a spectator) sends its
    client for ``event``, in order: each message encoded once for everyone, ``you`` put in."""
    you_text = _json(you)
    return [f"{text},{_YOU}{you_text}}}}}" for text in event.get("texts") or [event["text"]]]


def decoded(event: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages of ``event`` decoded (``move``, ``game`` without ``you``...), each with
    the event's other keys (``seats``, ``at``...), for tests: one a move for
    ``game.moved``, else one."""
    if "whole" in event:
        return [{**json.loads(event["whole"]), "type": event["type"]}]
    rest = {k: v for k, v in event.items() if k not in ("text", "texts")}
    messages = []
    for text in personal(event, None):
        message = json.loads(text)
        del message["game"]["you"]
        messages.append({**rest, **message, "type": event["type"]})
    return messages


_YOU = '"you":'


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _open(game_json: dict[str, Any]) -> str:
    """G as JSON but for its closing brace: ``personal`` puts each socket's ``you`` into it,
    so that G is encoded once for every socket that receives it, not once each (and the
    in-memory layer's copy of an event for each socket copies a string, not the state)."""
    return _json(game_json)[:-1]


def _message(head: dict[str, Any], game_text: str) -> str:
    """The message ``head`` with ``game`` last as JSON, given G's ``_open`` text, but for
    its two closing braces (``personal`` closes them)."""
    return f'{_json(head)[:-1]},"game":{game_text}'


def _public_state(
    game: Game, *, last_move: dict[str, Any] | None = None
) -> tuple[dict[str, Any], dict[str, str | None]]:
    state = game_state(game, you=None, last_move=last_move)
    del state["you"]
    return state, seat_tokens(game)


def _send(game: Game, event: dict[str, Any]) -> None:
    """``event`` to the game's group, with when the game last changed (``at``)."""
    broadcast.send_to_group(group_name(game.public_id), {**event, "at": changed_at(game)})
