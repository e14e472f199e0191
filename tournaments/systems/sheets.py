"""A player's sheet in a tournament of rounds (Swiss, McMahon, round robin): a line a
round it was paired in, in the player's own words, as the page's cross-table shows it.

A line is the round, the opponent (None for a bye), the player's colour (None for a bye)
and the result from the player's side:

- ``win``, ``loss``, ``draw``: a game played to its end (a resignation, a timeout and
  a count alike);
- ``bye``: no game, worth a win;
- ``forfeit_win``: the opponent never made its first move (lost at the first-move
  deadline); ``forfeit_loss``: the player never made its own;
- None: the game is being played.

Rounds in which the player was not paired (it joined later, or withdrew) have no line.

>>> games = [Played(1, 1, 2, "black"), Played(2, 3, 1, "black", forfeit=True),
...          Played(3, 1, None, "bye"), Played(4, 4, 1, None)]
>>> for line in round_sheet(1, games):
...     print(line.round, line.opponent, line.colour, line.result)
1 2 black win
2 3 white forfeit_loss
3 None None bye
4 4 white None
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from tournaments.systems.records import Played

SheetResult = Literal["win", "loss", "draw", "bye", "forfeit_win", "forfeit_loss"]
SHEET_RESULTS: tuple[SheetResult, ...] = (
    "win",
    "loss",
    "draw",
    "bye",
    "forfeit_win",
    "forfeit_loss",
)


@dataclass(frozen=True)
class RoundLine:
    """One round of a player's sheet: ``opponent`` and ``colour`` None for a bye;
    ``result`` None while the game is played."""

    round: int
    opponent: int | None
    colour: Literal["black", "white"] | None
    result: SheetResult | None


def result_for(game: Played, player: int) -> SheetResult | None:
    """``game``'s result from ``player``'s side (None while it is played).

    Raises ValueError if ``player`` is not in ``game``."""
    if game.is_bye:
        if player != game.black:
            raise ValueError(f"player {player} is not in this bye")
        return "bye"
    mine = game.colour_of(player)
    if game.result is None:
        return None
    if game.result == "draw":
        return "draw"
    won = game.result == mine
    if game.forfeit:
        return "forfeit_win" if won else "forfeit_loss"
    return "win" if won else "loss"


def round_sheets(
    players: Iterable[int], games: Iterable[Played]
) -> dict[int, tuple[RoundLine, ...]]:
    """Each of ``players``' sheet by id (``round_sheet``), ``games`` read once."""
    mine: dict[int, list[Played]] = {player: [] for player in players}
    for game in games:
        for player in game.players:
            if player in mine:
                mine[player].append(game)
    return {player: round_sheet(player, played) for player, played in mine.items()}


def round_sheet(player: int, games: Iterable[Played]) -> tuple[RoundLine, ...]:
    """``player``'s lines, in round order, from ``games`` (anyone's: those without the
    player are passed over)."""
    lines = []
    for game in sorted(games, key=lambda game: game.round):
        if player not in game.players:
            continue
        lines.append(
            RoundLine(
                round=game.round,
                opponent=game.opponent_of(player),
                colour=None if game.is_bye else game.colour_of(player),
                result=result_for(game, player),
            )
        )
    return tuple(lines)
