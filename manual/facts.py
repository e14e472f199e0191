"""The figures the help pages quote, worked out by the code they describe (the clocks'
words, the rating calculator, the pairing windows, the review's thresholds), so that a
page stays true when a number of the code changes. Plain functions, no Django: the
server's settings a page quotes are passed in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gameengine import review
from gamerules import Color
from gamerules.base import ENGLISH, Words
from gamerules.clock import TimeControl
from manual.diagrams import Diagram
from moderation import playban_rules
from pairing import matching, pools
from players import glicko2
from tournaments.systems import arena

EXAMPLE_CLOCKS = {
    "fischer": TimeControl.fischer(main_time=300, increment=3),
    "absolute": TimeControl.absolute(main_time=600),
    "byoyomi": TimeControl.byoyomi(main_time=600, periods=5, period_time=30),
    "canadian": TimeControl.canadian(main_time=1200, stones=25, period_time=300),
    "correspondence": TimeControl.correspondence(days=3),
}
"""One clock of each system, as the home form's presets offer them."""

SETTLED_OPPONENT = glicko2.Rating(glicko2.BASE, 60.0, glicko2.NEW_PLAYER.volatility)
"""A settled player of the new player's strength, for the examples of the ratings page."""
INACTIVE_DAYS = (30, 90, 180, 365, 730)
EXAMPLE_GO_RATINGS = (1000, 1200, 1500, 1800, 2000, 2200, 2400)
EXAMPLE_WAITS = (0, 10, 30)
OTHER_OTHELLO_SIZES = (6, 10)


@dataclass(frozen=True)
class Clock:
    """An example clock: its system, its words on the site's pages, its speed."""

    system: str
    words: str
    speed: str
    estimated: float | None
    """E, the estimated seconds a player uses in a game (None for correspondence)."""


def clocks(words: Words = ENGLISH) -> dict[str, Clock]:
    """Each system's example (``EXAMPLE_CLOCKS``) as the pages write it (in ``words``'
    language), with its speed."""
    return {
        system: Clock(
            system,
            control.describe(words),
            glicko2.speed(control),
            None if system == "correspondence" else glicko2.estimated_seconds(control),
        )
        for system, control in EXAMPLE_CLOCKS.items()
    }


def ratings() -> dict[str, Any]:
    """The ratings page's figures: a new player's rating, the RD's bounds and the
    provisional line, the first game's swing and the games to a settled rating against
    ``SETTLED_OPPONENT`` (and the swing of a win between two of those), the RD's growth
    with inactivity, Go ranks."""
    new = glicko2.NEW_PLAYER
    won = glicko2.rate_game(new, SETTLED_OPPONENT, 1.0)
    player, games = new, 0
    while player.provisional:
        games += 1
        player = glicko2.rate_game(player, SETTLED_OPPONENT, float(games % 2))
    return {
        "new": new,
        "rd_min": glicko2.RD_MIN,
        "rd_max": glicko2.RD_MAX,
        "provisional_rd": glicko2.PROVISIONAL_RD,
        "tau": glicko2.TAU,
        "opponent": SETTLED_OPPONENT,
        "first_win": won,
        "first_win_change": won.rating - new.rating,
        "settled_win_change": (
            glicko2.rate_game(SETTLED_OPPONENT, SETTLED_OPPONENT, 1.0).rating
            - SETTLED_OPPONENT.rating
        ),
        "games_to_settle": games,
        "inactivity": [
            (days, glicko2.after_inactivity(SETTLED_OPPONENT, days).rd) for days in INACTIVE_DAYS
        ],
        "ranks": [(rating, glicko2.go_rank(rating)) for rating in EXAMPLE_GO_RATINGS],
        "speeds": glicko2.SPEED_LIMITS,
        "overtime_weight": glicko2.OVERTIME_WEIGHT,
    }


def pairing(words: Words = ENGLISH) -> dict[str, Any]:
    """The pairing page's figures: the pools (in ``words``' language), the window's base
    and growth, and the window of a 1600 player after a few waits."""
    example = 1600.0
    windows = [
        (
            waited,
            matching.window(matching.Seeker("x", "p", example, None, waited, "s", None)),
        )
        for waited in EXAMPLE_WAITS
    ]
    return {
        "pools": [
            {
                "game": pool.game_in(words),
                "clock": TimeControl.from_json(pool.clock).describe(words),
            }
            for pool in pools.POOLS
        ],
        "window_base": matching.WINDOW_BASE,
        "window_per_second": matching.WINDOW_PER_SECOND,
        "guest_rating": matching.GUEST_RATING,
        "example_rating": example,
        "windows": windows,
    }


def review_marks() -> dict[str, Any]:
    """The review page's figures: the losses that make each judgement, Othello's in discs
    (on 8x8, then on a few other sizes), Go's in points."""
    return {
        "othello": review.thresholds("othello", 8),
        "othello_sizes": [
            (size, review.thresholds("othello", size)) for size in OTHER_OTHELLO_SIZES
        ],
        "go": review.thresholds("go", 19),
    }


def go_count(diagram: Diagram) -> dict[str, Any]:
    """The count of the Go ``diagram`` (``Diagram.score``) in plain values for a page:
    each side's territory, the opponent's dead stones it lifted, its prisoners, komi
    and total, and the result."""
    count = diagram.score()
    sides = {
        color.value: {
            "territory": count.territory[color],
            "dead": count.dead[color],
            "prisoners": count.prisoners[color],
            "komi": count.komi[color],
            "total": count.total[color],
        }
        for color in Color
    }
    return {**sides, "komi": diagram.komi, "result": count.result}


def tournaments() -> dict[str, Any]:
    """What the tournaments' page quotes of the arena's scoring (tournaments.systems)."""
    return {
        "win": arena.WIN,
        "draw": arena.DRAW,
        "fire_after": arena.FIRE_AFTER,
        "on_fire": arena.ON_FIRE,
        "berserk_bonus": arena.BERSERK_BONUS,
        "berserk_moves": arena.BERSERK_MOVES,
        "last_minutes": int(arena.LAST_MINUTE.total_seconds() // 60),
    }


def playbans() -> dict[str, int]:
    """The playbans' figures (moderation.playban_rules): how many games ended without a
    move within how many hours earn one, the first one's minutes, the days within which
    a repeat doubles it, and the longest's hours."""
    hour = 3600
    return {
        "no_moves": playban_rules.NO_MOVES,
        "within_hours": int(playban_rules.WITHIN.total_seconds()) // hour,
        "first_minutes": int(playban_rules.FIRST_BAN.total_seconds()) // 60,
        "remembered_days": playban_rules.REMEMBERED.days,
        "longest_hours": int(playban_rules.LONGEST_BAN.total_seconds()) // hour,
    }
