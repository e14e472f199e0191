"""KataGo: the review's Go engine (its JSON analysis engine) and the computer's Go (its GTP).

Configured by plain data (``KataGoSettings``, from the server's ``KATAGO`` setting: the
command, the network, the two configuration files, the review's visits and each computer
level's), so that it crosses into the engines' worker processes, which import no Django.
``scripts/katago.sh`` installs it (docs/engines/katago.md); without it the server keeps
GNU Go.

The review: ``KataGoAnalyser.review(game, turn)`` is the verdict on the position after
``turn`` moves of ``game``. The first call for a game sends KataGo one query for the rest
of the game (``analyzeTurns``: that turn to the last, at ``visits`` visits each, the
rules and komi of ``gamerules.go``); KataGo analyses them one after the other, and the
following calls take their answers as they come. Each answer gives (``verdict_of``):

- ``eval``: the score lead (``rootInfo.scoreLead``) from Black's side, komi included; the
  configuration reports every value from Black's side (``reportAnalysisWinratesAs =
  BLACK``), so it does not flip with the side to move; ``winrate`` likewise (0..1);
- ``best``: the move KataGo ranks first (``moveInfos``' order 0) and ``pv`` its line; at
  one visit KataGo expands no move, and the best is the network's first choice
  (``includePolicy``), its line that move alone;
- ``played`` is ``eval``: what the move that led here left its mover, on the same scale
  as the position before it (a move's loss is the score lead it gave away,
  ``review.move_loss``).

The puzzles: ``KataGoAnalyser.candidates(game, turns, visits=)`` asks the positions after
each of ``turns`` at ``visits`` visits (the puzzles' 32, more than the review's) and gives
each one's candidate moves in KataGo's order, with their score leads (``candidates_of``).

``stop()`` ends the queries in flight (``terminate_all``): the computer's moves run first,
and one KataGo job at a time takes the machine's two cores (``games.workers.engines``).
A KataGo that dies or does not answer within ``timeout`` raises ``EngineError`` (it is
killed; the next call starts another and asks again from the turn it needs).

The computer: ``KataGoPlayer.choose_move`` replays the game over GTP and answers
``genmove`` at the strongest level's visits (``kata-set-param maxVisits``); KataGo's own
limit ``maxTime`` (its configuration) bounds a move, and ``timeout`` the wait for it.
``KataGoPlayer.policy`` is the network's raw policy at the position (``kata-raw-nn``, one
evaluation), from which the levels below choose (``katago_levels``).
Pure: no Django.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import json
import logging
import queue
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from gamerules.base import Color, Point

from .gnugo import Answer, GoGame, point_of, replay, vertex
from .go_review import GoVerdict, Step
from .gtp import Closing, EngineDied, EngineError, EngineTimeout, RestartingEngine
from .lifeline import piped

__all__ = [
    "RULES",
    "Candidate",
    "KataGoAnalyser",
    "KataGoPlayer",
    "KataGoSettings",
    "Policy",
    "analyser",
    "candidates_of",
    "player",
    "policy_of",
    "query",
    "stop_reviews",
    "verdict_of",
]

log = logging.getLogger(__name__)

RULES = {
    "ko": "POSITIONAL",
    "scoring": "AREA",
    "tax": "NONE",
    "suicide": False,
    "hasButton": False,
    "whiteHandicapBonus": "0",
    "friendlyPassOk": True,
}
"""The rules of ``gamerules.go`` in KataGo's words: area counting, positional superko, no
suicide, nothing for setup stones (they are not handicap)."""

START_TIMEOUT = 120.0
"""Seconds KataGo may take to answer its first position: it loads the network and compiles
its OpenCL kernels (about 14 s on a cold cache here, 3 s warm)."""
POSITION_TIMEOUT = 60.0
"""Seconds any later position may take (8 visits on 19x19: 7.3 s here)."""
MOVE_TIMEOUT = 60.0
"""Seconds a ``genmove`` may take, start-up included (KataGo's own ``maxTime`` is less)."""
PV_LENGTH = 10
"""The most moves of a line."""


@dataclass(frozen=True)
class KataGoSettings:
    """How to run KataGo: ``command`` (the program, possibly with arguments before
    ``analysis``/``gtp``), the network ``model``, the two configuration files, the visits
    a reviewed position gets and those of the computer's strongest level (10; the levels
    below look once, ``katago_levels``)."""

    command: tuple[str, ...]
    model: str
    analysis_config: str
    gtp_config: str
    review_visits: int = 1
    top_visits: int = 16

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> KataGoSettings:
        """The settings from the plain mapping the server hands its workers."""
        return cls(
            command=tuple(data["command"]),
            model=str(data["model"]),
            analysis_config=str(data["analysis_config"]),
            gtp_config=str(data["gtp_config"]),
            review_visits=int(data["review_visits"]),
            top_visits=int(data["top_visits"]),
        )

    def analysis_command(self) -> list[str]:
        return [*self.command, "analysis", "-config", self.analysis_config, "-model", self.model]

    def gtp_command(self) -> list[str]:
        return [*self.command, "gtp", "-config", self.gtp_config, "-model", self.model]


def query(
    game: GoGame, turns: Sequence[int], *, visits: int, to_move: Color, query_id: str
) -> dict[str, Any]:
    """KataGo's analysis query for ``turns`` of ``game`` (0: before any move),
    ``to_move`` playing first when the game has no move."""
    first = game.moves[0][0] if game.moves else to_move
    found: dict[str, Any] = {
        "id": query_id,
        "moves": [
            [color.value[0].upper(), _vertex(point, game.size)] for color, point in game.moves
        ],
        "initialStones": [
            [color.value[0].upper(), vertex(point, game.size)] for color, point in game.setup
        ],
        "initialPlayer": first.value[0].upper(),
        "rules": RULES,
        "komi": game.komi,
        "boardXSize": game.size,
        "boardYSize": game.size,
        "analyzeTurns": list(turns),
        "maxVisits": visits,
        "analysisPVLen": PV_LENGTH - 1,
        "includePolicy": visits <= 1,
    }
    return found


def _vertex(point: Point | None, size: int) -> str:
    return "pass" if point is None else vertex(point, size)


def verdict_of(answer: Mapping[str, Any], size: int, *, over: bool = False) -> GoVerdict:
    """The verdict in one of KataGo's answers (see the module): Black's score lead and win
    rate, the best move and its line (none when ``over``).

    Raises ``ValueError`` for an answer without an analysis (a query ended before it
    started, an error).
    """
    if "error" in answer:
        raise ValueError(f"KataGo refused the position: {answer['error']}")
    root = answer.get("rootInfo")
    if not isinstance(root, Mapping):
        raise ValueError(f"KataGo answered no analysis: {json.dumps(answer)[:200]}")
    lead = round(float(root["scoreLead"]), 1)
    winrate = round(float(root["winrate"]), 3)
    if over:
        return GoVerdict(lead, None, (), lead, winrate=winrate)
    infos = sorted(answer.get("moveInfos") or [], key=lambda info: info.get("order", 0))
    best: Step | None
    if infos:
        line = [_step(move, size) for move in infos[0].get("pv") or [infos[0]["move"]]]
        best = _step(infos[0]["move"], size)
    else:
        best = _policy_best(answer.get("policy"), size)
        line = [] if best is None else [best]
    return GoVerdict(lead, best, tuple(line[:PV_LENGTH]), lead, winrate=winrate)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A move KataGo considered (``"pass"`` or a point) and the score lead after it, from
    Black's side (``moveInfos``' ``scoreLead``), with the visits it got."""

    move: Step
    lead: float
    visits: int


def candidates_of(answer: Mapping[str, Any], size: int) -> list[Candidate]:
    """The candidate moves in one of KataGo's answers, in KataGo's order (the best first).

    Raises ``ValueError`` for an answer without an analysis.
    """
    if "error" in answer or not isinstance(answer.get("rootInfo"), Mapping):
        raise ValueError(f"KataGo answered no analysis: {json.dumps(answer)[:200]}")
    infos = sorted(answer.get("moveInfos") or [], key=lambda info: info.get("order", 0))
    return [
        Candidate(_step(info["move"], size), float(info["scoreLead"]), int(info.get("visits", 0)))
        for info in infos
    ]


def _step(move: str, size: int) -> Step:
    point = point_of(move, size)
    return "pass" if point is None else point


def _policy_best(policy: Sequence[float] | None, size: int) -> Step | None:
    """The network's first choice in a ``policy`` (row-major from the top left, then the
    pass; -1 for an illegal point)."""
    if not policy:
        return None
    index = max(range(len(policy)), key=lambda i: policy[i])
    if index >= size * size:
        return "pass"
    return (index // size, index % size)


class _JsonEngine:
    """One ``katago analysis`` process: JSON lines in, JSON lines out, read by a thread into
    one queue per query id."""

    def __init__(self, command: Sequence[str]) -> None:
        self._answers: dict[str, queue.Queue[dict[str, Any] | None]] = collections.defaultdict(
            queue.Queue
        )
        self._lock = threading.Lock()
        self._closed = False
        started = piped(command, encoding="utf-8", read=self._read)
        self._process = started.process
        self._stderr = started.stderr
        self._readers = started.readers
        self.answered = False

    @property
    def alive(self) -> bool:
        return self._process.poll() is None

    def send(self, message: Mapping[str, Any]) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            stdin.flush()
        except OSError:
            raise self.died() from None

    def next_answer(self, query_id: str, timeout: float) -> dict[str, Any]:
        try:
            found = self._queue(query_id).get(timeout=timeout)
        except queue.Empty:
            self.kill()
            raise EngineTimeout(
                f"KataGo did not answer within {timeout:g} s; it was killed"
            ) from None
        if found is None:
            raise self.died()
        self.answered = True
        return found

    def died(self) -> EngineDied:
        self.kill()
        self._readers[1].join(0.5)
        stderr = " | ".join(self._stderr)
        return EngineDied(
            f"KataGo is not running (exit code {self._process.returncode})"
            + (f"; its last error output: {stderr}" if stderr else "")
        )

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self._process.kill()
        self._process.wait()

    def close(self, timeout: float = 2.0) -> None:
        stdin = self._process.stdin
        with contextlib.suppress(OSError):
            if stdin is not None:
                stdin.close()
        # Without -quit-without-waiting KataGo would finish the queries in flight first.
        self.kill()
        for reader in self._readers:
            reader.join(timeout)
        for stream in (self._process.stdout, self._process.stderr):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()

    def _queue(self, query_id: str) -> queue.Queue[dict[str, Any] | None]:
        with self._lock:
            found = self._answers[query_id]
            if self._closed and found.empty():
                found.put(None)
            return found

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            try:
                answer = json.loads(line)
            except ValueError:
                log.warning("KataGo wrote a line that is not JSON: %r", line[:200])
                continue
            if not isinstance(answer, dict):
                continue
            if "warning" in answer:
                log.warning("KataGo: %s", answer)
                continue
            self._queue(str(answer.get("id", ""))).put(answer)
        with self._lock:
            # Whoever waits, or asks later, learns that the engine is gone.
            self._closed = True
            for waiting in self._answers.values():
                waiting.put(None)


@dataclass
class _Pending:
    """A query in flight: the game it is about, its turns, the answers come so far."""

    query_id: str
    game: GoGame
    visits: int
    turns: set[int]
    answers: dict[int, dict[str, Any]] = field(default_factory=dict)


class KataGoAnalyser(Closing):
    """The verdicts of KataGo's analysis engine (``command``: the program with its
    ``analysis`` arguments), started at the first question and again after it failed;
    a context manager."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        visits: int = 1,
        timeout: float = POSITION_TIMEOUT,
        start_timeout: float = START_TIMEOUT,
    ) -> None:
        self.command = list(command)
        self.visits = visits
        self.timeout = timeout
        self.start_timeout = start_timeout
        self._engine: _JsonEngine | None = None
        self._pending: _Pending | None = None
        self._ids = itertools.count(1)

    def verdict(self, game: GoGame, to_move: Color, *, over: bool = False) -> GoVerdict:
        """The verdict on the position after all of ``game``'s moves, ``to_move`` to play
        (``GoAnalyser``: the explore board's one position)."""
        return self.review(game, len(game.moves), to_move=to_move, over=over, ahead=False)

    def review(
        self,
        game: GoGame,
        turn: int,
        *,
        to_move: Color,
        over: bool = False,
        ahead: bool = True,
    ) -> GoVerdict:
        """The verdict on the position after ``turn`` of ``game``'s moves, ``to_move`` to
        play; with ``ahead`` KataGo is asked about every later turn of the game too (the
        next calls find them answered or under way).

        Raises ``EngineError`` when KataGo dies or is too slow, ``ValueError`` when it
        refuses the game, ``OSError`` when it cannot be started.
        """
        pending = self._pending
        if pending is None or pending.game != game or turn not in pending.turns:
            self.stop()
            last = len(game.moves) if ahead else turn
            pending = self._ask(game, range(turn, last + 1), to_move)
        engine = self._engine
        assert engine is not None
        while turn not in pending.answers:
            timeout = self.timeout if engine.answered else self.start_timeout
            try:
                answer = engine.next_answer(pending.query_id, timeout)
            except EngineError:
                self._forget()
                raise
            if "error" in answer:
                self._pending = None
                raise ValueError(f"KataGo refused the game: {answer['error']}")
            if "turnNumber" in answer:
                pending.answers[int(answer["turnNumber"])] = answer
        answer = pending.answers.pop(turn)
        pending.turns.discard(turn)
        if answer.get("noResults"):
            # Ended by stop() before it was analysed: ask again.
            self._pending = None
            return self.review(game, turn, to_move=to_move, over=over, ahead=ahead)
        return verdict_of(answer, game.size, over=over)

    def candidates(
        self, game: GoGame, turns: Sequence[int], *, to_move: Color, visits: int
    ) -> dict[int, list[Candidate]]:
        """The candidate moves (``candidates_of``) at the position after each of ``turns``
        of ``game``'s moves, asked in one query at ``visits`` visits (``to_move`` plays
        first when the game has no move), each answer waited for ``timeout`` times
        ``visits / 8`` (at least ``timeout``). Ends the review's query in flight.

        Raises as ``review``; ``EngineError`` too when the query is ended before its end.
        """
        self.stop()
        if not turns:
            return {}
        pending = self._ask(game, sorted(set(turns)), to_move, visits=visits)
        engine = self._engine
        assert engine is not None
        found: dict[int, list[Candidate]] = {}
        # A position's time grows with its visits: 8 is what ``timeout`` is meant for.
        position = self.timeout * max(1.0, visits / 8)
        try:
            while pending.turns:
                wait = position if engine.answered else self.start_timeout + position
                answer = engine.next_answer(pending.query_id, wait)
                if "error" in answer:
                    raise ValueError(f"KataGo refused the game: {answer['error']}")
                if "turnNumber" not in answer:
                    continue
                turn = int(answer["turnNumber"])
                if answer.get("noResults"):
                    raise EngineError(f"KataGo's analysis of turn {turn} was ended")
                found[turn] = candidates_of(answer, game.size)
                pending.turns.discard(turn)
        except EngineError:
            self._forget()
            raise
        finally:
            self._pending = None
        return found

    def stop(self) -> None:
        """Ends the query in flight, if any (its later turns are asked again when needed)."""
        pending, self._pending = self._pending, None
        engine = self._engine
        if pending is not None and pending.turns and engine is not None and engine.alive:
            with contextlib.suppress(EngineError):
                engine.send({"id": f"stop-{pending.query_id}", "action": "terminate_all"})

    def close(self) -> None:
        """Stops KataGo; the next question starts it again."""
        self._forget()

    def _ask(
        self, game: GoGame, turns: Sequence[int], to_move: Color, *, visits: int | None = None
    ) -> _Pending:
        if self._engine is None or not self._engine.alive:
            self._forget()
            self._engine = _JsonEngine(self.command)
        query_id = f"q{next(self._ids)}"
        visits = self.visits if visits is None else visits
        pending = _Pending(query_id, game, visits, set(turns))
        self._engine.send(query(game, turns, visits=visits, to_move=to_move, query_id=query_id))
        self._pending = pending
        return pending

    def _forget(self) -> None:
        self._pending = None
        if self._engine is not None:
            self._engine.close()
            self._engine = None


