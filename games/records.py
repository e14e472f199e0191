"""Reads of stored games as records: the SGF record, the board at any ply, the archive.

The stored moves are the whole history: each carries the diff the rules returned when it
was played, so the board after move N is the start position (the game's own, or the setup
an imported record laid out, ``Game.start``) with the first N diffs applied
(``Diff.apply``). No rule is consulted again, and a replay steps both ways in constant
time per move (the page does the same in JavaScript with ``replay_data``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext, ngettext

import gamerules as rules
from accounts import selectors as accounts
from gamerules.clock import TimeControl
from gamerules.sgf import GameRecord, MoveClock, Setup
from games import board_svg
from games.models import ChatMessage, Game, Move
from games.selectors import (
    COLORS,
    ENDINGS,
    IN_PLAY,
    being_played,
    chat_json,
    move_json,
    shown_name,
    start_position,
)


@dataclass(frozen=True)
class BoardAt:
    """The board of a game after ``ply`` moves, as a page or a picture shows it.

    ``marked`` is the placement to mark as the last move (Othello's survives the
    automatic pass after it; nothing is marked after a resignation or a Go pass).
    ``discs`` (Othello) counts the discs on the board, ``prisoners`` (Go) the stones
    captured so far BY each colour; both are keyed ``black``/``white``. ``count`` is
    the agreed count (``final_count``) at the last move of a Go game finished by
    counting, None at any other ply or for any other game.
    """

    kind: str
    size: int
    ply: int
    rows: list[str]
    marked: rules.Point | None
    last_move: Move | None
    discs: dict[str, int] | None
    prisoners: dict[str, int] | None
    count: dict[str, Any] | None


def start_rows(game: Game) -> list[str]:
    """The board of ``game`` before its first move: its setup, else the game's start."""
    if game.start is not None:
        return list(game.start["rows"])
    return start_position(game.kind, game.size).rows()


def point_names(game: Game, points: Iterable[Sequence[int]]) -> list[str]:
    """``points`` ([row, col]) as the game names them: ``d3`` (Othello), ``C4`` (Go)."""
    start = start_position(game.kind, game.size)
    return [start.format_point((row, col)) for row, col in points]


def diff_of(move: Move) -> rules.Diff | None:
    """What the stored ``move`` changed on the board; None for the end of a game that is
    no move on it (a resignation, a timeout, a forfeit)."""
    if move.action in ENDINGS:
        return None
    point = (move.row, move.col) if move.row is not None and move.col is not None else None
    changed = {key: tuple((r, c) for r, c in points) for key, points in move.diff.items()}
    return rules.Diff(
        color=rules.Color(move.color),
        action="place" if point is not None else "pass",
        point=point,
        flipped=changed.get("flipped", ()),
        captured=changed.get("captured", ()),
    )


def clamp_ply(game: Game, ply: int | None) -> int:
    """``ply`` bounded to the game's moves, 0 to ``game.ply``; None means the last."""
    if ply is None:
        return game.ply
    return max(0, min(ply, game.ply))


def board_at(game: Game, ply: int | None = None) -> BoardAt:
    """The board after ``ply`` moves (clamped to 0..``game.ply``; None: the last move).

    Reads ``game.moves.all()`` (one query, none when prefetched) and applies the stored
    diffs to the start position.
    """
    ply = clamp_ply(game, ply)
    moves = [move for move in game.moves.all() if move.ply <= ply]
    rows = start_rows(game)
    prisoners = dict.fromkeys(COLORS, 0)
    for move in moves:
        diff = diff_of(move)
        if diff is not None:
            rows = diff.apply(rows)
            prisoners[move.color] += len(diff.captured)
    othello = game.kind == Game.Kind.OTHELLO
    return BoardAt(
        kind=game.kind,
        size=game.size,
        ply=ply,
        rows=rows,
        marked=_marked(moves, othello=othello),
        last_move=moves[-1] if moves else None,
        discs=_discs(rows) if othello else None,
        prisoners=None if othello else prisoners,
        count=final_count(game) if ply == game.ply else None,
    )


