"""tournaments.systems.sheets: a player's line a round, as the cross-table shows it."""

from __future__ import annotations

import pytest

from tournaments.systems.records import Played
from tournaments.systems.sheets import RoundLine, result_for, round_sheet, round_sheets

# (the rule, the pairing, player 1's result in it)
RESULTS = [
    ("black wins as black", Played(1, 1, 2, "black"), "win"),
    ("black loses as black", Played(1, 1, 2, "white"), "loss"),
    ("white wins as white", Played(1, 2, 1, "white"), "win"),
    ("a draw is a draw for both", Played(1, 2, 1, "draw"), "draw"),
    ("a bye", Played(1, 1, None, "bye"), "bye"),
    (
        "the opponent never moved: a win without a game",
        Played(1, 2, 1, "white", forfeit=True),
        "forfeit_win",
    ),
    (
        "the player never moved: a loss without a game",
        Played(1, 1, 2, "white", forfeit=True),
        "forfeit_loss",
    ),
    ("a game being played has no result yet", Played(1, 1, 2, None), None),
]


@pytest.mark.parametrize(
    ("game", "result"), [row[1:] for row in RESULTS], ids=[row[0] for row in RESULTS]
)
def test_a_result_is_read_from_the_players_side(game: Played, result: str | None) -> None:
    assert result_for(game, 1) == result


def test_the_other_side_of_a_forfeit_is_the_other_result() -> None:
    game = Played(1, 1, 2, "white", forfeit=True)
    assert (result_for(game, 1), result_for(game, 2)) == ("forfeit_loss", "forfeit_win")


@pytest.mark.parametrize("game", [Played(1, 2, 3, "black"), Played(1, 2, None, "bye")])
def test_a_player_not_in_the_pairing_has_no_result(game: Played) -> None:
    with pytest.raises(ValueError):
        result_for(game, 1)


def test_a_sheet_is_one_line_a_round_the_player_was_paired_in_in_round_order() -> None:
    games = [
        Played(3, 1, None, "bye"),
        Played(1, 2, 1, "draw"),
        Played(1, 3, 4, "black"),  # not player 1's
        Played(4, 1, 3, None),
        # Round 2: player 1 withdrew for a round; no line.
        Played(2, 2, 3, "white", forfeit=True),
    ]
    assert round_sheet(1, games) == (
        RoundLine(1, 2, "white", "draw"),
        RoundLine(3, None, None, "bye"),
        RoundLine(4, 3, "black", None),
    )
    assert round_sheet(3, games) == (
        RoundLine(1, 4, "black", "win"),
        RoundLine(2, 2, "white", "forfeit_win"),
        RoundLine(4, 1, "white", None),
    )


def test_a_player_without_a_pairing_has_an_empty_sheet() -> None:
    assert round_sheet(9, [Played(1, 1, 2, "black")]) == ()


def test_every_players_sheet_at_once_is_each_ones_own() -> None:
    games = [Played(1, 1, 2, "black"), Played(1, 3, None, "bye"), Played(2, 3, 1, "draw")]
    sheets = round_sheets([1, 2, 3, 4], games)
    assert sheets == {player: round_sheet(player, games) for player in (1, 2, 3, 4)}
    assert sheets[4] == ()
