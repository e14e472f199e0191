"""The events the services send to a game's websocket group once their transaction commits.

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
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings

import broadcast
from games.models import ChatMessage, Game, Move
from games.selectors import chat_json, game_state, lobby_jsons, move_json, seat_tokens


def group_name(public_id: str) -> str:
    """The channel-layer group of everyone watching the game ``public_id``."""
    return f"game.{public_id}"


def broadcast_moved(game: Game, moves: list[Move]) -> None:
    """Send ``game.moved`` for each of ``moves`` (the last ones of the game) to its group."""
    game_json, seats = _public_state(game, last_move=move_json(moves[-1]))
    for move in moves:
        message = {"type": "moved", "move": move_json(move), "game": game_json}
        _send(game, {"type": "game.moved", "text": _encoded(message), "seats": seats})


def broadcast_state(game: Game, *, skip: str | None = None) -> None:
    """Send ``game.state`` to the game's group (but to the channel ``skip``, which sends
    its client the state itself: a socket that just connected)."""
    game_json, seats = _public_state(game)
    message = {"type": "state", "game": game_json}
    _send(game, {"type": "game.state", "text": _encoded(message), "seats": seats, "skip": skip})


def broadcast_undone(game: Game) -> None:
    """Send ``game.undone`` (the last move taken back: G with the moves left) to the group."""
    game_json, seats = _public_state(game)
    message = {"type": "undone", "game": game_json}
    _send(game, {"type": "game.undone", "text": _encoded(message), "seats": seats})


def broadcast_chat(game: Game, message: ChatMessage) -> None:
    """Send ``game.chat`` (one message of the game's chat, said just now) to the group."""
    text = json.dumps({"type": "chat", "message": chat_json(message)}, separators=(",", ":"))
    # The author's account: a reader who blocks it is not sent the line.
    _send(game, {"type": "game.chat", "whole": text, "author": message.user_id})


def broadcast_rematch(game: Game, new: Game) -> None:
    """Send ``game.rematch`` (the rematch of ``game`` is ``new``) to the group."""
    text = json.dumps({"type": "rematch", "game_id": new.public_id}, separators=(",", ":"))
    _send(game, {"type": "game.rematch", "whole": text})


def broadcast_analysis(game: Game, status: str, progress: float) -> None:
    """Send ``game.analysis`` (the review's status and progress, 0..1) to the group."""
    message = {"type": "analysis", "status": status, "progress": progress}
    _send(game, {"type": "game.analysis", "whole": json.dumps(message, separators=(",", ":"))})


LOBBY_GROUP = "lobby"


_lobby_held: ContextVar[list[bool] | None] = ContextVar("lobby_held", default=None)


@contextmanager
def lobby_noted() -> Iterator[list[bool]]:
    """Within it, ``broadcast_lobby`` only notes that the lobby changed, in the list it
    yields (not empty: it did), and sends nothing: the caller sends one ``lobby_event``
    later, when it chooses (the pairing loop, at most every half second)."""
    changed: list[bool] = []
    token = _lobby_held.set(changed)
    try:
        yield changed
    finally:
        _lobby_held.reset(token)


@contextmanager
def lobby_held() -> Iterator[None]:
    """Within it, ``broadcast_lobby`` only notes that the lobby changed, and the lobby is
    broadcast once when it ends: a batch of changes (a pairing wave's games) costs one
    lobby message, not one each."""
    with lobby_noted() as changed:
        yield
    if changed:
        broadcast_lobby()


def broadcast_lobby() -> None:
    """Send ``lobby_event`` to everyone on the lobby's websocket (once at the end of a
    ``lobby_held`` block; only noted within ``lobby_noted``)."""
    held = _lobby_held.get()
    if held is not None:
        held.append(True)
        return
    broadcast.send_to_group(LOBBY_GROUP, lobby_event())


def lobby_event() -> dict[str, Any]:
    """``lobby.changed``: the open games and how many are being played, as they are now,
    encoded once in each of the site's languages (``languages``; ``whole``: the
    default's), for each socket to send its own."""
    messages = lobby_jsons(code for code, _name in settings.LANGUAGES)
    texts = {code: json.dumps(message, separators=(",", ":")) for code, message in messages.items()}
    return {"type": "lobby.changed", "whole": texts[settings.LANGUAGE_CODE], "languages": texts}


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
    broadcast.send_to_group(group_name(game.public_id), event)
