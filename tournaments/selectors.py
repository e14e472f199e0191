"""Reads of tournaments: what the pairing is fed (``Facts``: the entries, their ratings,
every pairing with its game's result), the standings and each player's sheet, the
tournament's JSON (the contract's T) with its chat, the lists of the tournaments page,
and G's ``tournament``.

A pairing's result, moves and discs are read from its game (never copied): a game
finished says who won (``B+...``, ``W+...``, ``Draw``); a game aborted because a side did
not make its first move is lost by that side (a tournament's game is a forfeit, not
nothing: ``forfeited``, read from the stored game's status, abort reason and side to
move); one aborted otherwise (by an administrator) is a draw; any other is in progress.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count

from gamerules.clock import TimeControl
from games.models import Game, Move
from players import glicko2
from players.models import Rating
from tournaments.models import ChatLine, Entry, Tournament, TournamentPairing
from tournaments.systems import arena, mcmahon, ranking, ranks, roundrobin, sheets, swiss
from tournaments.systems.records import Entrant, Played, Result

IN_PROGRESS = (Game.Status.WAITING, Game.Status.ACTIVE, Game.Status.SCORING)
CHAT_SHOWN = 50
"""The chat lines T carries: the latest."""


def category_of(tournament: Tournament) -> str:
    """The rating category of the tournament's games."""
    control = TimeControl.from_json(tournament.time_control)
    return glicko2.category(tournament.kind, tournament.size, control)


def result_of(game: Game | None) -> Result | None:
    """A pairing's result from its game (None: a bye, see ``Facts.played``)."""
    if game is None:
        return "bye"
    if game.status == Game.Status.FINISHED:
        return {"B": "black", "W": "white"}.get(game.result[:1], "draw")  # type: ignore[return-value]
    if game.status == Game.Status.ABORTED:
        if forfeited(game):
            return "white" if game.to_move == "black" else "black"
        return "draw"
    return None


def forfeited(game: Game | None) -> bool:
    """Whether ``game`` ended at the first-move deadline: its side to move
    (``game.to_move``) never made its first move and lost it."""
    return (
        game is not None
        and game.status == Game.Status.ABORTED
        and game.abort_reason == Game.AbortReason.FIRST_MOVE
    )


@dataclass
class Facts:
    """A tournament as its pairing sees it, read in a few queries."""

    tournament: Tournament
    entries: list[Entry]
    pairings: list[TournamentPairing]
    ratings: dict[int, float]
    moves: dict[tuple[int, str], int] = field(default_factory=dict)

    def entrant(self, entry: Entry) -> Entrant:
        rating = self.ratings.get(entry.user_id, glicko2.NEW_PLAYER.rating)
        rank = ranks.rank_from_number(glicko2.rank_number(rating))
        return Entrant(entry.user_id, rating, rank=rank, joined_order=entry.pk)

    def entrants(self) -> list[Entrant]:
        return [self.entrant(entry) for entry in self.entries]

    def busy(self) -> set[int]:
        """The accounts whose game is in progress."""
        found: set[int] = set()
        for pairing in self.pairings:
            if pairing.game is not None and result_of(pairing.game) is None:
                found.add(pairing.black_id)
                if pairing.white_id is not None:
                    found.add(pairing.white_id)
        return found

    def free_since(self) -> dict[int, Any]:
        """When each player became free, by account: its last game's end (players
        without a finished game are absent: they count from their joining)."""
        found: dict[int, Any] = {}
        for pairing in self.pairings:
            game = pairing.game
            if game is None or game.finished_at is None:
                continue
            for player in (pairing.black_id, pairing.white_id):
                if player is not None and (player not in found or found[player] < game.finished_at):
                    found[player] = game.finished_at
        return found

    def absent_since(self) -> dict[int, Any]:
        """The players whose latest game was aborted because they never made their first
        move, by account, with when it was aborted (an arena pauses them: they have
        left)."""
        latest: dict[int, TournamentPairing] = {}
        for pairing in self.pairings:  # in round order
            for player in (pairing.black_id, pairing.white_id):
                if player is not None:
                    latest[player] = pairing
        found = {}
        for player, pairing in latest.items():
            game = pairing.game
            if game is not None and forfeited(game):
                missing = pairing.black_id if game.to_move == "black" else pairing.white_id
                if missing == player:
                    found[player] = game.finished_at
        return found

    def played(self) -> list[Played]:
        """Every pairing so far as ``tournaments.systems`` takes it."""
        found = []
        for pairing in self.pairings:
            game = pairing.game
            result = result_of(game)
            discs: tuple[int | None, int | None] = (None, None)
            if game is not None and game.kind == Game.Kind.OTHELLO and result is not None:
                score = game.score or {}
                if "black" in score and "white" in score:
                    discs = (int(score["black"]), int(score["white"]))
            found.append(
                Played(
                    round=pairing.round,
                    black=pairing.black_id,
                    white=pairing.white_id,
                    result=result,
                    black_discs=discs[0],
                    white_discs=discs[1],
                    black_moves=self.moves.get((pairing.game_id or 0, "black"), 0),
                    white_moves=self.moves.get((pairing.game_id or 0, "white"), 0),
                    black_berserk=pairing.black_berserk,
                    white_berserk=pairing.white_berserk,
                    forfeit=forfeited(game),
                )
            )
        return found


