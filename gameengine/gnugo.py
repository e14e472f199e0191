"""GNU Go as the computer opponent in Go, spoken to over GTP (``gtp.py``).

Every request replays the whole game into a GNU Go process (board size,
komi, setup stones, then each move, passes included) and then asks:
``genmove`` for the computer's move, ``final_status_list dead`` for the
stones it counts as dead. Nothing of one game stays in the process, so a
``GnuGo`` object can serve any game next: one per worker thread, or a pool.

>>> choose_move(size=9, komi=7.0, setup=None, moves=[], to_move=Color.BLACK,
...             level=10)  # doctest: +SKIP
(4, 4)

GNU Go runs with ``--chinese-rules --capture-all-dead --positional-superko``:
the superko of ``gamerules.go``, area counting in its own judgement, and it
removes every dead stone before it passes, so a count against it has little
left to agree on.

Points are the rules module's ``(row, col)``, row 0 at the top; GTP vertices
are ``A``.. without ``I`` and row numbers from the bottom (``vertex``,
``point_of``).

Levels 1..10 (``STRENGTH``): level N runs GNU Go's own level N and, below 10,
plays a share of its moves at random instead: 60% at level 1, down to 3% at
level 9. GNU Go's levels alone differ too little (on 9x9 its level 0 tied its
level 5 and won 7 of 20 games against level 10), and at any level GNU Go is
many stones stronger than someone who has just learnt the rules; the random
moves make the range.
docs/engines/gnugo.md has the measurements.

A ``genmove`` that takes longer than its time limit, or an engine that dies,
costs the process: it is killed, and the move is asked again of a new one at
``FALLBACK_LEVEL`` within ``FALLBACK_TIME_LIMIT``; if that fails too the
computer passes. A dead engine is restarted at the next request.
"""

from __future__ import annotations

import functools
import logging
import os
import random
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from gamerules.base import Color, Point
from gamerules.go import GoPosition

from .gtp import EngineError, GtpEngine, RestartingEngine

__all__ = [
    "GNUGO_OPTIONS",
    "GNUGO_PATH",
    "LEVELS",
    "STRENGTH",
    "Answer",
    "GnuGo",
    "GoGame",
    "Strength",
    "available",
    "choose_move",
    "dead_stones",
    "gnugo_command",
    "point_of",
    "replay",
    "vertex",
]

log = logging.getLogger(__name__)

GNUGO_PATH = "/usr/games/gnugo"
"""Where Debian's ``gnugo`` package puts the program (not on PATH)."""

GNUGO_OPTIONS = ("--mode", "gtp", "--chinese-rules", "--capture-all-dead", "--positional-superko")
"""GTP on the pipes, and the rules of ``gamerules.go``."""

LEVELS = range(1, 11)
"""The computer's levels, weakest first."""


class Strength(NamedTuple):
    """How GNU Go plays at one of our levels."""

    gnugo_level: int
    """GNU Go's own ``level``: 10 is its default; lower levels read less deeply, and
    below 0 its tables run out."""
    random_share: float = 0.0
    """The share of moves played at random instead of GNU Go's: uniformly among the
    legal points that do not fill an own eye, and never instead of a pass or a resignation."""


STRENGTH: Mapping[int, Strength] = {
    1: Strength(1, 0.6),
    2: Strength(2, 0.5),
    3: Strength(3, 0.4),
    4: Strength(4, 0.32),
    5: Strength(5, 0.25),
    6: Strength(6, 0.18),
    7: Strength(7, 0.12),
    8: Strength(8, 0.07),
    9: Strength(9, 0.03),
    10: Strength(10),
}
"""Our levels 1..10 (``LEVELS``) and how GNU Go plays at each."""

DEFAULT_TIME_LIMIT = 15.0
"""Seconds a ``genmove`` (or ``final_status_list``) may take when the caller names no
limit: about eight times the longest move measured on 19x19 at level 10."""

FALLBACK_LEVEL = 0
"""GNU Go's level for the second try after a ``genmove`` failed: its fastest."""

FALLBACK_TIME_LIMIT = 5.0
"""At most this many seconds (and never more than the first try's) for the second try."""

COUNTING_LEVEL = 10
"""GNU Go's level when it tells the dead stones: its most careful, whatever the game's level."""

COMMAND_TIMEOUT = 5.0
"""Seconds any other command may take: they answer at once, so a longer wait means a hang."""

Answer = Point | None | Literal["resign"]
"""What the computer does: place a stone on a point, pass (None) or resign."""


def available(path: str = GNUGO_PATH) -> bool:
    """True if ``path`` is an executable file (GNU Go is installed there)."""
    return os.path.isfile(path) and os.access(path, os.X_OK)


