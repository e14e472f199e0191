"""What the games tell their players, and the players' followers, through notifications
(docs/api/http.md#notifications), in the transaction of the move, the end or the start that
caused it; and how those notifications read (``register_words``: made when read, in the
reader's language, from what is stored).

- ``your_move``: after a move, the side now to move, when it is an account's: in a
  correspondence game always (by e-mail too, as the account chose), in any other game
  when none of its sockets is open on the game (its seat offline). The mover's own
  ``your_move`` of the game is marked read: it has acted on it. Its e-mail says the
  opponent's move and the time left to answer.
- ``game_over``: when a game ends, each account seated in it that is not on its page (a
  correspondence game: always).
- ``follow_playing``: when a game starts, the accounts that follow one of its players
  and turned this kind on (it is off by default), once a game whoever of its players they
  follow; never an account that blocks, or is blocked by, one of its players, nor one of
  its players.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.dateparse import parse_datetime
from django.utils.timesince import timeuntil
from django.utils.translation import gettext

from accounts import selectors as accounts
from games.models import Game
from games.records import result_text
from notifications import services as notifications
from notifications import texts
from notifications.models import Kind


def subject_of(game: Game) -> str:
    return f"game:{game.public_id}"


def _url(game: Game) -> str:
    return f"/games/{game.public_id}/"


def _by_correspondence(game: Game) -> bool:
    return bool(game.time_control) and game.time_control.get("system") == "correspondence"


def _board(game: Game) -> dict[str, Any]:
    """What names the game in words (``_label``): its kind and size."""
    return {"kind": str(game.kind), "size": game.size}


def _label(params: Mapping[str, Any]) -> str:
    """The game's kind and size in the active language."""
    return gettext("%(kind)s %(size)s×%(size)s") % {  # noqa: RUF001
        "kind": Game.Kind(params["kind"]).label,
        "size": params["size"],
    }


def moved(game: Game, mover: str, played: str | None) -> None:
    """After ``mover``'s move in ``game`` (saved in this transaction; ``played``: its
    point as the game names it, ``d3``, ``C4``; None for a pass): the mover's
    ``your_move`` read; the side to move told, when it is an account that is away (or the
    game is by correspondence), with the move and its deadline."""
    subject = subject_of(game)
    mover_id = game.seat(mover).user_id
    if mover_id is not None:
        notifications.seen(user_id=mover_id, subject=subject)
    if game.status != Game.Status.ACTIVE:
        return
    side = game.seat(game.to_move)
    user_id = side.user_id
    if side.color == mover or user_id is None or side.computer:
        return
    correspondence = _by_correspondence(game)
    if not correspondence and side.online:
        return
    notifications.notify(
        user_id=user_id,
        kind=Kind.YOUR_MOVE,
        params={
            "opponent": game.seat(mover).name,
            **_board(game),
            "move": played,
            "deadline": None if game.deadline is None else game.deadline.isoformat(),
        },
        url=_url(game),
        subject=subject,
        email=correspondence,
    )


def ended(game: Game) -> None:
    """``game`` has just finished: each of its accounts away from it told the result."""
    correspondence = _by_correspondence(game)
    for side in game.seats:
        user_id = side.user_id
        if user_id is None or side.computer:
            continue
        if not correspondence and side.online:
            continue
        notifications.seen(user_id=user_id, subject=subject_of(game))
        notifications.notify(
            user_id=user_id,
            kind=Kind.GAME_OVER,
            params={
                "opponent": side.opponent.name,
                **_board(game),
                "result": game.result,
            },
            url=_url(game),
            subject=subject_of(game),
        )


def started(games: Sequence[Game]) -> None:
    """``games`` have just started (active, in this transaction): the followers of their
    accounts that turned ``follow_playing`` on told, one notification a game. One query
    when nobody follows their players, three when nobody of those turned it on."""
    seated = [(game, _accounts(game)) for game in games]
    players = set().union(*(seats for _, seats in seated))
    follows = accounts.followers_of(players)
    if not follows:
        return
    listening = set(
        notifications.turned_on(
            user_ids=sorted({follower for follower, _ in follows}), kind=Kind.FOLLOW_PLAYING
        )
    )
    if not listening:
        return
    apart = accounts.kept_apart(listening | players)
    for game, seats in seated:
        told = sorted(
            {
                follower
                for follower, followed in follows
                if followed in seats
                and follower in listening
                and follower not in seats
                and not any(frozenset((follower, seat)) in apart for seat in seats)
            }
        )
        if told:
            notifications.notify_many(
                user_ids=told,
                kind=Kind.FOLLOW_PLAYING,
                params={"black": game.black_name, "white": game.white_name, **_board(game)},
                url=_url(game),
                subject=subject_of(game),
            )


def _accounts(game: Game) -> set[int]:
    return {user_id for user_id in (game.black_user_id, game.white_user_id) if user_id is not None}


# How they read


def your_move_text(params: Mapping[str, Any]) -> str:
    opponent = params["opponent"] or gettext("your opponent")
    return gettext("Your move against %(opponent)s (%(game)s)") % {
        "opponent": opponent,
        "game": _label(params),
    }


def your_move_details(params: Mapping[str, Any], now: datetime.datetime) -> list[str]:
    """The opponent's move, and the time left to answer it as of ``now`` (its e-mail's
    lines)."""
    opponent = params["opponent"] or gettext("your opponent")
    move = params.get("move")
    lines = [
        gettext("%(opponent)s played %(point)s.") % {"opponent": opponent, "point": move}
        if move
        else gettext("%(opponent)s passed.") % {"opponent": opponent}
    ]
    deadline = parse_datetime(params["deadline"]) if params.get("deadline") else None
    if deadline is not None and deadline > now:
        left = timeuntil(deadline, now, depth=2)
        lines.append(gettext("You have %(left)s left to move.") % {"left": left})
    return lines


def game_over_text(params: Mapping[str, Any]) -> str:
    opponent = params["opponent"] or gettext("your opponent")
    return gettext("Your game against %(opponent)s (%(game)s) is over: %(result)s") % {
        "opponent": opponent,
        "game": _label(params),
        "result": result_text(params["result"], params["kind"]) or gettext("ended"),
    }


def follow_playing_text(params: Mapping[str, Any]) -> str:
    return gettext("%(black)s and %(white)s have started a game of %(game)s") % {
        "black": params["black"],
        "white": params["white"],
        "game": _label(params),
    }


def register_words() -> None:
    """How the games' notifications read (``GamesConfig.ready``)."""
    texts.register(Kind.YOUR_MOVE, your_move_text, your_move_details)
    texts.register(Kind.GAME_OVER, game_over_text)
    texts.register(Kind.FOLLOW_PLAYING, follow_playing_text)
