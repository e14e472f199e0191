"""The engine's verdict on each position of a stored Go game, for the review, over GTP.

``GtpAnalyser(command).verdict(game, to_move)`` says what the position after
``game``'s moves is worth in points from Black's side (the score lead, komi
included), the best move for ``to_move`` and a line that follows it, and what the
last move played left (``played``: the same measure of the position as it stands,
before the side to move answers). The engine is any GTP program that answers GNU
Go's analysis commands (``top_moves_black``/``top_moves_white``, ``estimate_score``
and ``set_random_seed``); the default is GNU Go (``gnugo.gnugo_command``), and the
server's ``REVIEW_GO_COMMAND`` setting names another. KataGo, which values positions
in its own words, has its own class with the same ``verdict`` (``katago.KataGoAnalyser``).

How a position is valued (``docs/engines/review.md``; measured against KataGo's eval on
the same positions: ``bench/katago.py evals``):

- ``best``: the first of ``top_moves_<colour>`` at GNU Go's ``level``, which is
  ``genmove``'s choice; an empty list (the engine would pass or resign) is ``"pass"``.
- ``eval``: the mean of ``estimate_score`` before and after ``best`` is played. The
  estimate is an influence count that favours the side that has just moved by about a
  move's worth (10 points and more early on 9x9); taken after the best move alone, the
  eval swung with the side to move. Half before, half after is nobody's tempo.
- ``played``: what the last move left its mover, on the scale of the previous position's
  eval: that eval less the estimate after the previous position's best move and plus the
  estimate after the move played. Both estimates are taken one move after the same
  position, the engine's move against the played one, so the tempo cancels; their
  difference is the move's cost (``review.move_loss``). ``previous`` (the verdict on the
  position before: its ``best`` and ``eval``) says where that is; without it the engine
  is asked again. The eval of the next position cannot serve: it has the opponent's
  best reply in it.
- ``pv``: ``best``, then the engine's moves at ``PV_LEVEL`` (fast) for up to
  ``pv_length`` moves in all, stopping at a second pass, a resignation or when the
  verdict's time runs out.

Nothing is ``exact``: the estimate is GNU Go's influence-based count, not a
solve. Pure: no Django.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from gamerules.base import Color, Point

from .gnugo import GoGame, gnugo_command, point_of, replay, vertex
from .gtp import EngineTimeout, RestartingEngine

__all__ = [
    "ANALYSIS_LEVEL",
    "PV_LENGTH",
    "PV_LEVEL",
    "GoAnalyser",
    "GoVerdict",
    "GtpAnalyser",
    "parse_score",
    "parse_top_moves",
    "pv_length",
]

ANALYSIS_LEVEL = 10
"""GNU Go's level for the best move: its default and strongest."""
PV_LEVEL = 0
"""GNU Go's level for the moves of the line after the best one: its fastest."""
PV_LENGTH = 10
"""The most moves of the line shown after each position."""
LONG_LINE_SIZE = 13
"""The largest board whose line is ``PV_LENGTH`` long: beyond it each move of the line costs
about half a second of GNU Go's (19x19), so the line is ``SHORT_LINE`` moves."""
SHORT_LINE = 3
RANDOM_SEED = 0
"""GNU Go's random seed for every verdict."""
COMMAND_TIMEOUT = 60.0
"""Seconds any one command may take: a ``top_moves`` on an open 19x19 board takes a few."""

Step = Point | str
"""A move of a line: a point, or ``"pass"``."""

_SCORE = re.compile(r"^\s*(?:([BW])\+(\d+(?:\.\d+)?)|0(?:\.0*)?)(?:\s|$)")


@dataclass(frozen=True, slots=True)
class GoVerdict:
    """What a position is worth from Black's side (``eval``, after the engine's best move),
    its best move and line, and ``played``: the position as it stands, measured the same way
    (the value of the move that led here, for its mover)."""

    eval: float
    best: Step | None
    pv: tuple[Step, ...]
    played: float
    exact: bool = False
    winrate: float | None = None
    """Black's chance to win (0..1), from an engine that says it (KataGo)."""


class GoAnalyser(Protocol):
    """What the review asks of a Go engine: the verdict on the position after ``game``'s
    moves, ``to_move`` to play (no best move once ``over``)."""

    def verdict(self, game: GoGame, to_move: Color, *, over: bool = False) -> GoVerdict: ...


def parse_score(text: str) -> float:
    """A GTP score (``"B+3.5"``, ``"W+7.0 (upper bound: ...)"``, ``"0"``) as points from
    Black's side.

    >>> parse_score("W+9.8 (upper bound: 9.8, lower: 9.8)")
    -9.8
    >>> parse_score("B+0.5")
    0.5

    Raises ``ValueError`` for anything else.
    """
    found = _SCORE.match(text)
    if found is None:
        raise ValueError(f"not a score: {text!r}")
    winner, margin = found.groups()
    if winner is None:
        return 0.0
    return float(margin) if winner == "B" else -float(margin)


def parse_top_moves(text: str, size: int) -> list[tuple[Point, float]]:
    """The moves and values of a ``top_moves_<colour>`` answer (``"E5 6.39 C3 1.68"``), best
    first, as points of a ``size`` board.

    >>> parse_top_moves("A9 6.39 J1 1.5", 9)
    [((0, 0), 6.39), ((8, 8), 1.5)]

    Raises ``ValueError`` for an odd number of words or a value that is not a number,
    ``InvalidMoveError`` for a vertex off the board.
    """
    words = text.split()
    if len(words) % 2:
        raise ValueError(f"top moves come in pairs, not {text!r}")
    moves = []
    for where, value in zip(words[::2], words[1::2], strict=True):
        point = point_of(where, size)
        if point is None:
            raise ValueError(f"a top move is a point, not {where!r}")
        moves.append((point, float(value)))
    return moves


