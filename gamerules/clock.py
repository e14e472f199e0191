"""Time controls: each side's clock as an immutable value, charged with pure functions.

The server keeps the timestamps (when a turn began) and passes the elapsed
milliseconds in; nothing here reads a clock, so tests pass fixed times (the shape of
scalachess's ``Clock``). Systems, as docs/guide.md#clocks tells them:

- ``fischer``: main time; each move adds ``increment`` once made in time.
- ``absolute``: main time for the whole game.
- ``byoyomi``: main time, then ``periods`` periods of ``period_time``; a move within a
  period resets it, each period that runs out is used up, and the last one running out
  loses.
- ``canadian``: main time, then ``stones`` moves within ``period_time``; once they are
  played a new period begins.
- ``correspondence``: ``days`` for each move, reset by every move.

First moves (as on lichess), with every system but correspondence: no clock runs until
each side has made its first move, those moves cost no time and earn no increment, and
a side that does not make its first move within the server's limit aborts the game
instead of losing it (``first_move``, ``charged``, ``turn_ms``).

A side has run out the moment its time left reaches zero: a move stored exactly at the
deadline is too late.

>>> control = TimeControl.byoyomi(main_time=10, periods=2, period_time=5)
>>> black = control.start()
>>> control.moved(black, 12_000)  # 10 s of main time, then 2 s into the first period
SideClock(remaining_ms=5000, periods=2, stones=None, overtime=True)
>>> control.time_left_ms(control.moved(black, 12_000))
10000
>>> control.thinking(black, 16_000)  # 6 s into overtime: the first period is used up
SideClock(remaining_ms=4000, periods=1, stones=None, overtime=True)
>>> control.flagged(black, 20_000)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from gamerules.base import ENGLISH, Term, Words, gettext_noop, translated

System = Literal["fischer", "byoyomi", "canadian", "absolute", "correspondence"]
SYSTEMS: tuple[System, ...] = ("fischer", "byoyomi", "canadian", "absolute", "correspondence")
# The systems' names as players write them in a sentence.
SYSTEM_NAMES: dict[System, Term] = {
    "fischer": Term(gettext_noop("Fischer")),
    "byoyomi": Term(gettext_noop("byo-yomi")),
    "canadian": Term(gettext_noop("Canadian")),
    "absolute": Term(gettext_noop("absolute")),
    "correspondence": Term(gettext_noop("correspondence")),
}
SETTINGS = ("main_time", "increment", "periods", "period_time", "stones", "days")
SETTING_NAMES = {
    "main_time": (Term(gettext_noop("Main time")), Term(gettext_noop("seconds"))),
    "increment": (Term(gettext_noop("The increment")), Term(gettext_noop("seconds"))),
    "periods": (Term(gettext_noop("The number of periods")), Term("")),
    "period_time": (Term(gettext_noop("A period")), Term(gettext_noop("seconds"))),
    "stones": (Term(gettext_noop("The stones to play in a period")), Term("")),
    "days": (Term(gettext_noop("The days per move")), Term(gettext_noop("days"))),
}
"""Each setting in a player's words, and its unit (the create form's labels say the same)."""

SECOND = 1000
DAY = 86_400 * SECOND
FIRST_MOVES = 2
"""The first moves of a game: one for each side. Sides alternate from the first move,
whoever makes it (White, in a Go handicap game), and an Othello automatic pass counts as
its side's move: the side had nothing to choose, and a first move still owed after it
would leave the other side moving with no clock running."""


class TimeControlError(ValueError):
    """Settings that make no time control; ``field`` names the first one at fault.
    ``str()`` is the English message, ``translated(words)`` the message in another
    language."""

    def __init__(self, field: str, message: str, /, **params: object) -> None:
        super().__init__(translated(message, params, ENGLISH))
        self.field = field
        self.template = message
        self.params = params

    def translated(self, words: Words) -> str:
        """The message in ``words``' language."""
        return translated(self.template, self.params, words)


