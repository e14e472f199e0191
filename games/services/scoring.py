"""Go's scoring phase.

Two passes in a row (``play``'s end of play) put a Go game in ``scoring`` with the dead
stones the rules guess (``go.estimate_dead``) and the count that follows. Either player
then toggles chains dead or alive (``mark``), accepts the marking (``accept``; both: the
game is finished with that count) or plays on (``resume``). Every change of the marking
raises ``game.marking`` and withdraws both acceptances, so nobody is held to a marking
they did not see; a client may also name the marking it acts on (``marking``), and an
old number is answered ``stale``, like an old ``ply``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

import gamerules as rules
from accounts.players import Player
from gamerules import go
from games.models import Game
from games.realtime import events
from games.selectors import color_of, position_of
from games.services import clock
from games.services.after_commit import on_commit
from games.services.ending import finish
from games.services.errors import GameError, said
from games.services.fields import check_marking, check_point_shape, on_board, scoring_method
from games.services.lock import locked
from games.services.moves import running_score
from games.services.refusals import refuse_ended


@transaction.atomic
def mark(*, player: Player, game_id: str, point: Any, marking: Any = None) -> Game:
    """The game with the chain on ``point`` ([row, col]) toggled: dead if it was alive,
    alive if it was dead; both acceptances withdrawn, the count updated, ``marking`` + 1.

    Raises GameError, the first of: bad_request (a point or marking that is not integers,
    a point off the board, an unknown game), not_a_player, game_over, stale (``marking``
    given and not the current one), illegal_move (the game is not being scored, or there
    is no stone on ``point``).
    """
    check_point_shape(point)
    check_marking(marking)
    game = locked(game_id)
    point = on_board(game, point)
    _check_scoring(game, player, marking)
    position = _go_position(game)
    chain = position.chain(point)
    if not chain:
        where = position.format_point(point)
        raise GameError(
            "illegal_move", gettext("there is no stone on %(where)s to mark") % {"where": where}
        )
    dead = {(row, col) for row, col in game.dead}
    count(game, position, dead - chain if point in dead else dead | chain)
    game.black_accepted = game.white_accepted = False
    game.marking += 1
    accept_if_computers(game)
    game.save()
    on_commit(lambda: events.broadcast_state(game))
    return game


@transaction.atomic
def accept(*, player: Player, game_id: str, marking: Any = None) -> Game:
    """The game with ``player``'s acceptance of the current marking; once both players
    have accepted it, the game is finished with its count (``result`` B+3.5, W+0.5, Draw).

    Accepting twice changes nothing. Raises GameError like ``mark`` (no point): stale for
    an old ``marking``, illegal_move outside the scoring phase.
    """
    check_marking(marking)
    game = locked(game_id)
    color = _check_scoring(game, player, marking)
    if game.seat(color).accepted:
        return game
    game.set_seat(color, accepted=True)
    if game.black_accepted and game.white_accepted:
        dead = {(row, col) for row, col in game.dead}
        finish(game, result=count(game, _go_position(game), dead).result)
    game.save()
    on_commit(lambda: events.broadcast_state(game))
    return game


@transaction.atomic
def resume(*, player: Player, game_id: str, marking: Any = None) -> Game:
    """The game back in play (``active``) with the side to move after the passes; the
    marking and the acceptances dropped, ``marking`` + 1.

    Raises GameError like ``accept``.
    """
    check_marking(marking)
    game = locked(game_id)
    _check_scoring(game, player, marking)
    position = _go_position(game).resume()
    game.snapshot = position.to_snapshot()
    game.to_move = position.to_move.value
    game.status = Game.Status.ACTIVE
    clock.start_turn(game, timezone.now())
    drop_marking(game, position)
    game.marking += 1
    game.save()
    on_commit(lambda: events.broadcast_state(game))
    return game


def _check_scoring(game: Game, player: Player, marking: int | None) -> str:
    """The contract's order after bad_request, for mark, accept and resume: the caller's
    colour."""
    color = color_of(game, player)
    if color is None:
        raise GameError("not_a_player", gettext("only the players score the game"))
    refuse_ended(game)
    if marking is not None and marking != game.marking:
        raise GameError(
            "stale",
            gettext("the marking is number %(marking)s, not %(marking2)s")
            % {"marking": game.marking, "marking2": marking},
        )
    if game.status != Game.Status.SCORING:
        raise GameError(
            "illegal_move", gettext("the game is not being scored: only after two passes")
        )
    return color


def _go_position(game: Game) -> rules.GoPosition:
    position = position_of(game)
    assert isinstance(position, rules.GoPosition), "only Go games reach the scoring phase"
    return position


def count(game: Game, position: rules.GoPosition, dead: Collection[rules.Point]) -> go.GoScore:
    """Store on ``game`` the count of ``position`` with ``dead`` lifted: the dead stones,
    the territory, the breakdown and the totals (``score``)."""
    try:
        final = go.score(
            position, dead=dead, komi=game.komi or 0.0, method=scoring_method(game.scoring_method)
        )
    except (rules.RulesError, rules.InvalidMoveError) as error:
        raise GameError("bad_request", said(error)) from None
    game.dead = sorted([row, col] for row, col in dead)
    game.territory = {
        color.value: sorted([row, col] for row, col in final.territory_points[color])
        for color in rules.Color
    }
    game.score_detail = {
        color.value: {
            "territory": final.territory[color],
            "prisoners": final.prisoners[color],
            "dead": final.dead[color],
            "stones": final.stones[color],
            "komi": final.komi[color],
            "total": final.total[color],
        }
        for color in rules.Color
    }
    game.score = {color.value: final.total[color] for color in rules.Color}
    return final


def accept_if_computers(game: Game) -> None:
    """In a game against the computer: once it has seen the dead stones
    (``computer_dead``), it accepts a marking that is its own and waits on any other;
    both accepted: the game is finished with that count."""
    if not game.computer_color or game.computer_dead is None:
        return
    if sorted(game.dead) != sorted(game.computer_dead):
        return
    game.set_seat(game.computer_color, accepted=True)
    if game.black_accepted and game.white_accepted:
        dead = {(row, col) for row, col in game.dead}
        finish(game, result=count(game, _go_position(game), dead).result)


def drop_marking(game: Game, position: rules.Position) -> None:
    """Forget the count of the scoring phase: no dead stones, the score of a game in play."""
    game.dead = []
    game.territory = None
    game.score_detail = None
    game.black_accepted = game.white_accepted = False
    game.computer_dead = None
    game.score = running_score(game, position)
