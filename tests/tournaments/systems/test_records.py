"""tournaments.systems.records: a pairing's fields must agree with each other."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.systems.records import Played

# (what is wrong, the fields)
WRONG: list[tuple[str, dict[str, Any]]] = [
    ("a bye with a white player", {"black": 1, "white": 2, "result": "bye"}),
    ("a game without a white player", {"black": 1, "white": None, "result": "black"}),
    ("a game in progress without one", {"black": 1, "white": None, "result": None}),
    ("a player against itself", {"black": 1, "white": 1, "result": None}),
    ("an unknown result", {"black": 1, "white": 2, "result": "win"}),
    ("a forfeit drawn", {"black": 1, "white": 2, "result": "draw", "forfeit": True}),
    ("a forfeit in progress", {"black": 1, "white": 2, "result": None, "forfeit": True}),
    ("a bye forfeited", {"black": 1, "white": None, "result": "bye", "forfeit": True}),
]


@pytest.mark.parametrize("fields", [row[1] for row in WRONG], ids=[row[0] for row in WRONG])
def test_contradictions_are_refused(fields: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Played(round=1, **fields)


def test_a_game_knows_its_players_colours_and_opponents() -> None:
    game = Played(3, black=1, white=2, result=None)
    assert game.players == (1, 2)
    assert (game.colour_of(1), game.colour_of(2)) == ("black", "white")
    assert (game.opponent_of(1), game.opponent_of(2)) == (2, 1)
    assert not game.is_bye


def test_a_bye_has_one_player_no_colour_and_no_opponent() -> None:
    bye = Played(3, black=1, white=None, result="bye")
    assert bye.is_bye and bye.players == (1,) and bye.opponent_of(1) is None
    with pytest.raises(ValueError):
        bye.colour_of(1)


def test_a_player_not_in_the_pairing_has_neither() -> None:
    game = Played(3, black=1, white=2, result="draw")
    with pytest.raises(ValueError):
        game.colour_of(3)
    with pytest.raises(ValueError):
        game.opponent_of(3)