def pv_length(size: int) -> int:
    """How many moves the line of a ``size`` board holds.

    >>> pv_length(9), pv_length(19)
    (10, 3)
    """
    return PV_LENGTH if size <= LONG_LINE_SIZE else SHORT_LINE


class GtpAnalyser(RestartingEngine):
    """The verdicts on Go positions from one GTP engine process; a context manager.

    ``command`` starts the engine (GNU Go by default); it starts at the first verdict
    and again after it failed. ``level`` is GNU Go's level for the best move;
    ``timeout`` bounds each command and ``budget`` (if given) a verdict's questions to the
    engine once the game is replayed into it (``EngineTimeout``: the engine is killed,
    the next verdict starts another); the replay's moves are bounded by ``timeout`` each.
    Every verdict replays the game, so one analyser serves any game.
    """

    def __init__(
        self,
        command: Sequence[str] | None = None,
        *,
        level: int = ANALYSIS_LEVEL,
        timeout: float = COMMAND_TIMEOUT,
        budget: float | None = None,
        line: int | None = None,
    ) -> None:
        super().__init__(command or gnugo_command(), timeout=timeout)
        self.level = level
        self.budget = budget
        self._line = line

    def verdict(
        self,
        game: GoGame,
        to_move: Color,
        *,
        over: bool = False,
        previous: tuple[Step | None, float] | None = None,
    ) -> GoVerdict:
        """The verdict on the position after ``game``'s moves, ``to_move`` to play; an
        ``over`` position (two passes) gets its estimate, no best move and no line.

        ``previous`` is the verdict on the position before the last move (its ``best`` and
        ``eval``), from which ``played`` is measured; without it that position's best move
        is asked again of the engine.

        Raises ``EngineError`` when the engine fails or is too slow, ``GtpError`` when
        it refuses a move of the game, ``ValueError`` for an answer it cannot read,
        ``OSError`` when the engine cannot be started.
        """
        engine = self._ready()
        started = time.monotonic()

        def ask(command: str) -> str:
            if self.budget is None:
                return engine.send(command)
            left = self.budget - (time.monotonic() - started)
            return engine.send(command, timeout=max(0.0, min(self.timeout, left)))

        best_before: float | None = None
        if game.moves:
            # The previous position under its best move: the same measure, one move after
            # the same position, as the move played.
            mover = game.moves[-1][0]
            before = replace(game, moves=game.moves[:-1])
            replay(engine, before)
            ask(f"set_random_seed {RANDOM_SEED}")
            if previous is None:
                now, best, after = self._measure(ask, before, mover)
                previous = (best, now if after is None else (now + after) / 2)
                replay(engine, before)
            step = previous[0]
            where = vertex(step, game.size) if isinstance(step, tuple) else "pass"
            ask(f"play {mover.value} {where}")
            best_before = parse_score(ask("estimate_score"))
        replay(engine, game)
        now, best, after = self._measure(ask, game, to_move, over=over)
        value = now if after is None else _tenth((now + after) / 2)
        # What the last move left, on the scale of the previous position's eval: that eval
        # less what the move gave away against the best one.
        played = (
            value
            if previous is None or best_before is None
            else _tenth(previous[1] + now - best_before)
        )
        if best is None:
            return GoVerdict(value, None if over else "pass", () if over else ("pass",), played)
        # The best move is on the board (``_measure``): the line goes on from there.
        length = (self._line or pv_length(game.size)) - 1
        line = (best, *_line_after(ask, game.size, to_move, length))
        return GoVerdict(value, best, line, played)

    def _measure(
        self, ask: Callable[[str], str], game: GoGame, to_move: Color, *, over: bool = False
    ) -> tuple[float, Point | None, float | None]:
        """In the engine, where ``game`` is replayed: its estimate, the best move for
        ``to_move`` (None when the engine would pass, or ``over``) and the estimate after
        it, which stays on the board."""
        # GNU Go breaks ties at random: the same seed each time makes a verdict the same in
        # any process, whatever it analysed before.
        ask(f"set_random_seed {RANDOM_SEED}")
        now = parse_score(ask("estimate_score"))
        if over:
            return now, None, None
        ask(f"level {self.level}")
        top = parse_top_moves(ask(f"top_moves_{to_move.value}"), game.size)
        if not top:
            return now, None, None
        best = top[0][0]
        ask(f"play {to_move.value} {vertex(best, game.size)}")
        return now, best, parse_score(ask("estimate_score"))


def _tenth(value: float) -> float:
    return round(value, 1)


def _line_after(ask: Callable[[str], str], size: int, mover: Color, length: int) -> list[Step]:
    """The engine's next ``length`` moves at ``PV_LEVEL`` after ``mover``'s, stopping after
    a second pass, at a resignation or when the time runs out (the line so far: the
    engine was killed, the next verdict starts another); ``ask`` sends a command and
    returns the answer."""
    ask(f"level {PV_LEVEL}")
    line: list[Step] = []
    color = mover.opponent
    while len(line) < length:
        try:
            answer = ask(f"genmove {color.value}")
        except EngineTimeout:
            break
        if answer.lower() == "resign":
            break
        point = point_of(answer, size)
        line.append("pass" if point is None else point)
        if line[-2:] == ["pass", "pass"]:
            break
        color = color.opponent
    return line
