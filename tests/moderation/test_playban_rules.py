"""moderation.playban_rules by tables: which offences earn a playban, and how long it
lasts after the earlier ones. Times are minutes and hours before a fixed now."""

from __future__ import annotations

import datetime
import doctest

import pytest

from moderation import playban_rules
from moderation.playban_rules import Offence, PastBan, playban

NOW = datetime.datetime(2026, 5, 1, 12, 0, tzinfo=datetime.UTC)
MINUTE = datetime.timedelta(minutes=1)
HOUR = datetime.timedelta(hours=1)
DAY = datetime.timedelta(days=1)


def no_move(ago: datetime.timedelta) -> Offence:
    return Offence(NOW - ago, "no_move")


def left(ago: datetime.timedelta) -> Offence:
    return Offence(NOW - ago, "left")


@pytest.mark.parametrize(
    ("offences", "reason"),
    [
        ([], None),
        ([no_move(0 * MINUTE)], None),
        ([no_move(3 * HOUR), no_move(0 * MINUTE)], None),
        ([no_move(23 * HOUR), no_move(3 * HOUR), no_move(0 * MINUTE)], "no_move"),
        ([no_move(0 * MINUTE)] * 4, "no_move"),
        # Older than a day: forgotten.
        ([no_move(24 * HOUR), no_move(3 * HOUR), no_move(0 * MINUTE)], None),
        ([no_move(30 * HOUR), no_move(25 * HOUR), no_move(0 * MINUTE)], None),
        # One game left is enough, and says so whatever else counted.
        ([left(0 * MINUTE)], "left"),
        ([left(23 * HOUR)], "left"),
        ([no_move(2 * HOUR), no_move(HOUR), left(0 * MINUTE)], "left"),
        ([no_move(2 * HOUR), no_move(HOUR), no_move(0 * MINUTE), left(MINUTE)], "left"),
        ([left(25 * HOUR)], None),
        # An offence after now (a clock that went back) is not weighed.
        ([no_move(-MINUTE), no_move(HOUR), no_move(0 * MINUTE)], None),
    ],
)
def test_which_offences_earn_a_playban(offences: list[Offence], reason: str | None) -> None:
    earned = playban(offences, [], NOW)
    assert (earned.reason if earned else None) == reason
    if earned is not None:
        assert earned.until == NOW + 15 * MINUTE


THREE = [no_move(2 * HOUR), no_move(HOUR), no_move(0 * MINUTE)]


@pytest.mark.parametrize(
    ("bans", "minutes"),
    [
        ([], 15),
        ([PastBan(NOW - HOUR)], 30),
        ([PastBan(NOW - 2 * HOUR), PastBan(NOW - HOUR)], 60),
        ([PastBan(NOW - hours * HOUR) for hours in range(1, 4)], 120),
        ([PastBan(NOW - hours * HOUR) for hours in range(1, 7)], 960),
        ([PastBan(NOW - hours * HOUR) for hours in range(1, 8)], 1440),  # 32 h: capped
        ([PastBan(NOW - hours * HOUR) for hours in range(1, 30)], 1440),
        # A week back is forgotten; within it each counts.
        ([PastBan(NOW - 7 * DAY)], 15),
        ([PastBan(NOW - 7 * DAY + MINUTE)], 30),
        ([PastBan(NOW - 8 * DAY), PastBan(NOW - 6 * DAY)], 30),
        # Lifted by staff: it does not double the next.
        ([PastBan(NOW - HOUR, lifted=True)], 15),
        ([PastBan(NOW - 2 * HOUR), PastBan(NOW - HOUR, lifted=True)], 30),
    ],
)
def test_each_repeat_doubles_the_playban_up_to_a_day(bans: list[PastBan], minutes: int) -> None:
    earned = playban(THREE, bans, NOW)
    assert earned is not None
    assert earned.length == minutes * MINUTE
    assert earned.until == NOW + minutes * MINUTE


def test_the_figures_are_lichess_s() -> None:
    assert playban_rules.NO_MOVES == 3
    assert playban_rules.WITHIN == DAY
    assert playban_rules.FIRST_BAN == 15 * MINUTE
    assert playban_rules.LONGEST_BAN == DAY


def test_the_doctests_hold() -> None:
    assert doctest.testmod(playban_rules).failed == 0
