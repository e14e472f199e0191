"""The arena, as lichess's (``arena/ScoringSystem.scala``, ``arena/PairingSystem.scala``).

Scoring, game by game in the order each player played them:

- a win is 2, a draw 1, a loss 0;
- after two wins in a row a player is on fire: while on fire a win is 4 and a draw 2
  (the game that is not a win still scores double, then the fire is out);
- a berserk win is worth 1 more when the berserker made at least 7 moves, on fire too
  (so 3, or 5 on fire); a berserk draw or loss scores as any other;
- a game in progress scores nothing yet; it counts when it ends, even after the end.

Pairing, in waves of the players free now: by score then rating, never the same
opponent as one's last; no new pairing in the last minute (``arena_can_pair``).

>>> games = [Played(1, 1, 2, "black"), Played(2, 1, 3, "black"), Played(3, 1, 2, "black"),
...          Played(4, 3, 1, "draw"), Played(5, 1, 3, "white", white_berserk=True,
...          white_moves=7)]
>>> table = arena_scores([Entrant(1, 1500.0), Entrant(2, 1500.0), Entrant(3, 1500.0)], games)
>>> table[1].points, table[1].score, table[1].fire
((2, 2, 4, 2, 0), 10, False)
>>> table[3].points, table[3].streak
((0, 1, 3), 1)
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Literal

from tournaments.systems.matching import best_pairs
from tournaments.systems.ranking import ranked
from tournaments.systems.records import Entrant, Played

WIN, DRAW, LOSS = 2, 1, 0
ON_FIRE = 2
"""What a win or a draw is multiplied by while on fire."""
FIRE_AFTER = 2
"""Wins in a row that set a player on fire."""
BERSERK_BONUS = 1
BERSERK_MOVES = 7
"""Moves the berserker must have made for a win to earn the bonus."""
PERFORMANCE_MARGIN = 500.0
"""What a win adds to (a loss takes from) the opponent's rating in the performance."""
LAST_MINUTE = datetime.timedelta(minutes=1)

CHUNK = 100
"""Free players matched together at most, in standings order, as lila's ``maxGroupSize``:
networkx's blossom algorithm costs about (players x edges), so ten groups of 100 are
matched in a tenth of the time one group of 1,000 would take."""
NEIGHBOURS = 6
"""Allowed opponents each free player is offered below it in the standings: pairs are
made between neighbours, and more edges only slow the matching down."""
RANK_GAP_COST = 1000
"""The cost of the places between two players, squared, against 1 a rating point: places
first, ratings between equal places (lila's ``AntmaPairing`` counts places x 1000; the
square makes two pairs 2 places apart better than one 3 and one 1 apart, which a plain
sum leaves to chance)."""


@dataclass(frozen=True)
class ArenaStanding:
    """A player's arena standing.

    ``points``: what each finished game scored, in the order played; ``streak``: wins in
    a row at the end; ``fire``: whether the next win would score double; ``performance``:
    the mean, over finished games, of the opponent's rating + 500 for a win, - 500 for a
    loss (None before a first finished game); ``blacks``/``whites``: games with each
    colour, in progress included (for the colour of the next one); ``sheet``: a line a
    game, in progress included (``arena_sheet``).
    """

    id: int
    rating: float
    score: int
    points: tuple[int, ...]
    streak: int
    fire: bool
    performance: float | None
    blacks: int
    whites: int
    sheet: tuple[ArenaLine, ...] = ()


Outcome = Literal["win", "draw", "loss"]


def game_points(outcome: Outcome, *, on_fire: bool, berserk: bool, moves: int) -> int:
    """What one finished game scores for a player: ``outcome`` for that player, whether
    the player was on fire before it, went berserk, and how many moves it made."""
    base = {"win": WIN, "draw": DRAW, "loss": LOSS}[outcome]
    bonus = BERSERK_BONUS if outcome == "win" and berserk and moves >= BERSERK_MOVES else 0
    return base * (ON_FIRE if on_fire else 1) + bonus


def white_of(game: Played) -> int:
    """The white player of an arena game; raises ValueError for a bye (arenas have none)."""
    if game.white is None:
        raise ValueError(f"an arena has no byes (round {game.round}, player {game.black})")
    return game.white