PAIRING_FIELDS = (
    "round",
    "tournament_id",
    "black_id",
    "white_id",
    "black_berserk",
    "white_berserk",
    *(
        f"game__{name}"
        for name in (
            "public_id",
            "kind",
            "status",
            "result",
            "abort_reason",
            "to_move",
            "finished_at",
            "score",
        )
    ),
)
"""What the pairing and the standings read of each pairing and its game (a game's
position, clocks and seats are not read: a thousand games' snapshots cost more than the
rest of a wave)."""


def facts_of(tournament: Tournament) -> Facts:
    """The tournament's ``Facts``: its entries in joining order, its pairings with their
    games, its players' ratings in its category, and the moves of the berserk games."""
    entries = list(Entry.objects.filter(tournament=tournament).order_by("pk"))
    pairings = list(
        TournamentPairing.objects.filter(tournament=tournament)
        .select_related("game")
        .only(*PAIRING_FIELDS)
        .order_by("round", "pk")
    )
    ratings = dict(
        Rating.objects.filter(
            category=category_of(tournament), user_id__in=[entry.user_id for entry in entries]
        ).values_list("user_id", "rating")
    )
    berserk = [
        pairing.game_id
        for pairing in pairings
        if pairing.game_id is not None and (pairing.black_berserk or pairing.white_berserk)
    ]
    moves = {}
    if berserk:
        rows = (
            Move.objects.filter(game_id__in=berserk, action__in=glicko2.PLAYED)
            .values("game_id", "color")
            .annotate(n=Count("id"))
            .values_list("game_id", "color", "n")
        )
        moves = {(game_id, color): n for game_id, color, n in rows}
    return Facts(tournament, entries, pairings, ratings, moves)


def total_rounds(tournament: Tournament, facts: Facts) -> int:
    """How many rounds the tournament has: its ``rounds``, or a round robin's schedule's."""
    if tournament.system == Tournament.System.ROUNDROBIN:
        return len(roundrobin.round_robin([entry.user_id for entry in facts.entries]))
    return tournament.rounds or 0


def tiebreak_order(tournament: Tournament) -> tuple[str, ...]:
    """The names of T's ``tiebreaks``, most important first (none for an arena)."""
    if tournament.system == Tournament.System.ARENA:
        return ()
    if tournament.system == Tournament.System.MCMAHON:
        return mcmahon.TIEBREAKS
    return swiss.OTHELLO_TIEBREAKS if tournament.kind == Game.Kind.OTHELLO else swiss.TIEBREAKS


def usernames(user_ids: Iterable[int]) -> dict[int, str]:
    """The accounts' usernames, by id."""
    model = get_user_model()
    return dict(model.objects.filter(pk__in=list(user_ids)).values_list("pk", model.USERNAME_FIELD))


# The standings and the JSON


def standings(facts: Facts, names: dict[int, str]) -> list[dict[str, Any]]:
    """The players' rows of T, best first: ``username``, ``rating``, ``score``,
    ``tiebreaks``, ``rank``, (arena) ``fire`` and ``performance``, ``games`` (the ids of
    their games), ``sheet`` (``arena_sheet``, ``round_sheet``). ``names``: every
    entrant's username, by account."""
    tournament = facts.tournament
    entrants = facts.entrants()
    played = facts.played()
    games_of: dict[int, list[str]] = {entrant.id: [] for entrant in entrants}
    game_at: dict[tuple[int, int], str] = {}
    for pairing in facts.pairings:
        if pairing.game is not None:
            for player in (pairing.black_id, pairing.white_id):
                if player in games_of:
                    games_of[player].append(pairing.game.public_id)
                    game_at[pairing.round, player] = pairing.game.public_id
    ratings = {entrant.id: entrant.rating for entrant in entrants}
    rows = []
    if tournament.system == Tournament.System.ARENA:
        table = arena.arena_scores(entrants, played)
        for place, standing in arena.arena_rank(table.values()):
            rows.append(
                {
                    "username": names.get(standing.id, ""),
                    "rating": round(standing.rating),
                    "score": standing.score,
                    "tiebreaks": {},
                    "rank": place,
                    "fire": standing.fire,
                    "performance": (
                        None if standing.performance is None else round(standing.performance)
                    ),
                    "games": games_of[standing.id],
                    "sheet": [
                        {
                            "game": game_at[line.round, standing.id],
                            "points": line.points,
                            "fire": line.fire,
                            "berserk": line.berserk,
                        }
                        for line in standing.sheet
                    ],
                }
            )
        return rows
    order = tiebreak_order(tournament)
    if tournament.system == Tournament.System.MCMAHON:
        assert tournament.bar is not None
        found = mcmahon.mcmahon_scores(entrants, played, tournament.bar)
    else:
        found = swiss.swiss_scores(entrants, played, discs="disc_difference" in order)
    lines = sheets.round_sheets(found, played)
    for place, standing in ranking.rank(found.values(), order):
        rows.append(
            {
                "username": names.get(standing.id, ""),
                "rating": round(ratings[standing.id]),
                "score": standing.score,
                "tiebreaks": {name: standing.tiebreaks[name] for name in order},
                "rank": place,
                "games": games_of[standing.id],
                "sheet": [
                    {
                        "round": line.round,
                        "opponent": None if line.opponent is None else names.get(line.opponent),
                        "color": line.colour,
                        "result": line.result,
                    }
                    for line in lines[standing.id]
                ],
            }
        )
    return rows


