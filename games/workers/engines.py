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
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import multiprocessing
import os
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from django.conf import settings

from games import services
from games.engine.analysis import verdict
from games.engine.answer import answer
from games.engine.lifeline import watch_parent

logger = logging.getLogger(__name__)

Database = Callable[..., Awaitable[Any]]

ANALYSES = 1
"""The reviews one process analyses at once."""


class EnginePool:
    """The engines of this process (``size`` at once), claiming turns as ``process``."""

    def __init__(self, process: str, size: int | None = None) -> None:
        self.process = process
        self.size = size or settings.COMPUTER_ENGINES
        self.busy = 0
        self.tasks: set[asyncio.Task[None]] = set()
        self.analysing = 0
        self.turns_waiting = False
        self._executor: ProcessPoolExecutor | None = None

    @property
    def executor(self) -> ProcessPoolExecutor:
        """The engines' worker processes, started at the first turn (a process that never
        plays the computer starts none)."""
        if self._executor is None:
            spawn = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                self.size, mp_context=spawn, initializer=watch_parent, initargs=(os.getpid(),)
            )
        return self._executor

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

    async def _analyse(self, job: services.AnalysisJob, database: Database) -> None:
        """Analyse ``job``'s positions one at a time, storing each, until done, until
        another process holds the review, or until turns owed need this engine."""
        data = dataclasses.asdict(job)
        game_id = job.game_id
        go_command = services.go_command()
        try:
            for ply in range(job.next_ply, job.total):
                if self.turns_waiting:
                    await database(services.release_analysis, game_id=game_id, process=self.process)
                    return
                think = functools.partial(verdict, data, ply, go_command=go_command)
                found = await asyncio.get_running_loop().run_in_executor(self.executor, think)
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
            self.busy -= 1
            self.analysing -= 1

    async def _think(self, turn: services.Turn, database: Database) -> None:
        try:
            think = functools.partial(
                answer, dataclasses.asdict(turn), gnugo_path=settings.GNUGO_PATH
            )
            result = await asyncio.get_running_loop().run_in_executor(self.executor, think)
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
            self.busy -= 1