class KataGoPlayer(RestartingEngine):
    """KataGo's GTP engine as the computer (``command``: the program with its ``gtp``
    arguments); a context manager."""

    def __init__(self, command: Sequence[str], *, timeout: float = MOVE_TIMEOUT) -> None:
        super().__init__(command, timeout=timeout)
        self._started = False

    def choose_move(self, game: GoGame, to_move: Color, *, visits: int) -> Answer:
        """KataGo's move for ``to_move`` in ``game`` at ``visits`` visits: a point, None to
        pass, or ``"resign"``.

        Raises ``EngineError`` when KataGo dies or is too slow (it is killed; the next move
        starts another), ``GtpError`` when it refuses a move of the game, ``OSError``
        when it cannot be started.
        """
        engine = self._ready()
        replay(engine, game)
        engine.send(f"kata-set-param maxVisits {visits}")
        answer = engine.send(f"genmove {to_move.value}", timeout=self.timeout)
        if answer.lower() == "resign":
            return "resign"
        return point_of(answer, game.size)

    def policy(self, game: GoGame, to_move: Color) -> Policy:
        """The network's raw policy for ``to_move`` in ``game`` (one evaluation, no search).

        Raises as ``choose_move``, and ``EngineError`` when the answer is not a policy.
        """
        engine = self._ready()
        replay(engine, game)
        last = (*game.setup, *game.moves)[-1:]
        if (last[0][0] if last else Color.WHITE) is to_move:
            # The network answers for the colour after the last move: a turn the other
            # side skipped (the first move of a setup position, say) is its pass.
            engine.send(f"play {to_move.opponent.value} pass")
        return policy_of(engine.send("kata-raw-nn 0", timeout=self.timeout), game.size)