def tournament_json(tournament: Tournament, facts: Facts | None = None) -> dict[str, Any]:
    """T: ``GET /tournaments/<id>.json`` (docs/api/http.md#get-tournamentsidjson)."""
    facts = facts or facts_of(tournament)
    names = usernames(
        {entry.user_id for entry in facts.entries}
        | {pairing.black_id for pairing in facts.pairings}
        | {pairing.white_id for pairing in facts.pairings if pairing.white_id is not None}
    )
    return {
        "id": tournament.pk,
        "system": tournament.system,
        "name": tournament.name,
        "kind": tournament.kind,
        "size": tournament.size,
        "clock": tournament.time_control,
        "rated": tournament.rated,
        "status": tournament.status,
        "starts_at": tournament.starts_at.isoformat(),
        "ends_at": None if tournament.ends_at is None else tournament.ends_at.isoformat(),
        "round": tournament.round,
        "players": standings(facts, names),
        "pairings": [
            {
                "round": pairing.round,
                "game_id": None if pairing.game is None else pairing.game.public_id,
                "black": names.get(pairing.black_id),
                "white": None if pairing.white_id is None else names.get(pairing.white_id),
                "result": result_of(pairing.game),
            }
            for pairing in facts.pairings
        ],
        "chat": chat(tournament),
    }


def chat(tournament: Tournament) -> list[dict[str, Any]]:
    """T's ``chat``: its latest ``CHAT_SHOWN`` lines, oldest first."""
    latest = (
        ChatLine.objects.filter(tournament=tournament)
        .select_related("user")
        .order_by("-created_at", "-pk")[:CHAT_SHOWN]
    )
    return [chat_line_json(line) for line in reversed(latest)]


def chat_line_json(line: ChatLine) -> dict[str, Any]:
    """A chat line as T and the ``chat`` message carry it: ``{"username", "text", "at"}``
    (ISO 8601)."""
    return {
        "username": line.user.get_username(),
        "text": line.text,
        "at": line.created_at.isoformat(),
    }


def standings_event(tournament_id: int) -> dict[str, Any] | None:
    """The channel-layer event of a tournament's pages: ``{"type": "standings",
    "tournament": T}`` as text, built once for every socket; None for a tournament that
    is not there (deleted meanwhile)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    message = {"type": "standings", "tournament": tournament_json(tournament)}
    return {"type": "tournament.standings", "whole": json.dumps(message, separators=(",", ":"))}


def listed() -> dict[str, list[Tournament]]:
    """``GET /tournaments/``: the upcoming (soonest first), the running and the latest
    finished tournaments, each with its number of players (``players``)."""
    found = Tournament.objects.annotate(players=Count("entries"))
    return {
        "upcoming": list(found.filter(status=Tournament.Status.UPCOMING).order_by("starts_at")),
        "running": list(found.filter(status=Tournament.Status.RUNNING).order_by("starts_at")),
        "finished": list(
            found.filter(status=Tournament.Status.FINISHED).order_by("-starts_at")[:50]
        ),
    }


def entry_of(tournament: Tournament, user_id: int | None) -> Entry | None:
    """The account's entry in the tournament, None for none (or a visitor)."""
    if user_id is None:
        return None
    return Entry.objects.filter(tournament=tournament, user_id=user_id).first()


# G's ``tournament``

KEPT = 4096
_parts: OrderedDict[str, dict[str, Any] | None] = OrderedDict()
_parts_lock = threading.Lock()


def state_part(game: Game) -> dict[str, Any]:
    """G's ``tournament`` (games.selectors.register_state_part): ``{"id", "name",
    "round"}`` of the tournament the game is of, None for any other game. Remembered per
    process, as a game's tournament is written with the game and never changes."""
    if game.pk is None:
        return {"tournament": None}
    key = game.public_id
    with _parts_lock:
        if key in _parts:
            _parts.move_to_end(key)
            return {"tournament": _parts[key]}
    pairing = (
        TournamentPairing.objects.filter(game_id=game.pk)
        .values("tournament_id", "tournament__name", "round")
        .first()
    )
    part = (
        None
        if pairing is None
        else {
            "id": pairing["tournament_id"],
            "name": pairing["tournament__name"],
            "round": pairing["round"],
        }
    )
    with _parts_lock:
        _parts[key] = part
        while len(_parts) > KEPT:
            _parts.popitem(last=False)
    return {"tournament": part}