def board_picture(game: Game, board: BoardAt, *, ident: str, element_id: str | None = None) -> str:
    """``board`` (of ``game``) as an SVG picture: the last move marked, and at the last
    move of a counted Go game the agreed dead stones and territory. ``ident`` and
    ``element_id`` are ``board_svg.draw``'s."""
    label = gettext(
        "%(kind)s %(size)sx%(size)s, %(black)s (Black) vs %(white)s (White), after move %(ply)s"
    ) % {
        "kind": game.get_kind_display(),
        "size": game.size,
        "black": shown_name(game, "black") or "?",
        "white": shown_name(game, "white") or "?",
        "ply": board.ply,
    }
    if board.count is not None:
        label = gettext("%(board)s, counted: %(result)s") % {
            "board": label,
            "result": result_text(game.result, game.kind),
        }
    return board_svg.draw(
        kind=game.kind,
        size=game.size,
        rows=board.rows,
        marked=board.marked,
        dead=board.count["dead"] if board.count else (),
        territory=board.count["territory"] if board.count else None,
        label=label,
        ident=ident,
        element_id=element_id,
    )


def _discs(rows: Sequence[str]) -> dict[str, int]:
    board = "".join(rows)
    return {color.value: board.count(color.letter) for color in rules.Color}


def _marked(moves: Sequence[Move], *, othello: bool) -> rules.Point | None:
    """The last placement, as static/js/board.js marks it."""
    for move in reversed(moves):
        if move.action == Move.Action.PLACE:
            return (move.row, move.col)  # type: ignore[return-value]
        if move.action in ENDINGS or not othello:
            return None
    return None


def result_text(result: str, kind: str) -> str:
    """ "Black wins by 12 discs", "White wins by resignation", "Black wins on time",
    "White wins: Black left the game", "Draw"; "" for no result."""
    if not result:
        return result
    if result == "Draw":
        return gettext("Draw")
    letter, _, margin = result.partition("+")
    if letter not in ("B", "W") or not margin:
        return result
    black = letter == "B"
    if margin == "R":
        return (
            gettext("Black wins by resignation") if black else gettext("White wins by resignation")
        )
    if margin == "T":
        return gettext("Black wins on time") if black else gettext("White wins on time")
    if margin == "F":
        return (
            gettext("Black wins: White left the game")
            if black
            else gettext("White wins: Black left the game")
        )
    number = 1 if margin == "1" else 2  # "1 disc", "3.5 points"
    if kind == Game.Kind.GO:
        won = (
            ngettext("Black wins by %(margin)s point", "Black wins by %(margin)s points", number)
            if black
            else ngettext(
                "White wins by %(margin)s point", "White wins by %(margin)s points", number
            )
        )
    else:
        won = (
            ngettext("Black wins by %(margin)s disc", "Black wins by %(margin)s discs", number)
            if black
            else ngettext("White wins by %(margin)s disc", "White wins by %(margin)s discs", number)
        )
    return won % {"margin": margin}


def final_count(game: Game) -> dict[str, Any] | None:
    """The agreed count of a Go game finished by counting: ``dead`` ([[r, c], ...]),
    ``territory`` (by colour), ``score`` and ``score_detail`` as in G; None for any
    other game (in play, resigned, Othello)."""
    if game.status != Game.Status.FINISHED or game.territory is None:
        return None
    return {
        "dead": game.dead,
        "territory": game.territory,
        "score": game.score,
        "score_detail": game.score_detail,
    }


def record_of(game: Game) -> GameRecord:
    """The game as an SGF-ready record: players, komi, date, result, the setup it started
    from, moves, and for a Go game finished by counting the agreed dead stones and the
    territory.

    A resignation, a timeout or a forfeit is not a move in SGF: it only shows in the
    result (``W+R``, ``W+T``, ``W+F``). The clock is ``TM``/``OT`` and each move's time
    left (``BL``/``WL``, ``OB``/``OW``). What the players said in the chat is ``C`` on the
    move it followed ("name: text", one line each), and so is an imported record's
    comment (as it was). Reads ``game.moves.all()`` and
    ``game.chat.all()`` (prefetch them when exporting many games).
    """
    moves = []
    clocks = []
    for move in game.moves.all():
        diff = diff_of(move)
        if diff is not None:
            play = rules.Move.place(diff.point) if diff.point else rules.Move.pass_turn()
            moves.append((diff.color, play))
            clocks.append(
                None if move.clock_ms is None else MoveClock(move.clock_ms, move.overtime_left)
            )
    count = final_count(game)
    dead: frozenset[rules.Point] = frozenset()
    territory: dict[rules.Color, frozenset[rules.Point]] = {}
    if count is not None:
        dead = _points(count["dead"])
        territory = {
            rules.Color(color): _points(points)
            for color, points in count["territory"].items()
            if points
        }
    return GameRecord(
        kind="go" if game.kind == Game.Kind.GO else "othello",
        size=game.size,
        moves=tuple(moves),
        black_name=game.black_name or None,
        white_name=game.white_name or None,
        komi=game.komi if game.kind == Game.Kind.GO else None,
        result=game.result or None,
        date=game.played_on.isoformat() if game.played_on else None,
        dead=dead,
        territory=territory,
        setup=None if game.start is None else Setup.from_json(game.start),
        time_control=(
            None if game.time_control is None else TimeControl.from_json(game.time_control)
        ),
        clocks=tuple(clocks) if any(clock is not None for clock in clocks) else (),
        comments=_said(game, len(moves)),
    )