def gnugo_command(path: str = GNUGO_PATH) -> list[str]:
    """The command line that starts GNU Go at ``path`` as this module needs it."""
    return [path, *GNUGO_OPTIONS]


@functools.cache
def _empty_board(size: int) -> GoPosition:
    # The rules module owns the notation (no I, rows from the bottom), and GTP's
    # vertices are the same notation; positions are immutable, so one per size serves all.
    return GoPosition.start(size)


def vertex(point: Point, size: int) -> str:
    """The GTP vertex of ``point`` on a ``size`` board: ``(0, 0)`` is ``A19`` on 19x19,
    ``(8, 8)`` is ``J1`` on 9x9.

    Raises ``InvalidMoveError`` for a point off the board, ``RulesError`` for a
    size Go does not allow here.
    """
    return _empty_board(size).format_point(point)


def point_of(text: str, size: int) -> Point | None:
    """The point of the GTP vertex ``text`` (case ignored) on a ``size`` board; None for ``pass``.

    Raises ``InvalidMoveError`` for text that is not a vertex of this board,
    ``RulesError`` for a size Go does not allow here.
    """
    if text.strip().lower() == "pass":
        return None
    return _empty_board(size).parse_point(text)


@dataclass(frozen=True)
class GoGame:
    """What GNU Go needs to know of a game: the board size, komi, the setup
    stones it started from and the moves since (a point, or None for a pass)."""

    size: int
    komi: float
    moves: tuple[tuple[Color, Point | None], ...] = ()
    setup: tuple[tuple[Color, Point], ...] = ()

    @classmethod
    def of(
        cls,
        *,
        size: int,
        komi: float,
        setup: Mapping[Color, Iterable[Point]] | None = None,
        moves: Iterable[tuple[Color, Point | None]] = (),
    ) -> GoGame:
        """The game from the shapes the server keeps: setup stones by colour, moves in order."""
        stones = () if setup is None else tuple((c, p) for c, ps in setup.items() for p in ps)
        return cls(size, komi, tuple(moves), stones)


def replay(engine: GtpEngine, game: GoGame) -> None:
    """Sets up ``game`` in a GTP engine: board size, komi, setup stones, every move.

    Setup stones are played one by one (``play``): a legal setup needs no
    capture whatever the order, and GNU Go then counts no handicap, as our
    rules do not. Raises ``GtpError`` when the engine refuses a move, and the
    engine's ``EngineError`` when it fails.
    """
    engine.send(f"boardsize {game.size}")
    engine.send("clear_board")
    engine.send(f"komi {game.komi:g}")
    for color, point in (*game.setup, *game.moves):
        where = "pass" if point is None else vertex(point, game.size)
        engine.send(f"play {color.value} {where}")