@dataclass(frozen=True)
class Policy:
    """The network's raw policy at a position: the prior of each point it allows (a point
    it forbids is absent) and of a pass, summing to 1."""

    points: Mapping[Point, float]
    passing: float


def policy_of(answer: str, size: int) -> Policy:
    """The policy in ``kata-raw-nn``'s answer: after a line ``policy``, ``size`` rows from
    the top of the board, ``NAN`` where no stone may go, then ``policyPass <p>``.

    Raises ``EngineError`` when the answer holds no such policy.
    """
    lines = [line.split() for line in answer.splitlines()]
    try:
        start = next(n for n, words in enumerate(lines) if words == ["policy"]) + 1
        rows = lines[start : start + size]
        passing = lines[start + size]
        if len(rows) != size or any(len(row) != size for row in rows):
            raise ValueError("a row is missing")
        if passing[0] != "policyPass":
            raise ValueError("no policyPass")
        points = {
            (row, col): float(text)
            for row, words in enumerate(rows)
            for col, text in enumerate(words)
            if text.upper() != "NAN"
        }
        return Policy(points, float(passing[1]))
    except (StopIteration, ValueError, IndexError) as error:
        raise EngineError(f"KataGo's kata-raw-nn answer holds no policy: {error}") from None


_analysers: dict[KataGoSettings, KataGoAnalyser] = {}
_players: dict[KataGoSettings, KataGoPlayer] = {}


def analyser(settings: KataGoSettings) -> KataGoAnalyser:
    """This process's analysis engine for ``settings`` (kept between questions: KataGo
    takes seconds to start)."""
    found = _analysers.get(settings)
    if found is None:
        found = _analysers[settings] = KataGoAnalyser(
            settings.analysis_command(), visits=settings.review_visits
        )
    return found


def player(settings: KataGoSettings) -> KataGoPlayer:
    """This process's GTP engine for ``settings``, kept between moves."""
    found = _players.get(settings)
    if found is None:
        found = _players[settings] = KataGoPlayer(settings.gtp_command())
    return found


def stop_reviews() -> None:
    """Ends the reviews' queries in flight in this process: the computer's move or an
    explore has the cores."""
    for each in _analysers.values():
        each.stop()


def close() -> None:
    """Stops every KataGo this process runs."""
    while _analysers:
        _analysers.popitem()[1].close()
    while _players:
        _players.popitem()[1].close()
