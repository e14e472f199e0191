"""The Swiss system (Othello clubs, lichess Swiss): fixed rounds, each paired once the one
before has ended.

Scoring: a win 1, a draw 0.5, a loss 0, a bye 1 (worth a win). Tiebreaks, in order:

- ``buchholz``: the sum of the scores of the opponents met in finished games;
- ``sonneborn_berger``: the sum of the scores of the opponents beaten, plus half those
  of the opponents drawn;
- ``disc_difference`` (Othello): the sum over finished games of one's discs minus the
  opponent's.

A bye has no opponent: it scores 1 and adds nothing to any tiebreak (no virtual opponent,
unlike FIDE's rule), so a player who had a bye has one opponent fewer in its Buchholz.

Pairing (``pair_swiss``): a maximum-weight matching (networkx) over the allowed pairs.

- Hard rules, never relaxed: no two players meet twice; nobody gets the same colour three
  games running (byes are not games: black, bye, black forbids a third black); nobody gets
  a second bye. A pair whose two players must both have the same colour is not allowed.
- The odd player out gets the bye: the lowest in the standings who has had none; the next
  one up only if the others cannot be paired without it.
- Among the pairings of everybody, the weights choose, each criterion worth more than all
  the later ones together: most pairs within a score group (leaders meet leaders), then
  the least total score difference, then the most players given the colour they are due,
  then within a score group the top half meeting the bottom half in order (FIDE's Dutch
  system, which lichess Swiss uses through bbpPairings).
- The colour a player is due: the one it must have (after two of the same), else the one
  it has had less, else the other of its last one; between two players due the same
  colour, the one further from balance gets it, then the higher in the standings. Pairs
  of players with no colour history (round 1) alternate down the boards: black to the
  higher player on boards 1, 3, 5 ..., white on boards 2, 4, 6 ...

Speed: networkx's blossom algorithm costs about (players x edges). Up to 80 players
every allowed pair is offered and the weights hold exactly. Above, a first try offers
each player only a few partners (``Offer``: its Dutch neighbours in its score group, its
nearest neighbours in the standings, and for the lowest few of a group the highest few
of the next groups below); if that leaves anyone unpaired, more; then every allowed
pair. The score-group preference is what the limited tries may give up (a perfect
pairing among the pairs offered wins, even if one with fewer floats was not offered);
the hard rules are never given up: a round that cannot be paired with them raises
``PairingError``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Literal

from tournaments.systems.matching import best_pairs
from tournaments.systems.records import Entrant, PairingError, Played, Standing

Colour = Literal["black", "white"]

WIN, DRAW, LOSS, BYE = 1.0, 0.5, 0.0, 1.0
TIEBREAKS: tuple[str, str] = ("buchholz", "sonneborn_berger")
OTHELLO_TIEBREAKS = (*TIEBREAKS, "disc_difference")


@dataclass(frozen=True)
class Offer:
    """Which allowed pairs a try offers the matching: each player's ``dutch`` nearest to
    its Dutch partner in its score group, its ``nearest`` neighbours below it and above
    it in the standings (in the same half, so that a group's odd player can be anywhere
    in it; across groups at the ends of a McMahon, where groups are of one player), and
    the ``floats`` lowest of each score group against the ``floats`` highest of each of
    the ``floats`` groups below it (a float may have to pass over a whole group)."""

    dutch: int
    nearest: int
    floats: int


EXACT_UP_TO = 80
"""Players to pair up to which every allowed pair is offered at once (a round of 80 is
matched in about 0.1 s): the weights' order then holds exactly."""
TRIES: tuple[Offer | None, ...] = (Offer(6, 2, 3), Offer(12, 6, 4), None)
"""Above ``EXACT_UP_TO``, the pairs offered at each try, in turn until one pairs everybody;
None offers every allowed pair. Measured (``bench/tournaments.py``, 500 players, 18
seeds, rounds 1 to 6 of a Swiss and of a McMahon): the first try paired every round, in
0.5 to 0.7 s of CPU."""


