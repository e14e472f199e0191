"""What the services tell a game's websocket group once their transaction commits.

A change of the game (a move, another change, a move taken back) and of the lobby is
announced by ``games.signals.game_changed``: the live app, above every app that fills
the game state G, builds G and sends the group its events (``live.events``: ``moved``,
``state``, ``undone``), and the lobby its message. What needs no G is sent from here:
a chat line, a rematch, a review's progress.
"""

from __future__ import annotations

import json
from typing import Any

import broadcast
from games import signals
from games.models import ChatMessage, Game, Move
from games.selectors import chat_json


def group_name(public_id: str) -> str:
    """The channel-layer group of everyone watching the game ``public_id``."""
    return f"game.{public_id}"


def broadcast_moved(game: Game, moves: list[Move]) -> None:
    """Tell that ``moves`` (the last ones of the game, in ply order) were stored: each is
    sent to the game's group as ``game.moved``."""
    signals.game_changed.send(sender=Game, game=game, change="moved", moves=moves)


def broadcast_state(game: Game, *, skip: str | None = None) -> None:
    """Tell that ``game`` changed without a move: ``game.state`` to the game's group (but
    to the channel ``skip``, which sends its client the state itself: a socket that just
    connected)."""
    signals.game_changed.send(sender=Game, game=game, change="state", skip=skip)


def broadcast_undone(game: Game) -> None:
    """Tell that the last move was taken back: ``game.undone`` to the game's group."""
    signals.game_changed.send(sender=Game, game=game, change="undone")


def broadcast_lobby() -> None:
    """Tell that the lobby's lists or count changed (a game created, joined, called off,
    finished): the lobby's message to every lobby socket."""
    signals.game_changed.send(sender=Game, game=None, change="lobby")


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


def _send(game: Game, event: dict[str, Any]) -> None:
    broadcast.send_to_group(group_name(game.public_id), event)
