"""games.services.refusals: the one stale-ply check (``refuse_stale``), answered the same by
a move, a pass, and asking for, accepting or declining a take-back."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.players import Player
from games.models import Game
from games.services import play, table
from games.services.errors import GameError
from games.services.refusals import refuse_stale
from tests.games.services.test_services import start

pytestmark = pytest.mark.django_db


def test_a_ply_that_is_not_the_games_is_stale() -> None:
    game = Game(ply=3)

    refuse_stale(game, 3)
    with pytest.raises(GameError) as caught:
        refuse_stale(game, 2)

    assert caught.value.code == "stale"
    assert caught.value.message == "the game is at ply 3, not 2"


@pytest.mark.parametrize(
    ("call", "arguments"),
    [
        (play.play, {"point": [2, 4]}),
        (play.pass_turn, {}),
        (table.ask_undo, {}),
        (table.accept_undo, {}),
        (table.decline_undo, {}),
    ],
)
def test_every_request_for_an_old_ply_is_stale(
    black: Player, white: Player, call: Any, arguments: dict[str, Any]
) -> None:
    game = start(black, white)
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
    table.ask_undo(player=black, game_id=game.public_id, ply=1)
    player = black if call in (play.play, play.pass_turn, table.ask_undo) else white

    with pytest.raises(GameError) as caught:
        call(player=player, game_id=game.public_id, ply=0, **arguments)

    assert (caught.value.code, caught.value.message) == ("stale", "the game is at ply 1, not 0")
