"""gamerules.clock: every system as a table of moves (elapsed seconds) and the clock after
each, the edges included: a move exactly at the deadline, the last period, Canadian's
stone count starting again, no increment for a move that came too late."""

from __future__ import annotations

import pytest

from gamerules import clock
from gamerules.clock import SideClock, TimeControl, TimeControlError

S = 1000

FISCHER = TimeControl.fischer(main_time=10, increment=3)
ABSOLUTE = TimeControl.absolute(main_time=10)
BYOYOMI = TimeControl.byoyomi(main_time=10, periods=3, period_time=5)
CANADIAN = TimeControl.canadian(main_time=10, stones=2, period_time=6)
CORRESPONDENCE = TimeControl.correspondence(days=1)


def play(control: TimeControl, elapsed: list[float]) -> list[SideClock | str]:
    """The side's clock after each move taking ``elapsed`` seconds; "flag" for a move that
    came too late (and nothing after it)."""
    side = control.start()
    after: list[SideClock | str] = []
    for seconds in elapsed:
        if control.flagged(side, int(seconds * S)):
            after.append("flag")
            break
        side = control.moved(side, int(seconds * S))
        after.append(side)
    return after


def main(seconds: float) -> SideClock:
    return SideClock(int(seconds * S))


def period(seconds: float, *, periods: int | None = None, stones: int | None = None) -> SideClock:
    return SideClock(int(seconds * S), periods=periods, stones=stones, overtime=True)


@pytest.mark.parametrize(
    ("control", "elapsed", "expected"),
    [
        # Fischer: time spent, then the increment.
        (FISCHER, [2, 4], [main(11), main(10)]),
        (FISCHER, [9.999], [main(3.001)]),
        (FISCHER, [10], ["flag"]),  # exactly at the deadline: too late
        (FISCHER, [12], ["flag"]),  # too late: the increment does not save it
        (FISCHER, [5, 7.9, 5], [main(8), main(3.1), "flag"]),
        # Absolute: no increment.
        (ABSOLUTE, [4, 5, 0.5], [main(6), main(1), main(0.5)]),
        (ABSOLUTE, [4, 6], [main(6), "flag"]),
        # Byo-yomi: main time, then 3 periods of 5 s; a move within a period resets it.
        (BYOYOMI, [4], [SideClock(6 * S, periods=3)]),
        (BYOYOMI, [12], [period(5, periods=3)]),  # 2 s into the first period
        (BYOYOMI, [16, 4.9], [period(5, periods=2), period(5, periods=2)]),
        (BYOYOMI, [10], [period(5, periods=3)]),  # main time used up exactly: overtime
        (BYOYOMI, [24.9], [period(5, periods=1)]),  # the last period
        (BYOYOMI, [25], ["flag"]),  # the last period ran out
        (BYOYOMI, [12, 5], [period(5, periods=3), period(5, periods=2)]),
        (
            BYOYOMI,
            [12, 14.9, 1],
            [period(5, periods=3), period(5, periods=1), period(5, periods=1)],
        ),
        (BYOYOMI, [12, 15], [period(5, periods=3), "flag"]),
        # Canadian: main time, then 2 moves within 6 s, then a new period.
        (CANADIAN, [11], [period(5, stones=1)]),
        (CANADIAN, [11, 2], [period(5, stones=1), period(6, stones=2)]),  # count starts again
        (CANADIAN, [11, 5], [period(5, stones=1), "flag"]),
        (
            CANADIAN,
            [10, 3, 3, 2.9],
            [period(6, stones=1), period(6, stones=2), period(3, stones=1), period(6, stones=2)],
        ),
        (
            CANADIAN,
            [10, 3, 3, 3],
            [period(6, stones=1), period(6, stones=2), period(3, stones=1), "flag"],
        ),
        (CANADIAN, [16], ["flag"]),
        # Correspondence: a day for each move.
        (CORRESPONDENCE, [3600, 86_399], [main(86_400), main(86_400)]),
        (CORRESPONDENCE, [86_400], ["flag"]),
    ],
)
def test_the_clock_after_each_move(
    control: TimeControl, elapsed: list[float], expected: list[SideClock | str]
) -> None:
    assert play(control, elapsed) == expected


