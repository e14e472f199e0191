"""The computer's engines in a server process: a bounded pool, fed by the clock watch.

Each tick of the watch (games.workers.clockwatch) claims as many turns the computer owes as this
process has engines free (``services.claim_turns``; ``COMPUTER_ENGINES`` a process,
default 2: the machine's cores), hands each to a worker process of its own
(``games.engine.answer``, which imports no Django: a pure engine, or GNU Go over its
pipes) and stores the answer through ``services.computer_move`` or
``services.computer_count``. The thinking never runs on the event loop nor holds the GIL
of the process that serves the sockets, so no other game waits for it; turns beyond the
free engines wait in the database for the next tick (the longest waiting first). Each
engine move has a time limit of its own (the level's budget; GNU Go's, with a fallback).
The worker processes, and the GNU Go they start, end within a fraction of a second of
the server process, however it ends (``games.engine.lifeline``).

The same engines review finished games (``services.claim_analyses``, DESIGN.md
"Review"), behind the moves the computer owes: a review is claimed only when an engine
stays free for the turns after it, at most ``ANALYSES`` at once in a process, and it
analyses one position at a time, giving its engine back (its claim released, to be taken
up again from the last stored position) whenever the turns owed fill the other engines
(or every engine is busy).

And they answer the positions people try on a replay (``explore.json``, DESIGN.md
"Review"; ``explore``): the web request hands its job (``games.engine.explore``, plain
data) to its process's pool and awaits the verdict, so the search never runs in the web
process (where it would hold the GIL that every other request of the process needs). An
explore waits behind the turns the computer owes and ahead of the reviews: it starts at
the first tick (woken at once) with an engine free and no turn owed; a review gives its
engine back to queued explores as it does to owed turns. It waits at most
``EXPLORE_QUEUE`` seconds for an engine and then the engine's own time (the job's
``seconds``) and ``EXPLORE_GRACE`` more; beyond, the answer is the engine's "could not
answer" (``{"engine_error"}``), as when the engine fails. A process where no pool serves
(the test client, a WSGI server; daphne's ``runserver`` has one) runs the job in a
thread of its own instead.

KataGo's jobs (where ``KATAGO`` is set: the computer's Go moves, Go reviews, Go explores)
run in one more worker process of their own, one at a time (``KataGoLane``): each takes
the machine's cores, and there KataGo's GTP and analysis engines stay between jobs. The
computer's moves go first, then the explores, then the reviews' positions.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import heapq
import itertools
import logging
import multiprocessing
import os
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from django.conf import settings
from django.utils.translation import gettext

from games import services
from games.engine.analysis import verdict
from games.engine.answer import answer
from games.engine.explore import explore as explore_job
from games.engine.lifeline import engine_worker

logger = logging.getLogger(__name__)

Database = Callable[..., Awaitable[Any]]

ANALYSES = 1
"""The reviews one process analyses at once."""
EXPLORE_QUEUE = 10.0
"""The most seconds an explore waits for a free engine (behind the computer's turns)."""
EXPLORE_GRACE = 5.0
"""Seconds an explore may take beyond its engine's time (``settings["seconds"]``):
starting the engine, replaying the game, an exact solve."""

Verdict = dict[str, Any]
T = TypeVar("T")

TURN, EXPLORE, REVIEW = 0, 1, 2
"""The KataGo lane's priorities, most urgent first."""


class KataGoLane:
    """KataGo's jobs one at a time, each taking the machine's cores, in a worker process of
    their own (where KataGo's GTP and analysis engines stay between jobs): the computer's
    moves first, then the explores, then the reviews' positions, each in order of arrival."""

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


@dataclasses.dataclass(eq=False)
class Explore:
    """A queued explore: its ``job``; ``started`` once it has an engine, ``answered`` with
    its verdict."""

    job: Mapping[str, Any]
    started: asyncio.Future[None]
    answered: asyncio.Future[Verdict]


_serving: EnginePool | None = None
"""The pool of this process's clock watch, once it serves (``EnginePool.serve``)."""


class EnginePool:
    """The engines of this process (``size`` at once), claiming turns as ``process``."""

    def __init__(
        self, process: str, size: int | None = None, *, wake: Callable[[], None] | None = None
    ) -> None:
        self.process = process
        self.size = size or settings.COMPUTER_ENGINES
        self.busy = 0
        self.tasks: set[asyncio.Task[None]] = set()
        self.analysing = 0
        self.turns_waiting = False
        self.explores: deque[Explore] = deque()
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
        """Claim the turns there are engines free for, and start thinking them."""
        free = self.size - self.busy
        if free <= 0:
            # Every engine is busy: a review gives its engine back after its position.
            self.turns_waiting = True
            return
        turns = await database(services.claim_turns, process=self.process, limit=free)
        # Every free engine took a turn: more may be owed, and reviews give way.
        self.turns_waiting = len(turns) >= free
        for turn in turns:
            self.busy += 1
            self._start(self._think(turn, database))
        # No more turns are owed than were claimed: the explores take the engines left.
        while self.explores and self.busy < self.size:
            self._start_explore(self.explores.popleft())
        if self.size - self.busy >= 2 and self.analysing < ANALYSES:
            for job in await database(
                services.claim_analyses, process=self.process, limit=ANALYSES - self.analysing
            ):
                self.busy += 1
                self.analysing += 1
                self._start(self._analyse(job, database))

    def _start(self, work: Awaitable[None]) -> None:
        task = asyncio.get_running_loop().create_task(work)  # type: ignore[arg-type]
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _free(self) -> None:
        """An engine is free again: the explores queued get it at once (after the turns)."""
        self.busy -= 1
        if self.explores:
            self.wake()

    async def explore(self, job: Mapping[str, Any]) -> Verdict:
        """The engine's verdict on ``job`` (``games.engine.explore``), from one of this
        pool's engines once the turns owed are served; ``{"engine_error"}`` when no engine
        was free within ``EXPLORE_QUEUE`` seconds or the job took longer than its time
        and ``EXPLORE_GRACE``."""
        loop = asyncio.get_running_loop()
        queued = Explore(job, loop.create_future(), loop.create_future())
        self.explores.append(queued)
        self.wake()
        try:
            try:
                await asyncio.wait_for(asyncio.shield(queued.started), EXPLORE_QUEUE)
            except TimeoutError:
                return {"engine_error": gettext("the engines are busy: try again in a moment")}
            seconds = float(job["settings"].get("seconds", 0)) + EXPLORE_GRACE
            try:
                return await asyncio.wait_for(asyncio.shield(queued.answered), seconds)
            except TimeoutError:
                return {
                    "engine_error": gettext("the engine did not answer within %(seconds)s s")
                    % {"seconds": f"{seconds:g}"}
                }
        finally:
            # Answered, out of time or cancelled (the client left): never started later.
            if not queued.started.done():
                self.explores.remove(queued)

    def _start_explore(self, queued: Explore) -> None:
        self.busy += 1
        queued.started.set_result(None)
        self._start(self._explore(queued))

    async def _explore(self, queued: Explore) -> None:
        try:
            think = functools.partial(self.explorer, queued.job)
            uses_katago = queued.job.get("settings", {}).get("katago") is not None
            found = await self._run(think, katago=EXPLORE if uses_katago else None)
        except Exception as error:
            logger.exception("an explore failed")
            found = {"engine_error": gettext("the engine failed: %(error)s") % {"error": error}}
        finally:
            self._free()
        if not queued.answered.done():
            queued.answered.set_result(found)

    async def _analyse(self, job: services.AnalysisJob, database: Database) -> None:
        """Analyse ``job``'s positions one at a time, storing each, until done, until
        another process holds the review, or until turns owed need this engine."""
        data = dataclasses.asdict(job)
        game_id = job.game_id
        go_command = services.go_command()
        katago = self.katago if job.kind == "go" else None
        before = job.before
        try:
            for ply in range(job.next_ply, job.total):
                if self.turns_waiting or self.explores:
                    await database(services.release_analysis, game_id=game_id, process=self.process)
                    return
                think = functools.partial(
                    verdict, data, ply, go_command=go_command, katago=katago, before=before
                )
                found = await self._run(think, katago=None if katago is None else REVIEW)
                before = found
                stored = await database(
                    services.store_verdict,
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
                services.release_analysis, game_id=game_id, process=self.process, failed=True
            )
        except Exception:
            logger.exception("the review of %s stopped", game_id)
            await database(services.release_analysis, game_id=game_id, process=self.process)
        finally:
            self.analysing -= 1
            self._free()

    async def _think(self, turn: services.Turn, database: Database) -> None:
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
                    services.computer_count,
                    game_id=turn.game_id,
                    marking=turn.marking,
                    dead=result["dead"],
                )
            else:
                await database(
                    services.computer_move,
                    game_id=turn.game_id,
                    ply=turn.ply,
                    point=result["point"],
                    claimed_at=turn.claimed_at,
                )
        except services.GameError as error:
            # Over on time meanwhile, or (rarely) a random move of GNU Go's that our
            # positional superko refuses: the turn is claimed again at the next tick.
            logger.info("the computer's answer in %s was refused: %s", turn.game_id, error)
            await database(services.release_turn, game_id=turn.game_id)
        except Exception:
            logger.exception("the computer could not answer in %s", turn.game_id)
            await database(services.release_turn, game_id=turn.game_id)
        finally:
            self._free()


async def explore(job: Mapping[str, Any]) -> Verdict:
    """The engine's verdict on ``job`` (``games.engine.explore``): from this process's
    pool when one serves on this event loop (a daphne process, ``runserver`` too); else
    (the test client, a WSGI server) computed in a thread of this process, as slow for its other
    requests as a search in the web process is."""
    pool = _serving
    if pool is not None and pool.loop is asyncio.get_running_loop():
        return await pool.explore(job)
    return await asyncio.to_thread(explore_job, job)