@dataclass(frozen=True)
class History:
    """What the rounds so far say of one player.

    ``points``: from results (a bye 1); ``results``: (opponent, points earned) for each
    finished game; ``opponents``: everyone met, in finished games or not; ``colours``: in
    round order, byes left out; ``disc_difference``: discs minus the opponent's, summed
    over finished games with disc counts.
    """

    id: int
    points: float
    results: tuple[tuple[int, float], ...]
    opponents: frozenset[int]
    colours: tuple[Colour, ...]
    byes: int
    disc_difference: int


@dataclass(frozen=True)
class SwissRound:
    """A round's pairings as ``(black, white)``, best boards first, and who has the bye."""

    pairings: tuple[tuple[int, int], ...]
    bye: int | None


def earned(game: Played, player: int) -> float | None:
    """The points ``player`` earned in ``game`` (a bye 1); None while in progress."""
    if game.result is None:
        return None
    if game.result == "bye":
        return BYE
    if game.result == "draw":
        return DRAW
    return WIN if game.result == game.colour_of(player) else LOSS


def histories(players: Iterable[int], games: Iterable[Played]) -> dict[int, History]:
    """The history of each of ``players`` (by id) from ``games`` (any order; the colours
    are put in round order)."""
    games_of: dict[int, list[Played]] = {player: [] for player in players}
    for game in sorted(games, key=lambda game: game.round):
        for player in game.players:
            if player in games_of:
                games_of[player].append(game)
    return {player: history_of(player, played) for player, played in games_of.items()}


def history_of(player: int, games: Sequence[Played]) -> History:
    """``player``'s history from its ``games``, in round order."""
    results: list[tuple[int, float]] = []
    opponents: set[int] = set()
    discs = 0
    points = 0.0
    for game in games:
        opponent = game.opponent_of(player)
        gained = earned(game, player)
        points += gained or 0.0
        if opponent is None:
            continue
        opponents.add(opponent)
        if gained is None:
            continue
        results.append((opponent, gained))
        if game.black_discs is not None and game.white_discs is not None:
            difference = game.black_discs - game.white_discs
            discs += difference if game.colour_of(player) == "black" else -difference
    return History(
        id=player,
        points=points,
        results=tuple(results),
        opponents=frozenset(opponents),
        colours=tuple(game.colour_of(player) for game in games if not game.is_bye),
        byes=sum(1 for game in games if game.is_bye),
        disc_difference=discs,
    )