def _in_record(message: ChatMessage) -> bool:
    """Whether ``message`` belongs to the game's record: a player's (not a spectator's),
    or a comment of an imported record (which has no name)."""
    return bool(message.color) or not message.name


def _said(game: Game, moves: int) -> dict[int, str]:
    """The players' chat ("name: text") and the record's comments (as they were), by the
    number of moves they followed."""
    said: dict[int, list[str]] = {}
    for message in game.chat.all():
        if _in_record(message):
            line = f"{message.name}: {message.text}" if message.name else message.text
            said.setdefault(min(message.ply, moves), []).append(line)
    return {ply: "\n".join(lines) for ply, lines in said.items()}


def _points(points: Iterable[Sequence[int]]) -> frozenset[rules.Point]:
    return frozenset((row, col) for row, col in points)


def replay_data(game: Game, *, hidden: Callable[[], Collection[int]] = frozenset) -> dict[str, Any]:
    """What the replay page's script needs: the start board and every move M with its diff.

    ``live`` is true while the game can still change (waiting, active, scoring);
    ``count`` is ``final_count``, shown at the last move; ``start_clock_ms`` each side's
    time before its first move (None without a clock; after a move, its M's clock_ms);
    ``chat`` what the players said and an imported record's comments (``name`` null), each
    message with the ``ply`` it followed, but for the lines of the accounts the reader
    blocks (``hidden``, asked only when an account spoke).
    """
    moves = [move_json(move) for move in game.moves.all()]
    said = [message for message in game.chat.select_related("user") if _in_record(message)]
    if any(message.user_id is not None for message in said):
        blocked = hidden()
        said = [message for message in said if message.user_id not in blocked]
    return {
        "id": game.public_id,
        "kind": game.kind,
        "size": game.size,
        "status": game.status,
        "result": game.result or None,
        "komi": game.komi if game.kind == Game.Kind.GO else None,
        "players": {color: shown_name(game, color) for color in COLORS},
        "start": start_rows(game),
        "moves": moves,
        "live": game.status in IN_PLAY,
        "count": final_count(game),
        "start_clock_ms": (
            None
            if game.time_control is None
            else TimeControl.from_json(game.time_control).start().remaining_ms
        ),
        "chat": [{**chat_json(message), "ply": message.ply} for message in said],
    }


def with_move_counts(games: QuerySet[Game]) -> QuerySet[Game]:
    """``games`` annotated with ``move_count``, the number of stored moves (one query)."""
    return games.annotate(move_count=Count("moves"))


PLAYING = "playing"
"""The archive's status filter for the games being played right now."""


def archive(
    *,
    kind: str | None = None,
    size: int | None = None,
    status: str | None = None,
    player: str | None = None,
    opponent: str | None = None,
    rated: str | None = None,
    mine: Iterable[int] | None = None,
) -> QuerySet[Game]:
    """Games newest first, with ``move_count``, filtered by whichever arguments are given.

    ``status`` is a game's status, or ``playing``: the games being played right now
    (``selectors.being_played``, which the home page counts). ``player`` is an account's
    username (in any case): the games in which either seat is that account's; ``opponent``
    is ``computer`` (games against it) or ``human`` (between two people); ``rated``
    ``rated`` or ``casual``; ``mine``
    restricts to the games whose primary keys are listed (a player's own games).
    """
    games = Game.objects.all()
    if kind:
        games = games.filter(kind=kind)
    if size:
        games = games.filter(size=size)
    if status == PLAYING:
        games = games & being_played()
    elif status:
        games = games.filter(status=status)
    if player:
        account = accounts.account_named(player, any_case=True)
        if account is None:
            return Game.objects.none()
        games = games.filter(Q(black_user=account) | Q(white_user=account))
    if opponent == "computer":
        games = games.exclude(computer_color="")
    elif opponent == "human":
        games = games.filter(computer_color="")
    if rated in ("rated", "casual"):
        games = games.filter(rated=rated == "rated")
    if mine is not None:
        games = games.filter(pk__in=mine)
    return (
        with_move_counts(games)
        .select_related("black_user", "white_user")
        .order_by("-created_at", "-pk")
    )
