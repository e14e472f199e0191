"""The fields of a request, checked: a ply, a point on the board, a marking's number, an
integer, a scoring method. Each raises GameError("bad_request") for a field it refuses."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

import gamerules as rules
from gamerules import go
from games.models import Game
from games.services.errors import GameError


def check_ply(ply: object) -> None:
    """Raises GameError("bad_request") unless ``ply`` is an integer (not a bool)."""
    if not is_int(ply):
        raise GameError("bad_request", gettext("ply must be an integer"))


def check_point_shape(point: object) -> None:
    """Raises GameError("bad_request") unless ``point`` is two integers."""
    if not (isinstance(point, list | tuple) and len(point) == 2 and all(map(is_int, point))):
        raise GameError("bad_request", gettext("point must be [row, col], two integers"))


def on_board(game: Game, point: Any) -> rules.Point:
    """``point`` as a rules Point; GameError("bad_request") when off ``game``'s board."""
    row, col = point
    if not (0 <= row < game.size and 0 <= col < game.size):
        raise GameError(
            "bad_request",
            gettext("[%(row)s, %(col)s] is off the %(size)sx%(size)s board")
            % {"row": row, "col": col, "size": game.size},
        )
    return row, col


def check_marking(marking: object) -> None:
    """Raises GameError("bad_request") unless ``marking`` is None or an integer."""
    if marking is not None and not is_int(marking):
        raise GameError("bad_request", gettext("marking must be an integer"))


def is_int(value: object) -> bool:
    """Whether ``value`` is an int and not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def scoring_method(scoring: object) -> go.ScoringMethod:
    """``scoring`` checked: ``territory`` or ``area``, else GameError("bad_request")."""
    if scoring == "territory":
        return "territory"
    if scoring == "area":
        return "area"
    raise GameError("bad_request", gettext("scoring must be territory or area"))
