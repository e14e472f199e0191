"""The computer's engines in a server process: a bounded pool, fed by the clock watch.

Each tick of the watch (games.workers.clockwatch) claims as many turns the computer owes as this
process has engines free (``computer.claim_turns``; ``COMPUTER_ENGINES`` a process,
default 2: the machine's cores), hands each to a worker process of its own
(``gameengine.answer``, which imports no Django: a pure engine, or GNU Go over its
pipes) and stores the answer through ``computer.computer_move`` or
``computer.computer_count``. The thinking never runs on the event loop nor holds the GIL
of the process that serves the sockets, so no other game waits for it; turns beyond the
free engines wait in the database for the next tick (the longest waiting first). Each
engine move has a time limit of its own (the level's budget; GNU Go's, with a fallback).
The worker processes, and the GNU Go they start, end within a fraction of a second of
the server process, however it ends (``gameengine.lifeline``).

The same engines review finished games (``analysis.claim_analyses``, docs/api/http.md
"The review"), behind the moves the computer owes: a review is claimed only when an engine
stays free for the turns after it, at most ``ANALYSES`` at once in a process, and it
analyses one position at a time, giving its engine back (its claim released, to be taken
up again from the last stored position) whenever the turns owed fill the other engines
(or every engine is busy).

And they answer the positions people try on a replay (``explore.json``, docs/api/http.md
"The review"; ``explore``): the web request hands its job (``gameengine.explore``, plain
data) to its process's pool and awaits the verdict, so the search never runs in the web
process (where it would hold the GIL that every other request of the process needs).

Each explore is a player's (an account, else a browser's session), and a player's
explores run one at a time, in the order they came, each waiting behind the player's
earlier ones (``lines``): one player's burst holds one engine, never all of them. At
most ``EXPLORE_PER_PLAYER`` of a player's wait in a process; beyond, the explore is
refused (``EnginesBusy``, 429). Across processes a lease in Django's cache (Redis when
several processes serve) holds a player's running explore: another process starts that
player's next one once it is given back (or has run out, a killed process's).

A player's first explore waits behind the turns the computer owes and the other players'
explores queued before it (each player's next joins the queue's end when their last
ends: players take turns), and ahead of the reviews. Like a review, an explore never
takes a process's last free engine: it stays for the turns the computer will owe, which
so never wait behind a queue of explores (with a single engine, ``COMPUTER_ENGINES=1``,
an explore takes it when no turn is owed, and a turn owed meanwhile waits for that one
explore). An explore starts at the first tick (woken at once) with an engine to spare; a
review gives its engine back to queued explores as it does to owed turns. The tick that
finds a player's first explore waiting for an engine longer than ``EXPLORE_QUEUE``
seconds refuses it (``EnginesBusy``, 503), and the player's explores behind it: the load
is refused in words, never answered ``engine_error``; the wait behind the player's own
earlier explores is not counted (their number is bounded, and each its engine's time).
Once started, an explore has the engine's own time (the job's ``seconds``) and
``EXPLORE_GRACE`` more, beyond which the answer is the engine's "could not answer"
(``{"engine_error"}``), as when the engine fails; the engine and the player's turn stay
taken until the job ends. A process where no pool serves (the test client, a WSGI
server; daphne's ``runserver`` has one) runs the job in a thread of its own instead,
with no queue.

Last comes the idle work the site hands the pool (``idle_work``, given by
``othello_site.asgi`` through the clock watch: the puzzles' mining of finished games):
one job at a time in a process, claimed only at a tick that claimed no review and left
two engines free with no explore waiting, so that it never takes the last free
engine; a job runs to its end in an engine's worker process (a few seconds), its claim a
lease in the database that another process takes over once it runs out. A job that comes
with KataGo's settings (a Go game's puzzles) runs in KataGo's lane instead, in its parts
(``IdleWork.parts``: a position each), one lane job a part.

KataGo's jobs (where ``KATAGO`` is set: the computer's Go moves, Go reviews, Go explores)
run in one more worker process of their own, one at a time (``KataGoLane``): each takes
the machine's cores, and there KataGo's GTP and analysis engines stay between jobs. The
computer's moves go first, then the explores, then the reviews' positions, then the idle
work that comes with KataGo's settings (a Go game's puzzles, one position at a time: a
computer's Go move waits for one position at most).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import heapq
import itertools
import logging
import math
import multiprocessing
import os
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext, ngettext

from gameengine.analysis import verdict
from gameengine.answer import answer
from gameengine.explore import explore as explore_job
from gameengine.lifeline import engine_worker
from games.services import analysis, computer, errors

logger = logging.getLogger(__name__)

Database = Callable[..., Awaitable[Any]]

ANALYSES = 1
"""The reviews one process analyses at once."""
EXPLORE_QUEUE = 60.0
"""The most seconds a player's first explore waits for an engine (behind the turns the
computer owes and the other players' explores): four of GNU Go's crowded 19x19 explores."""
EXPLORE_PER_PLAYER = 12
"""The most explores of one player in one process at once: one running or waiting for an
engine, the rest behind it."""
EXPLORE_GRACE = 5.0
"""Seconds an explore may take beyond its engine's time (``settings["seconds"]``):
starting the engine, replaying the game, an exact solve."""
EXPLORE_RETRY = 10
"""The ``Retry-After`` (seconds) of an explore refused for the load."""
LEASE_MARGIN = 5.0
"""Seconds a player's lease on a running explore outlasts the job's time and grace: a
killed process's lease runs out then."""