@pytest.mark.parametrize(
    ("control", "side", "elapsed", "expected"),
    [
        (FISCHER, main(10), 4, main(6)),
        (BYOYOMI, BYOYOMI.start(), 11, period(4, periods=3)),
        (BYOYOMI, BYOYOMI.start(), 21, period(4, periods=1)),
        (BYOYOMI, period(5, periods=2), 6, period(4, periods=1)),
        (BYOYOMI, BYOYOMI.start(), 30, SideClock(0, periods=0)),  # past the deadline: nothing left
        (CANADIAN, main(10), 12, period(4, stones=2)),
        (CANADIAN, period(6, stones=1), 2, period(4, stones=1)),
    ],
)
def test_the_clock_while_thinking(
    control: TimeControl, side: SideClock, elapsed: float, expected: SideClock
) -> None:
    assert control.thinking(side, int(elapsed * S)) == expected


@pytest.mark.parametrize(
    ("control", "side", "left"),
    [
        (FISCHER, main(10), 10),
        (BYOYOMI, BYOYOMI.start(), 25),
        (BYOYOMI, period(5, periods=2), 10),
        (BYOYOMI, period(3, periods=1), 3),
        (CANADIAN, main(10), 16),
        (CANADIAN, period(6, stones=2), 6),
        (CORRESPONDENCE, main(86_400), 86_400),
    ],
)
def test_time_left_before_the_flag(control: TimeControl, side: SideClock, left: float) -> None:
    assert control.time_left_ms(side) == left * S


def test_a_move_too_late_is_refused() -> None:
    with pytest.raises(ValueError, match="ran out"):
        ABSOLUTE.moved(ABSOLUTE.start(), 10 * S)


# First moves: free, and due within the server's limit


def game(control: TimeControl, elapsed: list[float]) -> list[tuple[str, SideClock | str]]:
    """Black and White alternating from the start, each move taking ``elapsed`` seconds:
    the mover and its clock after each move ("flag" for a move too late, nothing after)."""
    sides = {"black": control.start(), "white": control.start()}
    after: list[tuple[str, SideClock | str]] = []
    for ply, seconds in enumerate(elapsed):
        mover = ("black", "white")[ply % 2]
        try:
            sides[mover] = control.charged(sides[mover], int(seconds * S), ply=ply)
        except ValueError:
            after.append((mover, "flag"))
            break
        after.append((mover, sides[mover]))
    return after


@pytest.mark.parametrize(
    ("control", "elapsed", "expected"),
    [
        # Each side's first move costs nothing and earns no increment, however long it took.
        (FISCHER, [25, 40, 2, 1], [main(10), main(10), main(11), main(12)]),
        (ABSOLUTE, [29, 0.5, 9], [main(10), main(10), main(1)]),
        (ABSOLUTE, [29, 0.5, 10], [main(10), main(10), "flag"]),  # the clock runs from move 3
        (BYOYOMI, [50, 50, 12], [BYOYOMI.start(), BYOYOMI.start(), period(5, periods=3)]),
        (CANADIAN, [20, 20, 11], [CANADIAN.start(), CANADIAN.start(), period(5, stones=1)]),
        # Correspondence has no first moves: every move is charged (a day each, reset).
        (CORRESPONDENCE, [86_399, 3600], [main(86_400), main(86_400)]),
        (CORRESPONDENCE, [86_400], ["flag"]),
    ],
)
def test_the_first_move_of_each_side_is_free(
    control: TimeControl, elapsed: list[float], expected: list[SideClock | str]
) -> None:
    movers = ["black", "white"] * len(expected)
    assert game(control, elapsed) == list(zip(movers, expected, strict=False))


@pytest.mark.parametrize(
    ("control", "ply", "first_move"),
    [
        (FISCHER, 0, True),  # the first mover (Black; White in a Go handicap game)
        (FISCHER, 1, True),  # the other side
        (FISCHER, 2, False),
        (FISCHER, 57, False),
        (ABSOLUTE, 1, True),
        (BYOYOMI, 1, True),
        (CANADIAN, 2, False),
        (CORRESPONDENCE, 0, False),
        (CORRESPONDENCE, 1, False),
    ],
)
def test_the_first_two_moves_of_a_game_are_first_moves(
    control: TimeControl, ply: int, first_move: bool
) -> None:
    assert control.first_move(ply) is first_move


@pytest.mark.parametrize(
    ("control", "side", "ply", "seconds"),
    [
        # A first move is due within the server's limit (30 s here), whatever the clock ...
        (FISCHER, main(10), 0, 30),
        (ABSOLUTE, main(10), 1, 30),
        (BYOYOMI, BYOYOMI.start(), 1, 30),
        # ... then the side's time left decides.
        (FISCHER, main(10), 2, 10),
        (BYOYOMI, BYOYOMI.start(), 2, 25),
        (CANADIAN, period(6, stones=2), 5, 6),
        (CORRESPONDENCE, main(86_400), 0, 86_400),  # no first-move limit
    ],
)
def test_how_long_a_turn_may_last_before_the_game_ends(
    control: TimeControl, side: SideClock, ply: int, seconds: float
) -> None:
    assert control.turn_ms(side, ply=ply, first_move_ms=30 * S) == seconds * S


