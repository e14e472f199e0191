"""When an account is kept out of the seeks, the pools and the tournaments' joins, and for
how long (lichess's playban): plain Python, no Django. The server feeds it an account's
offences and its earlier playbans, with the time; it answers the playban to give, if any.

An offence is a game of the account's, played with a clock other than correspondence's
against another player (never the computer), that ended in one of two ways:

- ``no_move``: the game ended at the first-move deadline while it was the account's
  first move (it never moved: a tournament's game too);
- ``left``: a game the account had started (made a move in) ended because it was gone:
  its clock ran out while none of its sockets was open, or its opponent claimed the game
  after it had been away ``ABANDON_SECONDS``.

Which games are offences is the server's to say (moderation.services.playbans); what
they cost is this module's:

- ``NO_MOVES`` games ended without the account's move within ``WITHIN`` cost a playban;
  one game left costs a playban at once (leaving is never an accident of a slow start).
- An offence counts towards one playban only: the server passes those no playban has
  counted yet. Older than ``WITHIN``, it is forgotten.
- The first playban lasts ``FIRST_BAN``; each earlier playban within ``REMEMBERED``
  before the new one doubles it, up to ``LONGEST_BAN``. A playban that staff lifted does
  not double the next.

>>> now = datetime.datetime(2026, 5, 1, 12, 0, tzinfo=datetime.UTC)
>>> minutes = datetime.timedelta(minutes=1)
>>> aborts = [Offence(now - 20 * minutes, "no_move"), Offence(now - 5 * minutes, "no_move")]
>>> playban(aborts, [], now) is None
True
>>> playban([*aborts, Offence(now, "no_move")], [], now).length
datetime.timedelta(seconds=900)
>>> playban([Offence(now, "left")], [PastBan(now - 60 * minutes)], now).length
datetime.timedelta(seconds=1800)
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Reason = Literal["no_move", "left"]

NO_MOVES = 3
"""Games ended at the first-move deadline without the account's move, within ``WITHIN``,
that cost a playban."""
WITHIN = datetime.timedelta(hours=24)
FIRST_BAN = datetime.timedelta(minutes=15)
LONGEST_BAN = datetime.timedelta(hours=24)
REMEMBERED = datetime.timedelta(days=7)
"""The playbans that double the next one: those given within this long before it."""


@dataclass(frozen=True)
class Offence:
    """A game that ended, at ``at``, without the account's move (``no_move``) or with the
    account gone (``left``)."""

    at: datetime.datetime
    reason: Reason


@dataclass(frozen=True)
class PastBan:
    """An earlier playban of the account, given at ``at``; ``lifted`` by staff."""

    at: datetime.datetime
    lifted: bool = False


@dataclass(frozen=True)
class Playban:
    """A playban to give: for ``reason``, ``length`` long, ending at ``until``."""

    reason: Reason
    length: datetime.timedelta
    until: datetime.datetime


def length(bans: Iterable[PastBan], now: datetime.datetime) -> datetime.timedelta:
    """How long a playban given at ``now`` lasts, after the account's earlier ``bans``:
    ``FIRST_BAN``, doubled by each of them not lifted and given within ``REMEMBERED``
    before ``now``, at most ``LONGEST_BAN``.

    >>> now = datetime.datetime(2026, 5, 1, tzinfo=datetime.UTC)
    >>> [length([PastBan(now)] * repeats, now) // datetime.timedelta(minutes=1)
    ...  for repeats in range(8)]
    [15, 30, 60, 120, 240, 480, 960, 1440]
    """
    result = FIRST_BAN
    for ban in bans:
        if not ban.lifted and now - REMEMBERED < ban.at <= now:
            result = min(result * 2, LONGEST_BAN)
    return result


def playban(
    offences: Iterable[Offence], bans: Iterable[PastBan], now: datetime.datetime
) -> Playban | None:
    """The playban the account earns at ``now``, None if none: ``offences`` are those no
    playban has counted yet (older than ``WITHIN`` they are forgotten), ``bans`` its
    earlier playbans. A game left costs one at once (``left``); else ``NO_MOVES`` games
    without a move do (``no_move``)."""
    recent = [offence for offence in offences if now - WITHIN < offence.at <= now]
    if any(offence.reason == "left" for offence in recent):
        reason: Reason = "left"
    elif sum(offence.reason == "no_move" for offence in recent) >= NO_MOVES:
        reason = "no_move"
    else:
        return None
    lasts = length(bans, now)
    return Playban(reason, lasts, now + lasts)