def arena_scores(entrants: Iterable[Entrant], games: Iterable[Played]) -> dict[int, ArenaStanding]:
    """Every entrant's standing, by id, from all the games so far (each player's games
    taken in the order of ``round``; equal rounds keep their given order).

    Raises ValueError for a game naming a player who is not an entrant, or a bye.
    """
    ratings = {entrant.id: entrant.rating for entrant in entrants}
    by_player: dict[int, list[Played]] = {player: [] for player in ratings}
    for game in sorted(games, key=lambda game: game.round):
        for player in game.players:
            if player not in by_player:
                raise ValueError(f"player {player} of round {game.round} is not an entrant")
            by_player[player].append(game)
    return {player: standing_of(player, ratings, played) for player, played in by_player.items()}


@dataclass(frozen=True)
class ArenaLine:
    """One game of a player's score sheet, in the order played: its ``round`` (the wave),
    the player's ``outcome`` and the ``points`` it scored (both None while it is played),
    whether the player was on ``fire`` when it began (a win or a draw then scores
    double), and whether the player went ``berserk`` in it."""

    round: int
    outcome: Outcome | None
    points: int | None
    fire: bool
    berserk: bool


def arena_sheet(player: int, games: Sequence[Played]) -> tuple[ArenaLine, ...]:
    """``player``'s score sheet from its ``games`` in the order played.

    >>> sheet = arena_sheet(1, [Played(1, 1, 2, "black"), Played(2, 3, 1, "white"),
    ...                         Played(3, 1, 4, "black", black_berserk=True, black_moves=9),
    ...                         Played(4, 5, 1, None)])
    >>> [(line.points, line.fire, line.berserk) for line in sheet]
    [(2, False, False), (2, False, False), (5, True, True), (None, True, False)]

    Raises ValueError for a bye, or a game ``player`` is not in."""
    lines: list[ArenaLine] = []
    streak = 0
    for game in games:
        white_of(game)
        mine = game.colour_of(player)
        berserk = game.black_berserk if mine == "black" else game.white_berserk
        on_fire = streak >= FIRE_AFTER
        if game.result is None:
            lines.append(ArenaLine(game.round, None, None, on_fire, berserk))
            continue
        outcome: Outcome = (
            "draw" if game.result == "draw" else "win" if game.result == mine else "loss"
        )
        moves = game.black_moves if mine == "black" else game.white_moves
        points = game_points(outcome, on_fire=on_fire, berserk=berserk, moves=moves)
        lines.append(ArenaLine(game.round, outcome, points, on_fire, berserk))
        streak = streak + 1 if outcome == "win" else 0
    return tuple(lines)


def standing_of(player: int, ratings: Mapping[int, float], games: list[Played]) -> ArenaStanding:
    """``player``'s standing from its ``games`` in the order played; ``ratings`` of all
    entrants, for the performance. Raises ValueError for a bye."""
    sheet = arena_sheet(player, games)
    streak = 0
    performances: list[float] = []
    margin = {"win": PERFORMANCE_MARGIN, "draw": 0.0, "loss": -PERFORMANCE_MARGIN}
    for game, line in zip(games, sheet, strict=True):
        if line.outcome is None:
            continue
        streak = streak + 1 if line.outcome == "win" else 0
        opponent = white_of(game) if game.colour_of(player) == "black" else game.black
        performances.append(ratings[opponent] + margin[line.outcome])
    points = tuple(line.points for line in sheet if line.points is not None)
    colours = [game.colour_of(player) for game in games]
    return ArenaStanding(
        id=player,
        rating=ratings[player],
        score=sum(points),
        points=points,
        streak=streak,
        fire=streak >= FIRE_AFTER,
        performance=sum(performances) / len(performances) if performances else None,
        blacks=colours.count("black"),
        whites=colours.count("white"),
        sheet=sheet,
    )


def last_opponents(games: Iterable[Played]) -> dict[int, int]:
    """Each player's opponent in its latest game (by ``round``, in progress or not), by
    player; players without a game are absent. Raises ValueError for a bye."""
    found: dict[int, int] = {}
    for game in sorted(games, key=lambda game: game.round):
        white = white_of(game)
        found[game.black], found[white] = white, game.black
    return found