@pytest.mark.parametrize(
    ("system", "settings", "field"),
    [
        ("sundial", {}, "clock"),
        ("fischer", {"main_time": 300}, "increment"),
        ("fischer", {"main_time": "300", "increment": 2}, "main_time"),
        ("fischer", {"main_time": 300.0, "increment": 2}, "main_time"),
        ("fischer", {"main_time": True, "increment": 2}, "main_time"),
        ("absolute", {"main_time": 0}, "main_time"),
        ("byoyomi", {"main_time": 60, "periods": 0, "period_time": 30}, "periods"),
        ("canadian", {"main_time": 60, "stones": 25, "period_time": 0}, "period_time"),
        ("correspondence", {"days": 31}, "days"),
        ("absolute", {"main_time": 24 * 3600 + 1}, "main_time"),
    ],
)
def test_settings_that_make_no_clock_are_refused(
    system: str, settings: dict[str, object], field: str
) -> None:
    with pytest.raises(TimeControlError) as refused:
        TimeControl.build(system, **settings)
    assert refused.value.field == field


def test_unused_settings_are_dropped_and_the_json_round_trips() -> None:
    control = TimeControl.build("absolute", main_time=60, periods=5, days=3)

    assert control.to_json() == {
        "system": "absolute",
        "main_time": 60,
        "increment": None,
        "periods": None,
        "period_time": None,
        "stones": None,
        "days": None,
    }
    assert TimeControl.from_json(control.to_json()) == control
    side = control.moved(control.start(), 5 * S)
    assert SideClock.from_json(side.to_json()) == side


@pytest.mark.parametrize(
    ("control", "words"),
    [
        (TimeControl.fischer(main_time=300, increment=3), "5 min, +3 s per move (Fischer)"),
        (TimeControl.fischer(main_time=600, increment=0), "10 min, no increment (Fischer)"),
        (TimeControl.absolute(main_time=90), "1 min 30 s in all (absolute)"),
        (
            TimeControl.byoyomi(main_time=600, periods=5, period_time=30),
            "10 min + 5 x 30 s (byo-yomi)",
        ),
        (
            TimeControl.canadian(main_time=1200, stones=25, period_time=300),
            "20 min + 25 moves in 5 min (Canadian)",
        ),
        (TimeControl.correspondence(days=3), "3 days a move (correspondence)"),
        (TimeControl.correspondence(days=1), "1 day a move (correspondence)"),
    ],
)
def test_described_in_a_players_words_naming_the_system(control: TimeControl, words: str) -> None:
    assert control.describe() == words


def test_the_doctests_hold() -> None:
    import doctest

    assert doctest.testmod(clock).failed == 0


BYOYOMI = TimeControl.byoyomi(main_time=600, periods=5, period_time=30)
CANADIAN = TimeControl.canadian(main_time=1200, stones=25, period_time=300)


@pytest.mark.parametrize(
    ("control", "side", "words"),
    [
        (BYOYOMI, SideClock(remaining_ms=272_000, periods=3), "4:32 + 3 periods of 30 s"),
        (BYOYOMI, SideClock(remaining_ms=272_400, periods=1), "4:32 + 1 period of 30 s"),
        (
            BYOYOMI,
            SideClock(remaining_ms=21_000, periods=2, overtime=True),
            "0:21 left in the period, 2 periods of 30 s in all",
        ),
        (CANADIAN, SideClock(remaining_ms=3_723_000, stones=25), "1:02:03, then 25 moves in 5 min"),
        (
            CANADIAN,
            SideClock(remaining_ms=190_000, stones=12, overtime=True),
            "3:10 for 12 more moves",
        ),
        (TimeControl.fischer(main_time=300, increment=3), SideClock(remaining_ms=59_999), "0:59"),
        (TimeControl.absolute(main_time=300), SideClock(remaining_ms=0), "0:00"),
        (
            TimeControl.correspondence(days=3),
            SideClock(remaining_ms=2 * 86_400_000 + 3_723_000),
            "2 d 1:02:03 for this move",
        ),
    ],
)
def test_a_sides_clock_in_words(control: TimeControl, side: SideClock, words: str) -> None:
    assert control.side_in_words(side) == words