def entrant_histories(entrants: Iterable[Entrant], games: Iterable[Played]) -> dict[int, History]:
    """The histories of ``entrants`` by id; raises ValueError if a game names a player who
    is not one (the tiebreaks need every opponent's score), or an entrant twice."""
    ids = [entrant.id for entrant in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("an entrant is listed twice")
    games = list(games)
    for game in games:
        for player in game.players:
            if player not in ids:
                raise ValueError(f"player {player} of round {game.round} is not an entrant")
    return histories(ids, games)


def buchholz(history: History, scores: Mapping[int, float]) -> float:
    """The sum of the ``scores`` of the opponents ``history`` met in finished games."""
    return sum(scores[opponent] for opponent, _ in history.results)


def sonneborn_berger(history: History, scores: Mapping[int, float]) -> float:
    """The sum of the ``scores`` of the opponents ``history`` beat, plus half those of
    the opponents it drew."""
    return sum(scores[opponent] * gained for opponent, gained in history.results)


def swiss_scores(
    entrants: Iterable[Entrant], games: Iterable[Played], *, discs: bool = False
) -> dict[int, Standing]:
    """Every entrant's standing by id: its score and tiebreaks (``TIEBREAKS``, or
    ``OTHELLO_TIEBREAKS`` when ``discs``). Games in progress count for nothing yet.

    Raises ValueError if a game names a player who is not an entrant (withdrawn players
    stay entrants: their scores count in their opponents' tiebreaks).
    """
    return standings(entrants, games, {}, TIEBREAKS, discs=discs)


def standings(
    entrants: Iterable[Entrant],
    games: Iterable[Played],
    start_scores: Mapping[int, float],
    names: tuple[str, str],
    *,
    discs: bool = False,
) -> dict[int, Standing]:
    """Every entrant's standing by id, its score counting its start score (0 if none):
    Buchholz and Sonneborn-Berger on those scores under ``names`` (McMahon calls them SOS
    and SODOS), then the disc difference when ``discs``.

    Raises ValueError if a game names a player who is not an entrant.
    """
    found = entrant_histories(entrants, games)
    scores = {
        player: start_scores.get(player, 0.0) + history.points for player, history in found.items()
    }
    opponents, beaten = names
    return {
        player: Standing(
            id=player,
            score=scores[player],
            tiebreaks={
                opponents: buchholz(history, scores),
                beaten: sonneborn_berger(history, scores),
                **({"disc_difference": float(history.disc_difference)} if discs else {}),
            },
        )
        for player, history in found.items()
    }


# Colours


@dataclass(frozen=True)
class Due:
    """The colour a player is due: ``must`` after two games of one colour, ``wants`` the
    colour it should rather have (None: no history), ``strength`` how far it is from
    balance (|blacks - whites|)."""

    must: Colour | None
    wants: Colour | None
    strength: int


def other(colour: Colour) -> Colour:
    """The other colour."""
    return "white" if colour == "black" else "black"


def due(colours: Sequence[Colour]) -> Due:
    """The colour due after ``colours`` (in order, byes left out).

    >>> due(["black", "black"])
    Due(must='white', wants='white', strength=2)
    >>> due(["white", "black", "black", "white"])
    Due(must=None, wants='black', strength=0)
    """
    balance = colours.count("black") - colours.count("white")
    must = other(colours[-1]) if len(colours) >= 2 and colours[-1] == colours[-2] else None
    if must is not None:
        wants: Colour | None = must
    elif balance:
        wants = "white" if balance > 0 else "black"
    else:
        wants = other(colours[-1]) if colours else None
    return Due(must, wants, abs(balance))


def black_of(higher: Due, lower: Due) -> Literal["higher", "lower"] | None:
    """Which of two players gets black, ``higher`` being the one higher in the standings;
    None when their colours are free (neither has a history). Raises PairingError if both
    must have the same colour."""
    if higher.must is not None and higher.must == lower.must:
        raise PairingError(f"both must have {higher.must}")
    if higher.must is not None:
        return "higher" if higher.must == "black" else "lower"
    if lower.must is not None:
        return "lower" if lower.must == "black" else "higher"
    if higher.wants is None and lower.wants is None:
        return None
    if higher.wants is None or (lower.wants is not None and lower.strength > higher.strength):
        return "lower" if lower.wants == "black" else "higher"
    return "higher" if higher.wants == "black" else "lower"


def content(higher: Due, lower: Due) -> int:
    """How many of the two get the colour they want (a player with no history is always
    content). Raises PairingError if both must have the same colour."""
    black = black_of(higher, lower)
    higher_gets: Colour = "white" if black == "lower" else "black"
    return (higher.wants in (None, higher_gets)) + (lower.wants in (None, other(higher_gets)))


# Pairing


@dataclass(frozen=True)
class Seat:
    """A player about to be paired: its score (with any start score), its place in the
    standings (0 the top), what it has met, and the colour it is due."""

    id: int
    score: float
    place: int
    opponents: frozenset[int]
    due: Due


def pair_swiss(
    entrants: Sequence[Entrant],
    games: Iterable[Played],
    round_number: int,
    start_scores: Mapping[int, float] | None = None,
) -> SwissRound:
    """The pairings of round ``round_number`` for ``entrants`` (the players to pair:
    withdrawn players left out), from every pairing of the rounds before (``games``,
    which may name withdrawn players). ``start_scores``: added to each player's points
    (McMahon); 0 for a player not in it.

    The standings order is score, then rating, then joining order, then id. See the
    module's docstring for the rules and the weights.

    Raises ValueError if ``games`` holds a game of this round or a later one, a game still
    in progress, or an entrant twice; PairingError when the round cannot be paired within
    the hard rules (everyone met, colours that cannot alternate, byes all used). That is
    known only once every allowed pair has been offered for each possible bye: quick for
    the few players who can run out of opponents, slow (tens of seconds) for hundreds.
    """
    ids = [entrant.id for entrant in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("an entrant is listed twice")
    games = list(games)
    for game in games:
        if game.round >= round_number:
            raise ValueError(f"round {game.round} is already paired, before {round_number}")
        if game.result is None:
            raise ValueError(f"round {game.round} still has a game in progress")
    found = histories(ids, games)
    starts = start_scores or {}
    score = {player: starts.get(player, 0.0) + found[player].points for player in ids}
    order = sorted(entrants, key=lambda e: (-score[e.id], -e.rating, e.joined_order, e.id))
    seats = [
        Seat(
            id=entrant.id,
            score=score[entrant.id],
            place=place,
            opponents=found[entrant.id].opponents,
            due=due(found[entrant.id].colours),
        )
        for place, entrant in enumerate(order)
    ]
    if not seats:
        raise PairingError(f"round {round_number} has no players to pair")
    byes: list[Seat | None] = [None]
    if len(seats) % 2:
        byes = [seat for seat in reversed(seats) if found[seat.id].byes == 0]
        if not byes:
            raise PairingError(f"round {round_number}: everyone has had a bye already")
    for bye in byes:
        pairs = pair_seats([seat for seat in seats if seat is not bye])
        if pairs is not None:
            return SwissRound(pairings=coloured(pairs), bye=None if bye is None else bye.id)
    raise PairingError(
        f"round {round_number} cannot be paired without a rematch, a third colour in a row"
        " or a second bye"
    )


def allowed(a: Seat, b: Seat) -> bool:
    """Whether ``a`` and ``b`` may meet: never before, and not both bound to one colour."""
    return b.id not in a.opponents and not (a.due.must is not None and a.due.must == b.due.must)


def pair_seats(seats: Sequence[Seat]) -> list[tuple[Seat, Seat]] | None:
    """Everybody in ``seats`` (an even number, in standings order) paired as
    ``(higher, lower)``, best boards first; None if the hard rules allow no such pairing.

    Tries ``TRIES`` in turn: the first that pairs everybody wins.
    """
    by_id = {seat.id: seat for seat in seats}
    groups = score_groups(seats)
    weigh = weigher(seats, groups)
    for offer in TRIES if len(seats) > EXACT_UP_TO else (None,):
        edges = {
            (min(a.id, b.id), max(a.id, b.id)): weigh(a, b)
            for a, b in candidates(seats, groups, offer)
        }
        pairs = best_pairs((a, b, weight) for (a, b), weight in edges.items())
        if 2 * len(pairs) == len(seats):
            ordered = [sorted((by_id[a], by_id[b]), key=lambda s: s.place) for a, b in pairs]
            return sorted(((high, low) for high, low in ordered), key=lambda p: p[0].place)
    return None


@dataclass(frozen=True)
class Groups:
    """The score groups of the players to pair: ``members`` by score, in standings order,
    and each player's ``place`` (from 0) in its group, by id."""

    members: Mapping[float, Sequence[Seat]]
    place: Mapping[int, int]

    def dutch_gap(self, a: Seat, b: Seat) -> int:
        """How far ``a`` and ``b``, of one score group, are from being Dutch partners
        (the top half's first against the bottom half's first, and so on): 0 for
        partners, the places one of them is moved along the bottom half otherwise, and
        the group's size (the most) for two of the same half."""
        size = len(self.members[a.score])
        high, low = sorted((self.place[a.id], self.place[b.id]))
        if not high < size // 2 <= low:
            return size
        return abs(low - size // 2 - high)


def score_groups(seats: Sequence[Seat]) -> Groups:
    """The score groups of ``seats`` (in standings order)."""
    members: dict[float, list[Seat]] = defaultdict(list)
    for seat in seats:
        members[seat.score].append(seat)
    place = {seat.id: index for group in members.values() for index, seat in enumerate(group)}
    return Groups(members, place)


def candidates(
    seats: Sequence[Seat], groups: Groups, offer: Offer | None
) -> Iterator[tuple[Seat, Seat]]:
    """The allowed pairs that ``offer`` offers the matching (some twice, both ways
    round); for None, every allowed pair."""
    for index, a in enumerate(seats):
        below = (b for b in seats[index + 1 :] if allowed(a, b))
        if offer is None:
            yield from ((a, b) for b in below)
            continue
        above = (b for b in reversed(seats[:index]) if allowed(a, b))
        # Both ways: the first and the last in the standings need partners of their own.
        yield from ((a, b) for b in islice(below, offer.nearest))
        yield from ((a, b) for b in islice(above, offer.nearest))
        same = (b for b in groups.members[a.score] if b is not a and allowed(a, b))
        nearest = sorted(same, key=lambda b: groups.dutch_gap(a, b))
        yield from ((a, b) for b in nearest[: offer.dutch])
    if offer is None:
        return
    ordered = sorted(groups.members.items(), reverse=True)
    for index, (_, upper) in enumerate(ordered):
        # Groups further down are reached through the floats of the groups between; a
        # McMahon has dozens of groups, and every pair of them would be thousands of edges.
        for _, lower in ordered[index + 1 : index + 1 + offer.floats]:
            yield from (
                (a, b)
                for a in upper[-offer.floats :]
                for b in lower[: offer.floats]
                if allowed(a, b)
            )


def weigher(seats: Sequence[Seat], groups: Groups) -> Callable[[Seat, Seat], int]:
    """The weight of a pair of ``seats`` (larger better): pairs within a score group, then
    small score differences, then colours as due, then Dutch order. Each criterion's unit
    is more than the lesser ones can add up to over a whole round, so the matching weighs
    them strictly in that order."""
    pairs = len(seats) // 2
    scores = [seat.score for seat in seats]
    widest = half_points(max(scores, default=0.0) - min(scores, default=0.0))
    order_unit = 1
    order_top = len(seats) + 1
    colour_unit = pairs * order_top + 1
    difference_unit = pairs * (2 * colour_unit + order_top) + 1
    group_unit = pairs * (widest * difference_unit + 2 * colour_unit + order_top) + 1

    def weigh(a: Seat, b: Seat) -> int:
        higher, lower = sorted((a, b), key=lambda seat: seat.place)
        difference = half_points(a.score - b.score)
        # Across groups the nearest in the standings: the bottom of one meets the top of
        # the next.
        gap = groups.dutch_gap(a, b) if difference == 0 else lower.place - higher.place
        return (
            group_unit * (difference == 0)
            + difference_unit * (widest - difference)
            + colour_unit * content(higher.due, lower.due)
            + order_unit * (order_top - gap)
        )

    return weigh


def half_points(score: float) -> int:
    """A score difference counted in half points, as a whole number."""
    return round(2 * abs(score))


def coloured(pairs: Sequence[tuple[Seat, Seat]]) -> tuple[tuple[int, int], ...]:
    """The ``(higher, lower)`` pairs, best boards first, as ``(black, white)``: as due,
    and pairs with no colour history alternating down the boards (black to the higher
    player on boards 1, 3, 5 ...)."""
    made = []
    for board, (higher, lower) in enumerate(pairs):
        black = black_of(higher.due, lower.due)
        if black is None:
            black = "higher" if board % 2 == 0 else "lower"
        made.append((higher.id, lower.id) if black == "higher" else (lower.id, higher.id))
    return tuple(made)