def arena_rank(standings: Iterable[ArenaStanding]) -> list[tuple[int, ArenaStanding]]:
    """The standings best first, each with its rank (ties share one): by score, then, as
    lila's ``magicScore``, by performance, or the rating for a player without a finished
    game; equal on both, listed by id."""
    return ranked(
        sorted(standings, key=lambda standing: standing.id),
        lambda standing: (
            standing.score,
            standing.rating if standing.performance is None else standing.performance,
        ),
    )


def arena_can_pair(now: datetime.datetime, ends_at: datetime.datetime) -> bool:
    """Whether a wave may still make pairings at ``now``: not in the last minute before
    ``ends_at``. Raises TypeError if one is timezone-aware and the other not."""
    return now < ends_at - LAST_MINUTE


def pair_arena(
    free: Sequence[Entrant],
    standings: Mapping[int, ArenaStanding],
    last_opponent: Mapping[int, int | None],
    rng: random.Random,
) -> list[tuple[int, int]]:
    """The games to start now among the ``free`` players (in the order they became
    free), as ``(black, white)``, best boards first.

    The free players are ordered by score (``standings``; 0 for a player without one),
    then rating, then joining order; each is matched to a neighbour in that order, groups
    of ``CHUNK`` at a time, as a maximum-cardinality matching of least total cost (places
    apart squared x 1000 + rating points apart). Nobody meets the opponent of its last game
    (``last_opponent``) again: a player whose only possible opponents are such waits for
    the next wave. Of an odd number, the one who became free last waits (as lila's
    ``WaitingUsers.evenNumber``), unless another is left over to play it. Black goes to
    the player who has had black less often than white (``blacks - whites``), a coin
    toss of ``rng`` between equals.

    Raises ValueError if a player is free twice.
    """
    ids = [entrant.id for entrant in free]
    if len(set(ids)) != len(ids):
        raise ValueError("a player is free twice in one wave")
    latest = [free[-1].id] if len(free) % 2 else []

    def score(entrant: Entrant) -> int:
        standing = standings.get(entrant.id)
        return 0 if standing is None else standing.score

    order = sorted(free, key=lambda e: (-score(e), -e.rating, e.joined_order, e.id))
    place = {entrant.id: index for index, entrant in enumerate(order)}
    rating = {entrant.id: entrant.rating for entrant in order}

    def allowed(a: int, b: int) -> bool:
        return last_opponent.get(a) != b and last_opponent.get(b) != a

    def edge(a: int, b: int) -> tuple[int, int, int]:
        cost = RANK_GAP_COST * (place[a] - place[b]) ** 2 + round(abs(rating[a] - rating[b]))
        # Weights must grow with quality; any bound above every cost will do.
        return a, b, RANK_GAP_COST * (len(order) + 1) ** 2 + 10_000 - cost

    pairs: list[tuple[int, int]] = []
    waiting = list(latest)
    ranked_ids = [entrant.id for entrant in order if entrant.id not in latest]
    for start in range(0, len(ranked_ids), CHUNK):
        group = ranked_ids[start : start + CHUNK]
        edges = [
            edge(a, b)
            for index, a in enumerate(group)
            for b in islice((b for b in group[index + 1 :] if allowed(a, b)), NEIGHBOURS)
        ]
        made = best_pairs(edges)
        pairs.extend(made)
        paired = {player for pair in made for player in pair}
        waiting.extend(player for player in group if player not in paired)
    # The few left over (an odd group, or only last opponents nearby) get one more chance
    # against each other, across groups.
    pairs.extend(
        best_pairs(
            edge(a, b)
            for index, a in enumerate(waiting)
            for b in waiting[index + 1 :]
            if allowed(a, b)
        )
    )
    pairs.sort(key=lambda pair: min(place[pair[0]], place[pair[1]]))
    return [coloured(a, b, standings, rng) for a, b in pairs]


def coloured(
    a: int, b: int, standings: Mapping[int, ArenaStanding], rng: random.Random
) -> tuple[int, int]:
    """``a`` and ``b`` as ``(black, white)``: black to the one with the fewer blacks
    against its whites, a coin toss of ``rng`` between equals."""

    def balance(player: int) -> int:
        standing = standings.get(player)
        return 0 if standing is None else standing.blacks - standing.whites

    if balance(a) == balance(b):
        return (a, b) if rng.random() < 0.5 else (b, a)
    return (a, b) if balance(a) < balance(b) else (b, a)