Verdict = dict[str, Any]
T = TypeVar("T")


@dataclasses.dataclass(frozen=True)
class IdleWork:
    """Engine work of an app above, done when the engines have nothing more urgent (handed
    to the pool by the top of the site, which may import that app: ``EnginePool(idle_work=)``).

    ``claim(process=, limit=)`` returns up to ``limit`` jobs (plain data) now held by
    ``process``; ``compute(job)`` runs in an engine's worker process (a module-level
    function, no Django) and returns plain data; ``store(job=, process=, found=)``
    keeps that; ``release(job=, process=, failed=)`` gives the job back (``failed``:
    ``compute`` raised a ``ValueError``, the job cannot be done). All but ``compute`` run
    through the pool's ``database``.

    A job that comes with KataGo's settings (a mapping whose ``katago`` is not None) runs
    in KataGo's lane, after everything else there; with ``parts``, each of
    ``parts(job)`` is computed apart (a computer's move waits in the lane for one part
    at most), ``compute`` then returning a list, the lists joined for ``store``."""

    name: str
    claim: Callable[..., list[Any]]
    compute: Callable[[Any], Any]
    store: Callable[..., Any]
    release: Callable[..., Any]
    parts: Callable[[Any], list[Any]] | None = None


TURN, EXPLORE, REVIEW, IDLE = 0, 1, 2, 3
"""The KataGo lane's priorities, most urgent first."""


class KataGoLane:
    """KataGo's jobs one at a time, each taking the machine's cores, in a worker process of
    their own (where KataGo's GTP and analysis engines stay between jobs): the computer's
    moves first, then the explores, then the reviews' positions, then the idle work's (a
    Go game's puzzles), each in order of arrival."""

    def __init__(self) -> None:
        self.busy = False
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    async def run(self, priority: int, executor: Any, call: Callable[[], T]) -> T:
        """``call``'s result, run in ``executor`` once every job more urgent (or as urgent
        and queued earlier) has run."""
        if self.busy or self._waiting:
            turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (priority, next(self._order), turn))
            try:
                await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():
                    self._next()  # handed the lane as it was cancelled: pass it on
                raise
        self.busy = True
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, call)
        finally:
            self._next()

    def _next(self) -> None:
        while self._waiting:
            turn = heapq.heappop(self._waiting)[2]
            if not turn.done():
                turn.set_result(None)  # the lane stays busy: handed on
                return
        self.busy = False


class EnginesBusy(Exception):
    """An explore refused for the load, never started: ``status`` 429 when its player
    has ``EXPLORE_PER_PLAYER`` in the process already, 503 when it (or the player's
    explore it waited behind) waited longer than ``EXPLORE_QUEUE`` seconds for an engine;
    ``message`` in words, ``retry_after`` in seconds."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = EXPLORE_RETRY


@dataclasses.dataclass(eq=False)
class Explore:
    """An explore of ``player``'s (``Player.token``): its ``job``; ``started`` once it has
    an engine, ``answered`` with its verdict."""

    job: Mapping[str, Any]
    player: str
    started: asyncio.Future[None]
    answered: asyncio.Future[Verdict]
    since: float = 0.0
    """When it became its player's first (the pool's ``clock``): waiting for an engine."""

    @property
    def seconds(self) -> float:
        """The most its engine has once started: the job's time and ``EXPLORE_GRACE``."""
        return float(self.job["settings"].get("seconds", 0)) + EXPLORE_GRACE


def take_lease(player: str, holder: str, seconds: float) -> bool:
    """Whether ``holder`` now holds ``player``'s lease on a running explore (for
    ``seconds`` at most), across every process sharing the cache; False while another
    holds it. The cache down, True: each process still runs one of the player's explores
    at a time."""
    try:
        return bool(cache.add(f"explore:{player}", holder, timeout=math.ceil(seconds)))
    except Exception:
        logger.warning("an explore's lease not taken: the cache failed", exc_info=True)
        return True