@dataclass(frozen=True)
class SideClock:
    """One side's clock, as of the start of its turn or of a moment within it.

    ``remaining_ms``: main time left, or once in overtime the current period's time
    left (correspondence: the time left for this move). ``periods``: byo-yomi periods
    left, else None. ``stones``: Canadian moves still to play in this period, else None.
    """

    remaining_ms: int
    periods: int | None = None
    stones: int | None = None
    overtime: bool = False

    def to_json(self) -> dict[str, Any]:
        """The contract's C: ``remaining_ms``, ``periods``, ``stones``, ``overtime``."""
        return {
            "remaining_ms": self.remaining_ms,
            "periods": self.periods,
            "stones": self.stones,
            "overtime": self.overtime,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SideClock:
        """The clock ``to_json`` gave."""
        return cls(
            remaining_ms=int(data["remaining_ms"]),
            periods=data.get("periods"),
            stones=data.get("stones"),
            overtime=bool(data.get("overtime")),
        )


@dataclass(frozen=True)
class TimeControl:
    """A time control's settings (seconds, except ``days``); None where unused."""

    system: System
    main_time: int | None = None
    increment: int | None = None
    periods: int | None = None
    period_time: int | None = None
    stones: int | None = None
    days: int | None = None

    # Building

    @classmethod
    def fischer(cls, *, main_time: int, increment: int) -> TimeControl:
        return cls.build("fischer", main_time=main_time, increment=increment)

    @classmethod
    def absolute(cls, *, main_time: int) -> TimeControl:
        return cls.build("absolute", main_time=main_time)

    @classmethod
    def byoyomi(cls, *, main_time: int, periods: int, period_time: int) -> TimeControl:
        return cls.build("byoyomi", main_time=main_time, periods=periods, period_time=period_time)

    @classmethod
    def canadian(cls, *, main_time: int, stones: int, period_time: int) -> TimeControl:
        return cls.build("canadian", main_time=main_time, stones=stones, period_time=period_time)

    @classmethod
    def correspondence(cls, *, days: int) -> TimeControl:
        return cls.build("correspondence", days=days)

    @classmethod
    def build(cls, system: str, **settings: object) -> TimeControl:
        """The time control ``system`` with ``settings``, the ones it needs checked and the
        others dropped. Raises TimeControlError (naming the field) for an unknown system, a
        missing setting, one that is not an integer, or one out of range (LIMITS)."""
        if system not in SYSTEMS:
            raise TimeControlError(
                "clock",
                gettext_noop("The clock must be one of none, %(systems)s"),
                systems=", ".join(SYSTEMS),
            )
        values: dict[str, int] = {}
        for field in NEEDS[system]:
            value = settings.get(field)
            words, unit = SETTING_NAMES[field]
            named = {"setting": words, "system": SYSTEM_NAMES[system], "unit": unit}
            if value is None:
                needed = (
                    gettext_noop("%(setting)s is needed for an %(system)s clock")
                    if SYSTEM_NAMES[system][0] in "aeiou"
                    else gettext_noop("%(setting)s is needed for a %(system)s clock")
                )
                raise TimeControlError(field, needed, **named)
            if not isinstance(value, int) or isinstance(value, bool):
                whole = (
                    gettext_noop("%(setting)s must be a whole number of %(unit)s")
                    if unit
                    else gettext_noop("%(setting)s must be a whole number")
                )
                raise TimeControlError(field, whole, **named)
            low, high = LIMITS[field]
            if field == "main_time" and system in ("fischer", "absolute"):
                low = 1  # no main time: no time at all
            if not low <= value <= high:
                between = (
                    gettext_noop("%(setting)s must be from %(low)s to %(high)s %(unit)s")
                    if unit
                    else gettext_noop("%(setting)s must be from %(low)s to %(high)s")
                )
                raise TimeControlError(field, between, low=f"{low:,}", high=f"{high:,}", **named)
            values[field] = value
        return cls(system=system, **values)

    def to_json(self) -> dict[str, Any]:
        """``system`` and every setting (None where unused)."""
        return {"system": self.system, **{field: getattr(self, field) for field in SETTINGS}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TimeControl:
        """The time control ``to_json`` gave."""
        return cls.build(data["system"], **{field: data.get(field) for field in SETTINGS})

    def describe(self, words: Words = ENGLISH) -> str:
        """In a player's words (``words``' language, English by default), naming the
        system: ``5 min, +3 s per move (Fischer)``, ``10 min + 5 x 30 s (byo-yomi)``,
        ``3 days a move (correspondence)`` ...

        >>> TimeControl.fischer(main_time=300, increment=3).describe()
        '5 min, +3 s per move (Fischer)'
        >>> TimeControl.canadian(main_time=1200, stones=25, period_time=300).describe()
        '20 min + 25 moves in 5 min (Canadian)'
        """
        return words.gettext("%(settings)s (%(system)s)") % {
            "settings": self._settings_in_words(words),
            "system": words.gettext(SYSTEM_NAMES[self.system]),
        }

    def _settings_in_words(self, words: Words) -> str:
        main = _duration(self.main_time or 0, words)
        period = _duration(self.period_time or 0, words)
        if self.system == "fischer":
            if not self.increment:
                return words.gettext("%(main)s, no increment") % {"main": main}
            return words.gettext("%(main)s, +%(increment)s per move") % {
                "main": main,
                "increment": _duration(self.increment, words),
            }
        if self.system == "absolute":
            return words.gettext("%(main)s in all") % {"main": main}
        if self.system == "byoyomi":
            return words.gettext("%(main)s + %(periods)s x %(period)s") % {
                "main": main,
                "periods": self.periods,
                "period": period,
            }
        if self.system == "canadian":
            return words.ngettext(
                "%(main)s + %(stones)s move in %(period)s",
                "%(main)s + %(stones)s moves in %(period)s",
                self.stones or 0,
            ) % {"main": main, "stones": self.stones, "period": period}
        return words.ngettext("%(days)s day a move", "%(days)s days a move", self.days or 0) % {
            "days": self.days
        }

    def side_in_words(self, side: SideClock, words: Words = ENGLISH) -> str:
        """One side's clock in words (``words``' language, English by default), for
        people reading a record: ``4:32 + 3 periods of 30 s``, ``0:21 left in the period,
        2 periods of 30 s in all``, ``3:10 for 12 more moves``, ``2 d 1:02:03 for this
        move``.

        >>> TimeControl.byoyomi(main_time=600, periods=5, period_time=30).side_in_words(
        ...     SideClock(remaining_ms=272_000, periods=3))
        '4:32 + 3 periods of 30 s'
        """
        left = _clock_time(side.remaining_ms, words)
        period = _duration(self.period_time or 0, words)
        if self.system == "byoyomi":
            periods = words.ngettext(
                "%(periods)s period of %(period)s",
                "%(periods)s periods of %(period)s",
                side.periods or 0,
            ) % {"periods": side.periods, "period": period}
            if side.overtime:
                return words.gettext("%(left)s left in the period, %(periods)s in all") % {
                    "left": left,
                    "periods": periods,
                }
            return words.gettext("%(left)s + %(periods)s") % {"left": left, "periods": periods}
        if self.system == "canadian":
            if side.overtime:
                return words.ngettext(
                    "%(left)s for %(stones)s more move",
                    "%(left)s for %(stones)s more moves",
                    side.stones or 0,
                ) % {"left": left, "stones": side.stones}
            return words.ngettext(
                "%(left)s, then %(stones)s move in %(period)s",
                "%(left)s, then %(stones)s moves in %(period)s",
                self.stones or 0,
            ) % {"left": left, "stones": self.stones, "period": period}
        if self.system == "correspondence":
            return words.gettext("%(left)s for this move") % {"left": left}
        return left

    # The clock

    def start(self) -> SideClock:
        """Each side's clock before its first move."""
        if self.system == "correspondence":
            return SideClock(remaining_ms=self._days_ms())
        return SideClock(
            remaining_ms=(self.main_time or 0) * SECOND,
            periods=self.periods if self.system == "byoyomi" else None,
            stones=self.stones if self.system == "canadian" else None,
        )

    def restored(self, remaining_ms: int, overtime_left: int | None) -> SideClock:
        """The clock a move left its side, from what a stored move keeps of it: the time
        left (``remaining_ms``) and, in overtime, the periods or stones left.

        >>> TimeControl.byoyomi(main_time=60, periods=5, period_time=30).restored(30_000, 4)
        SideClock(remaining_ms=30000, periods=4, stones=None, overtime=True)
        """
        if overtime_left is None:
            return replace(self.start(), remaining_ms=remaining_ms)
        if self.system == "byoyomi":
            return SideClock(remaining_ms, periods=overtime_left, overtime=True)
        return SideClock(remaining_ms, stones=overtime_left, overtime=True)

    def time_left_ms(self, clock: SideClock) -> int:
        """How long the side may still think, from ``clock``, before it runs out."""
        if self.system == "byoyomi":
            periods = clock.periods or 0
            if clock.overtime:
                return clock.remaining_ms + (periods - 1) * self._period_ms()
            return clock.remaining_ms + periods * self._period_ms()
        if self.system == "canadian" and not clock.overtime:
            return clock.remaining_ms + self._period_ms()
        return clock.remaining_ms

    def flagged(self, clock: SideClock, elapsed_ms: int) -> bool:
        """Whether the side has run out after thinking ``elapsed_ms`` from ``clock``."""
        return elapsed_ms >= self.time_left_ms(clock)

    def thinking(self, clock: SideClock, elapsed_ms: int) -> SideClock:
        """The side's clock ``elapsed_ms`` into its turn (no move made yet): main time
        spent, then overtime entered and periods used up. Past the deadline: zero left."""
        if self.flagged(clock, elapsed_ms):
            return replace(clock, remaining_ms=0, periods=0 if clock.periods is not None else None)
        if elapsed_ms < clock.remaining_ms:
            return replace(clock, remaining_ms=clock.remaining_ms - elapsed_ms)
        # Main time (or the current period) is spent: overtime.
        over = elapsed_ms - clock.remaining_ms
        period = self._period_ms()
        if self.system == "byoyomi":
            periods = clock.periods or 0
            if clock.overtime:
                periods -= 1  # the period that was running is used up
            used, into = divmod(over, period)
            return SideClock(period - into, periods=periods - used, overtime=True)
        # Canadian, entering overtime (within it, running out is a flag: above).
        return SideClock(period - over, stones=self.stones, overtime=True)

    def moved(self, clock: SideClock, elapsed_ms: int) -> SideClock:
        """The side's clock after a move made ``elapsed_ms`` into its turn: increment
        (Fischer), the period reset (byo-yomi), a stone counted (Canadian), the day count
        reset (correspondence). Raises ValueError if the side had run out: that move
        comes too late and is never stored."""
        if self.flagged(clock, elapsed_ms):
            raise ValueError("the side ran out of time before this move")
        if self.system == "correspondence":
            return SideClock(remaining_ms=self._days_ms())
        after = self.thinking(clock, elapsed_ms)
        if self.system == "fischer":
            return replace(after, remaining_ms=after.remaining_ms + (self.increment or 0) * SECOND)
        if self.system == "byoyomi" and after.overtime:
            return replace(after, remaining_ms=self._period_ms())
        if self.system == "canadian" and after.overtime:
            stones = (after.stones or 0) - 1
            if stones == 0:
                return SideClock(self._period_ms(), stones=self.stones, overtime=True)
            return replace(after, stones=stones)
        return after

    # The first moves

    def first_move(self, ply: int) -> bool:
        """Whether the move after ``ply`` stored moves is its side's first move: no clock
        runs before it, it is free, and it is due within the first-move limit (else the
        game is aborted, not lost). Never with a correspondence clock.

        >>> fischer = TimeControl.fischer(main_time=60, increment=2)
        >>> [fischer.first_move(ply) for ply in (0, 1, 2)]
        [True, True, False]
        >>> TimeControl.correspondence(days=3).first_move(0)
        False
        """
        return self.system != "correspondence" and ply < FIRST_MOVES

    def charged(self, clock: SideClock, elapsed_ms: int, *, ply: int) -> SideClock:
        """The mover's clock after its move at ``ply`` + 1, made ``elapsed_ms`` into its
        turn: as it was for a first move (free: no time spent, no increment), else
        ``moved``. Raises ValueError as ``moved`` does (never for a first move: its limit
        is the server's, ``turn_ms``)."""
        if self.first_move(ply):
            return clock
        return self.moved(clock, elapsed_ms)

    def turn_ms(self, clock: SideClock, *, ply: int, first_move_ms: int) -> int:
        """How long the side to move after ``ply`` moves has, from the start of its turn,
        before the game ends: ``first_move_ms`` for a first move (the game is then
        aborted), else its time left (then it has lost on time).

        >>> absolute = TimeControl.absolute(main_time=300)
        >>> absolute.turn_ms(absolute.start(), ply=1, first_move_ms=30_000)
        30000
        >>> absolute.turn_ms(absolute.start(), ply=2, first_move_ms=30_000)
        300000
        """
        if self.first_move(ply):
            return first_move_ms
        return self.time_left_ms(clock)

    def _period_ms(self) -> int:
        return (self.period_time or 0) * SECOND

    def _days_ms(self) -> int:
        return (self.days or 0) * DAY


# What each system needs, and the range of each setting (seconds; days for `days`).
NEEDS: dict[str, tuple[str, ...]] = {
    "fischer": ("main_time", "increment"),
    "absolute": ("main_time",),
    "byoyomi": ("main_time", "periods", "period_time"),
    "canadian": ("main_time", "stones", "period_time"),
    "correspondence": ("days",),
}
LIMITS: dict[str, tuple[int, int]] = {
    "main_time": (0, 24 * 3600),
    "increment": (0, 3600),
    "periods": (1, 100),
    "period_time": (1, 3600),
    "stones": (1, 100),
    "days": (1, 30),
}


def _clock_time(ms: int, words: Words = ENGLISH) -> str:
    """As a clock shows it: ``4:05``, ``1:02:03``, ``2 d 1:02:03`` (whole seconds, down)."""
    days, seconds = divmod(max(0, ms) // 1000, 86_400)
    hours, seconds = divmod(seconds, 3600)
    minutes, seconds = divmod(seconds, 60)
    shown = f"{hours}:{minutes:02}:{seconds:02}" if hours or days else f"{minutes}:{seconds:02}"
    if not days:
        return shown
    return words.gettext("%(days)s d %(time)s") % {"days": days, "time": shown}


def _duration(seconds: int, words: Words = ENGLISH) -> str:
    if seconds and seconds % 3600 == 0:
        return words.gettext("%(hours)s h") % {"hours": seconds // 3600}
    if seconds and seconds % 60 == 0:
        return words.gettext("%(minutes)s min") % {"minutes": seconds // 60}
    if seconds > 60:
        return words.gettext("%(minutes)s min %(seconds)s s") % {
            "minutes": seconds // 60,
            "seconds": seconds % 60,
        }
    return words.gettext("%(seconds)s s") % {"seconds": seconds}