class GnuGo(RestartingEngine):
    """A GNU Go process that plays and counts any game it is given; a context manager.

    ``path`` is the program; the process starts at the first request and again
    after it died or was killed. ``rng`` draws the random moves of the weak
    levels (tests pass a seeded one). One request runs at a time (a lock), so
    threads may share the object, but a pool of them serves threads better.
    Raises ``OSError`` from a request when the program cannot be started.
    """

    def __init__(self, path: str = GNUGO_PATH, *, rng: random.Random | None = None) -> None:
        super().__init__(gnugo_command(path), timeout=COMMAND_TIMEOUT)
        self._rng = rng or random.Random()
        self._lock = threading.Lock()

    def choose_move(
        self,
        game: GoGame,
        to_move: Color,
        *,
        level: int,
        time_limit: float = DEFAULT_TIME_LIMIT,
    ) -> Answer:
        """The computer's move for ``to_move`` in ``game`` at ``level`` (1..10): a point,
        None to pass, or ``"resign"``.

        ``genmove`` may take ``time_limit`` seconds; when it does not answer in
        time or the engine dies, the move is asked again at ``FALLBACK_LEVEL``
        within ``FALLBACK_TIME_LIMIT`` and, failing that too, the computer
        passes. Raises ``ValueError`` for a level out of range, ``GtpError``
        when GNU Go refuses a move of the game, ``OSError`` when it cannot be
        started.
        """
        if level not in LEVELS:
            raise ValueError(f"the level is 1 to 10, not {level!r}")
        try:
            return self.genmove(game, to_move, STRENGTH[level], time_limit=time_limit)
        except EngineError as error:
            log.warning("%s; asking again at GNU Go level %d", error, FALLBACK_LEVEL)
        fallback = Strength(FALLBACK_LEVEL)
        try:
            return self.genmove(
                game, to_move, fallback, time_limit=min(time_limit, FALLBACK_TIME_LIMIT)
            )
        except EngineError as error:
            log.warning("%s; the computer passes", error)
            return None

    def genmove(
        self,
        game: GoGame,
        to_move: Color,
        strength: Strength,
        *,
        time_limit: float = DEFAULT_TIME_LIMIT,
    ) -> Answer:
        """GNU Go's move for ``to_move`` in ``game`` played at ``strength``, one try: a point,
        None to pass, or ``"resign"``.

        Raises ``EngineTimeout`` when ``genmove`` takes more than ``time_limit``
        seconds, ``EngineDied`` when the engine dies (either way the process is
        gone; the next request starts another), ``GtpError`` when GNU Go
        refuses a move of the game, ``OSError`` when it cannot be started.
        """
        with self._lock:
            engine = self._ready()
            replay(engine, game)
            engine.send(f"level {strength.gnugo_level}")
            # The random point is drawn before genmove changes the board; it replaces
            # only a placement, so the computer still passes and resigns as GNU Go does.
            roll = self._rng.random() < strength.random_share
            wild = self._random_point(engine, game.size, to_move) if roll else None
            answer = engine.send(f"genmove {to_move.value}", timeout=time_limit)
        if answer.lower() == "resign":
            return "resign"
        move = point_of(answer, game.size)
        return wild if wild is not None and move is not None else move

    def dead_stones(self, game: GoGame, *, time_limit: float = DEFAULT_TIME_LIMIT) -> set[Point]:
        """The stones GNU Go counts as dead at the end of ``game``
        (``final_status_list dead``), within ``time_limit`` seconds.

        Quick on a settled board (0.1 s on 19x19), but a 19x19 board with fights
        left open took 40 to 100 s here: expect ``EngineTimeout`` then.

        Raises ``EngineError`` when GNU Go does not answer in time or dies (the
        caller falls back on its own estimate), ``GtpError`` when it refuses a
        move of the game, ``OSError`` when it cannot be started.
        """
        with self._lock:
            engine = self._ready()
            replay(engine, game)
            engine.send(f"level {COUNTING_LEVEL}")
            answer = engine.send("final_status_list dead", timeout=time_limit)
        return {_point(text, game.size) for text in answer.split()}

    def close(self) -> None:
        """Stops the GNU Go process, if one runs. The object can still be used: the
        next request starts a new one."""
        with self._lock:
            self._stop()

    def _random_point(self, engine: GtpEngine, size: int, color: Color) -> Point | None:
        """A legal point for ``color``, drawn uniformly among those that do not fill one of
        its own eyes (``GoPosition.fills_own_eye`` on GNU Go's board); None when there is
        none."""
        legal = [_point(text, size) for text in engine.send(f"all_legal {color.value}").split()]
        board = _board(engine, size, color)
        candidates = [point for point in legal if not board.fills_own_eye(point)]
        return self._rng.choice(candidates) if candidates else None


def _board(engine: GtpEngine, size: int, to_move: Color) -> GoPosition:
    """The stones on GNU Go's board (``list_stones``), ``to_move`` to play."""
    rows = [["."] * size for _ in range(size)]
    for color, letter in ((Color.BLACK, "B"), (Color.WHITE, "W")):
        for text in engine.send(f"list_stones {color.value}").split():
            row, col = _point(text, size)
            rows[row][col] = letter
    return GoPosition.from_rows(["".join(row) for row in rows], to_move)


def _point(text: str, size: int) -> Point:
    """The point of a vertex GNU Go listed (never a pass)."""
    point = point_of(text, size)
    assert point is not None, f"GNU Go listed {text!r} as a point"
    return point


def choose_move(
    *,
    size: int,
    komi: float,
    setup: Mapping[Color, Iterable[Point]] | None,
    moves: Sequence[tuple[Color, Point | None]],
    to_move: Color,
    level: int,
    time_limit: float = DEFAULT_TIME_LIMIT,
    path: str = GNUGO_PATH,
) -> Answer:
    """The computer's move in a game, from a GNU Go process started for this one request.

    See ``GnuGo.choose_move`` for the answer, the fallback and the errors;
    ``setup`` holds the stones the game started from (None for an empty board).
    """
    with GnuGo(path) as gnugo:
        game = GoGame.of(size=size, komi=komi, setup=setup, moves=moves)
        return gnugo.choose_move(game, to_move, level=level, time_limit=time_limit)


def dead_stones(
    *,
    size: int,
    komi: float,
    setup: Mapping[Color, Iterable[Point]] | None,
    moves: Sequence[tuple[Color, Point | None]],
    time_limit: float = DEFAULT_TIME_LIMIT,
    path: str = GNUGO_PATH,
) -> set[Point]:
    """The stones GNU Go counts as dead at the end of a game, from a process started
    for this one request; see ``GnuGo.dead_stones`` for the errors."""
    with GnuGo(path) as gnugo:
        game = GoGame.of(size=size, komi=komi, setup=setup, moves=moves)
        return gnugo.dead_stones(game, time_limit=time_limit)