def give_back_lease(player: str, holder: str) -> None:
    """``holder`` gives ``player``'s lease back (when it still holds it)."""
    key = f"explore:{player}"
    try:
        if cache.get(key) == holder:
            cache.delete(key)
    except Exception:
        logger.warning("an explore's lease not given back: the cache failed", exc_info=True)


_serving: EnginePool | None = None
"""The pool of this process's clock watch, once it serves (``EnginePool.serve``)."""


class EnginePool:
    """The engines of this process (``size`` at once), claiming turns as ``process``."""

    def __init__(
        self,
        process: str,
        size: int | None = None,
        *,
        wake: Callable[[], None] | None = None,
        idle_work: Sequence[IdleWork] = (),
    ) -> None:
        self.process = process
        self.idle_work = tuple(idle_work)
        self.size = size or settings.COMPUTER_ENGINES
        self.busy = 0
        self.tasks: set[asyncio.Task[None]] = set()
        self.analysing = 0
        self.idling = 0
        self.turns_waiting = False
        # The explores whose player has none before them here, waiting for an engine, in
        # the order they got there; each player's explores not ended yet, in order: the
        # first queued there or running, the others behind it.
        self.explores: deque[Explore] = deque()
        self.lines: dict[str, deque[Explore]] = {}
        self.clock: Callable[[], float] = time.monotonic
        self._leases = itertools.count()
        self.explorer: Callable[[Mapping[str, Any]], Verdict] = explore_job
        # Asks the clock watch for a tick now: an explore is queued, or an engine is free
        # for the explores queued.
        self.wake = wake or (lambda: None)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.katago: Mapping[str, Any] | None = settings.KATAGO
        self.lane = KataGoLane()
        self._executor: ProcessPoolExecutor | None = None
        self._katago_executor: ProcessPoolExecutor | None = None

    def serve(self) -> None:
        """This pool answers the explores of this process, on the running event loop."""
        global _serving
        self.loop = asyncio.get_running_loop()
        _serving = self

    @property
    def executor(self) -> ProcessPoolExecutor:
        """The engines' worker processes, started at the first turn (a process that never
        plays the computer starts none)."""
        if self._executor is None:
            spawn = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                self.size,
                mp_context=spawn,
                initializer=engine_worker,
                initargs=(os.getpid(), settings.ENGINE_NICENESS),
            )
        return self._executor

    @property
    def katago_executor(self) -> ProcessPoolExecutor:
        """The worker process of KataGo's jobs (``KataGoLane``), started at the first."""
        if self._katago_executor is None:
            spawn = multiprocessing.get_context("spawn")
            self._katago_executor = ProcessPoolExecutor(
                1,
                mp_context=spawn,
                initializer=engine_worker,
                initargs=(os.getpid(), settings.ENGINE_NICENESS),
            )
        return self._katago_executor

    async def _run(self, call: Callable[[], T], *, katago: int | None = None) -> T:
        """``call`` in an engine's worker process: KataGo's lane at priority ``katago``
        when it is a KataGo job."""
        if katago is not None:
            return await self.lane.run(katago, self.katago_executor, call)
        return await asyncio.get_running_loop().run_in_executor(self.executor, call)

    async def tick(self, database: Database) -> None:
        """Claim the turns there are engines free for, and start thinking them; then the
        explores and the reviews, with the engines left; refuse the explores that waited
        too long for one."""
        try:
            await self._claim(database)
        finally:
            self._refuse_late()

    async def _claim(self, database: Database) -> None:
        free = self.size - self.busy
        if free <= 0:
            # Every engine is busy: a review gives its engine back after its position.
            self.turns_waiting = True
            return
        turns = await database(computer.claim_turns, process=self.process, limit=free)
        # Every free engine took a turn: more may be owed, and reviews give way.
        self.turns_waiting = len(turns) >= free
        for turn in turns:
            self.busy += 1
            self._start(self._think(turn, database))
        # No more turns are owed than were claimed: the explores take the engines left but
        # the last, which stays free for the next turn (a single engine: when it is free).
        room = max(self.size - 1, 1)
        for queued in list(self.explores):
            if self.busy >= room:
                break
            holder = f"{self.process}:{next(self._leases)}"
            seconds = queued.seconds + LEASE_MARGIN
            if not await database(take_lease, player=queued.player, holder=holder, seconds=seconds):
                continue  # another process runs one of this player's explores
            if queued not in self.explores or self.busy >= room:  # changed meanwhile
                await database(give_back_lease, player=queued.player, holder=holder)
                continue
            self.explores.remove(queued)
            self._start_explore(queued, holder, database)
        reviewing = False
        if self.size - self.busy >= 2 and self.analysing < ANALYSES:
            for job in await database(
                analysis.claim_analyses, process=self.process, limit=ANALYSES - self.analysing
            ):
                self.busy += 1
                self.analysing += 1
                self._start(self._analyse(job, database))
                reviewing = True
        if self.size - self.busy >= 2 and not (self.idling or self.explores or reviewing):
            for work in self.idle_work:
                jobs = await database(work.claim, process=self.process, limit=1)
                for idle_job in jobs:
                    self.busy += 1
                    self.idling += 1
                    self._start(self._idle(work, idle_job, database))
                if jobs:
                    return

    def _start(self, work: Awaitable[None]) -> None:
        task = asyncio.get_running_loop().create_task(work)  # type: ignore[arg-type]
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _free(self) -> None:
        """An engine is free again: the explores queued get it at once (after the turns)."""
        self.busy -= 1
        if self.explores:
            self.wake()

    async def explore(self, job: Mapping[str, Any], player: str) -> Verdict:
        """The engine's verdict on ``job`` (``gameengine.explore``), asked by ``player``
        (``Player.token``), from one of this pool's engines once the player's earlier
        explores have ended and the turns owed are served; ``{"engine_error"}`` when the
        job took longer than its time and ``EXPLORE_GRACE``. Raises ``EnginesBusy`` when
        the player has ``EXPLORE_PER_PLAYER`` explores here already (429), or when it, or
        the player's explore it waited behind, waited longer than ``EXPLORE_QUEUE``
        seconds for an engine (503)."""
        line = self.lines.setdefault(player, deque())
        if len(line) >= EXPLORE_PER_PLAYER:
            raise EnginesBusy(
                429,
                ngettext(
                    "you have %(count)s explore waiting for its answer already: "
                    "ask again once it is answered",
                    "you have %(count)s explores waiting for their answers already: "
                    "ask again once one is answered",
                    len(line),
                )
                % {"count": len(line)},
            )
        loop = asyncio.get_running_loop()
        queued = Explore(job, player, loop.create_future(), loop.create_future())
        line.append(queued)
        if len(line) == 1:
            self._queue(queued)
        try:
            try:
                await asyncio.shield(queued.started)
            except TimeoutError:  # refused by a tick (_refuse_late): in the request's words
                raise EnginesBusy(
                    503, gettext("the engines are busy: try again in a moment")
                ) from None
            try:
                return await asyncio.wait_for(asyncio.shield(queued.answered), queued.seconds)
            except TimeoutError:
                return {
                    "engine_error": gettext("the engine did not answer within %(seconds)s s")
                    % {"seconds": f"{queued.seconds:g}"}
                }
        finally:
            # Cancelled (the client left) before it started: never started later, and the
            # player's next one goes on. A started one holds the engine, and its player's
            # turn, until its job ends (``_explore``); a refused one is gone already.
            if not queued.started.done():
                self._leave(queued)

    def _queue(self, queued: Explore) -> None:
        """``queued``, its player's first, waits for an engine: the watch ticks now."""
        queued.since = self.clock()
        self.explores.append(queued)
        self.wake()

    def _leave(self, queued: Explore) -> None:
        """``queued`` leaves its player's line (and the queue): the next one, if any, is
        queued when ``queued`` was the first."""
        line = self.lines[queued.player]
        first = line[0] is queued
        line.remove(queued)
        if queued in self.explores:
            self.explores.remove(queued)
        if not line:
            del self.lines[queued.player]
        elif first:
            self._queue(line[0])

    def _refuse_late(self) -> None:
        """Refuse the explores that waited for an engine longer than ``EXPLORE_QUEUE``
        seconds, and their players' explores behind them."""
        now = self.clock()
        for queued in [queued for queued in self.explores if now - queued.since > EXPLORE_QUEUE]:
            self.explores.remove(queued)
            for refused in self.lines.pop(queued.player):
                refused.started.set_exception(TimeoutError())

    def _start_explore(self, queued: Explore, holder: str, database: Database) -> None:
        self.busy += 1
        queued.started.set_result(None)
        self._start(self._explore(queued, holder, database))

    async def _explore(self, queued: Explore, holder: str, database: Database) -> None:
        found: Verdict | None = None
        try:
            think = functools.partial(self.explorer, queued.job)
            uses_katago = queued.job.get("settings", {}).get("katago") is not None
            try:
                found = await self._run(think, katago=EXPLORE if uses_katago else None)
            except Exception as error:
                logger.exception("an explore failed")
                found = {"engine_error": gettext("the engine failed: %(error)s") % {"error": error}}
            await database(give_back_lease, player=queued.player, holder=holder)
        finally:
            # The engine is free, the player's next explore may have it, and then the
            # verdict is told.
            self._free()
            self._leave(queued)
            if found is not None and not queued.answered.done():
                queued.answered.set_result(found)

    async def _analyse(self, job: analysis.AnalysisJob, database: Database) -> None:
        """Analyse ``job``'s positions one at a time, storing each, until done, until
        another process holds the review, or until turns owed need this engine."""
        data = dataclasses.asdict(job)
        game_id = job.game_id
        go_command = analysis.go_command()
        katago = self.katago if job.kind == "go" else None
        before = job.before
        try:
            for ply in range(job.next_ply, job.total):
                if self.turns_waiting or self.explores:
                    await database(analysis.release_analysis, game_id=game_id, process=self.process)
                    return
                think = functools.partial(
                    verdict, data, ply, go_command=go_command, katago=katago, before=before
                )
                found = await self._run(think, katago=None if katago is None else REVIEW)
                before = found
                stored = await database(
                    analysis.store_verdict,
                    game_id=game_id,
                    process=self.process,
                    ply=ply,
                    verdict=found,
                )
                if not stored:
                    return
        except ValueError:
            logger.exception("the review of %s cannot be analysed", game_id)
            await database(
                analysis.release_analysis, game_id=game_id, process=self.process, failed=True
            )
        except Exception:
            logger.exception("the review of %s stopped", game_id)
            await database(analysis.release_analysis, game_id=game_id, process=self.process)
        finally:
            self.analysing -= 1
            self._free()

    async def _idle(self, work: IdleWork, job: Any, database: Database) -> None:
        """Do ``job`` of ``work`` in an engine's worker process and store what it found."""
        try:
            uses_katago = isinstance(job, Mapping) and job.get("katago") is not None
            lane = IDLE if uses_katago else None
            if work.parts is None:
                found = await self._run(functools.partial(work.compute, job), katago=lane)
            else:
                found = []
                for part in work.parts(job):
                    found += await self._run(functools.partial(work.compute, part), katago=lane)
            await database(work.store, job=job, process=self.process, found=found)
        except ValueError:
            logger.exception("a job of %s cannot be done", work.name)
            await database(work.release, job=job, process=self.process, failed=True)
        except Exception:
            logger.exception("a job of %s stopped", work.name)
            await database(work.release, job=job, process=self.process)
        finally:
            self.idling -= 1
            self._free()

    async def _think(self, turn: computer.Turn, database: Database) -> None:
        try:
            katago = self.katago if turn.kind == "go" and turn.task == "move" else None
            think = functools.partial(
                answer,
                dataclasses.asdict(turn),
                gnugo_path=settings.GNUGO_PATH,
                katago_settings=katago,
            )
            result = await self._run(think, katago=None if katago is None else TURN)
            if turn.task == "count":
                await database(
                    computer.computer_count,
                    game_id=turn.game_id,
                    marking=turn.marking,
                    dead=result["dead"],
                )
            else:
                await database(
                    computer.computer_move,
                    game_id=turn.game_id,
                    ply=turn.ply,
                    point=result["point"],
                    claimed_at=turn.claimed_at,
                )
        except errors.GameError as error:
            # Over on time meanwhile, or (rarely) a random move of GNU Go's that our
            # positional superko refuses: the turn is claimed again at the next tick.
            logger.info("the computer's answer in %s was refused: %s", turn.game_id, error)
            await database(computer.release_turn, game_id=turn.game_id)
        except Exception:
            logger.exception("the computer could not answer in %s", turn.game_id)
            await database(computer.release_turn, game_id=turn.game_id)
        finally:
            self._free()


async def explore(job: Mapping[str, Any], player: str) -> Verdict:
    """The engine's verdict on ``job`` (``gameengine.explore``), asked by ``player``
    (``Player.token``): from this process's pool when one serves on this event loop (a
    daphne process, ``runserver`` too: ``EnginePool.explore``, which may raise
    ``EnginesBusy``); else (the test client, a WSGI server) computed in a thread of this
    process, as slow for its other requests as a search in the web process is."""
    pool = _serving
    if pool is not None and pool.loop is asyncio.get_running_loop():
        return await pool.explore(job, player)
    return await asyncio.to_thread(explore_job, job)
