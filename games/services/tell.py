"""What the games tell their players through notifications (DESIGN.md, "Notifications"),
in the transaction of the move or the end that caused it.

- ``your_move``: after a move, the side now to move, when it is an account's: in a
  correspondence game always (by e-mail too, as the account chose), in any other game
  when none of its sockets is open on the game (its seat offline). The mover's own
  ``your_move`` of the game is marked read: it has acted on it.
- ``game_over``: when a game ends, each account seated in it that is not on its page (a
  correspondence game: always).
"""

from __future__ import annotations

from django.utils.translation import gettext

from games.models import Game
from games.records import result_text
from notifications import services as notifications
from notifications.models import Kind


def subject_of(game: Game) -> str:
    return f"game:{game.public_id}"


def _url(game: Game) -> str:
    return f"/games/{game.public_id}/"


def _by_correspondence(game: Game) -> bool:
    return bool(game.time_control) and game.time_control.get("system") == "correspondence"


def _label(game: Game) -> str:
    return gettext("%(kind)s %(size)s×%(size)s") % {  # noqa: RUF001
        "kind": Game.Kind(game.kind).label,
        "size": game.size,
    }


def moved(game: Game, mover: str) -> None:
    """After ``mover``'s move in ``game`` (saved in this transaction): the mover's
    ``your_move`` read; the side to move told, when it is an account that is away (or the
    game is by correspondence)."""
    subject = subject_of(game)
    mover_id = getattr(game, f"{mover}_user_id")
    if mover_id is not None:
        notifications.seen(user_id=mover_id, subject=subject)
    if game.status != Game.Status.ACTIVE:
        return
    side = str(game.to_move)
    user_id = getattr(game, f"{side}_user_id")
    if side == mover or user_id is None or side == game.computer_color:
        return
    correspondence = _by_correspondence(game)
    if not correspondence and getattr(game, f"{side}_online"):
        return

    def text() -> str:  # made by notify, in the account's language
        opponent = getattr(game, f"{mover}_name", "") or gettext("your opponent")
        return gettext("Your move against %(opponent)s (%(game)s)") % {
            "opponent": opponent,
            "game": _label(game),
        }

    notifications.notify(
        user_id=user_id,
        kind=Kind.YOUR_MOVE,
        text=text,
        url=_url(game),
        subject=subject,
        email=correspondence,
    )


def ended(game: Game) -> None:
    """``game`` has just finished: each of its accounts away from it told the result."""
    correspondence = _by_correspondence(game)
    for side in ("black", "white"):
        user_id = getattr(game, f"{side}_user_id")
        if user_id is None or side == game.computer_color:
            continue
        if not correspondence and getattr(game, f"{side}_online"):
            continue
        other = "white" if side == "black" else "black"

        def text(other: str = other) -> str:  # made by notify, in the account's language
            opponent = getattr(game, f"{other}_name", "") or gettext("your opponent")
            return gettext("Your game against %(opponent)s (%(game)s) is over: %(result)s") % {
                "opponent": opponent,
                "game": _label(game),
                "result": result_text(game.result, str(game.kind)) or gettext("ended"),
            }

        notifications.seen(user_id=user_id, subject=subject_of(game))
        notifications.notify(
            user_id=user_id,
            kind=Kind.GAME_OVER,
            text=text,
            url=_url(game),
            subject=subject_of(game),
        )
