"""What refuses a request before the rules are asked, in the contract's order: the
caller's standing (muted, marked for engine use), the game's state (over, waiting for an
opponent), and a request made for a ply that is no longer the game's (``stale``)."""

from __future__ import annotations

from django.utils.translation import gettext

from accounts import standing
from games.models import Game
from games.services.errors import GameError


def refuse_muted(user_id: int | None) -> None:
    """Raises GameError("muted"), with the mute's ``until``, when staff muted the account
    ``user_id`` (accounts.standing)."""
    mute = standing.muted(user_id)
    if mute is not None:
        raise GameError("muted", mute.words(), details={"until": mute.until_json()})


def refuse_engine(user_id: int | None, *, field: str | None = None) -> None:
    """Raises GameError("not_allowed") when the account ``user_id`` is marked for engine
    use: it plays no rated game (accounts.standing)."""
    if standing.is_engine(user_id):
        raise GameError("not_allowed", gettext(standing.ENGINE_REFUSAL), field=field)


def refuse_ended(game: Game) -> None:
    """Raises GameError("game_over") for a finished or aborted game."""
    if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        finished = game.status == Game.Status.FINISHED
        raise GameError(
            "game_over",
            gettext("the game is finished") if finished else gettext("the game is aborted"),
        )


def refuse_waiting(game: Game) -> None:
    """Raises GameError("not_your_turn") while the game waits for an opponent."""
    if game.status == Game.Status.WAITING:
        raise GameError("not_your_turn", gettext("waiting for an opponent"))


def refuse_stale(game: Game, ply: int) -> None:
    """Raises GameError("stale") when ``ply``, the game's ply as the caller saw it, is not
    ``game``'s: a move was made (or taken back) since."""
    if ply != game.ply:
        raise GameError(
            "stale",
            gettext("the game is at ply %(ply)s, not %(ply2)s") % {"ply": game.ply, "ply2": ply},
        )
