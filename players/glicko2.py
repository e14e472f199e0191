"""Glicko-2 ratings, rating categories and Go ranks: pure functions over plain values.

The rating update is Glickman's algorithm ("Example of the Glicko-2 system", 2013),
steps 1 to 8, with the volatility found by the Illinois algorithm (epsilon 1e-6); the
shape is scalachess's ``RatingCalculator``: the caller stores the ratings before and
after, nothing here reads a clock or a database. This product's choices
(docs/guide.md#ratings): every rated game is its own rating period, a new
player is 1500 / RD 350 / volatility 0.06, tau 0.75, RD kept within [45, 350] after each
game, and before a game each player's RD grows with the days since their last rated
game in the category (``after_inactivity``).

No PyPI package is used: the kept-up ones found (``glicko2`` 2.1.0, last released
2024-01) are untyped and have neither the clamps nor the inactivity growth.

>>> player = Rating(1500.0, 200.0, 0.06)
>>> opponents = [Rating(1400, 30, 0.06), Rating(1550, 100, 0.06), Rating(1700, 300, 0.06)]
>>> after = update(player, zip(opponents, [1.0, 0.0, 0.0]), tau=0.5)  # Glickman's example
>>> round(after.rating, 1), round(after.rd, 1), round(after.volatility, 5)
(1464.1, 151.5, 0.06)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gamerules.clock import TimeControl

SCALE = 173.7178
"""Glicko-2's ratio between the Glicko scale and its own (400 / ln 10)."""
BASE = 1500.0
TAU = 0.75
EPSILON = 1e-6
RD_MIN = 45.0
RD_MAX = 350.0
PROVISIONAL_RD = 110.0
"""A rating with an RD above this is provisional (shown with ``?``, off leaderboards)."""
INACTIVITY_PERIODS_PER_DAY = 0.21436


@dataclass(frozen=True)
class Rating:
    """A player's rating, its deviation (RD) and its volatility, on the Glicko scale."""

    rating: float
    rd: float
    volatility: float

    @property
    def provisional(self) -> bool:
        """Whether the rating is still provisional (RD above ``PROVISIONAL_RD``)."""
        return self.rd > PROVISIONAL_RD


NEW_PLAYER = Rating(BASE, RD_MAX, 0.06)


def update(player: Rating, results: Iterable[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period with ``results`` (each an opponent's
    rating and the score: 1 win, 0.5 draw, 0 loss), by Glickman's steps exactly, with
    no clamp. A period without games only grows the RD (step 6)."""
    mu = (player.rating - BASE) / SCALE
    phi = player.rd / SCALE
    games = [((opponent.rating - BASE) / SCALE, opponent.rd / SCALE, s) for opponent, s in results]
    if not games:
        return Rating(
            player.rating, SCALE * math.sqrt(phi**2 + player.volatility**2), player.volatility
        )
    # Steps 3 and 4: the estimated variance v and the improvement delta.
    inverse_v = 0.0
    gain = 0.0
    for mu_j, phi_j, score in games:
        g_j = _g(phi_j)
        expected = 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))
        inverse_v += g_j**2 * expected * (1.0 - expected)
        gain += g_j * (score - expected)
    v = 1.0 / inverse_v
    delta = v * gain
    # Steps 5 to 8.
    sigma = _new_volatility(phi, player.volatility, v, delta, tau)
    phi_star = math.sqrt(phi**2 + sigma**2)
    new_phi = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / v)
    new_mu = mu + new_phi**2 * gain
    return Rating(SCALE * new_mu + BASE, SCALE * new_phi, sigma)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi**2 / math.pi**2)


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of f by the Illinois algorithm."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2.0 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    low = a
    if delta**2 > phi**2 + v:
        high = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = middle, f_middle
    return math.exp(low / 2.0)


def clamped(rating: Rating) -> Rating:
    """``rating`` with its RD kept within [RD_MIN, RD_MAX]."""
    return Rating(rating.rating, min(RD_MAX, max(RD_MIN, rating.rd)), rating.volatility)


def after_inactivity(rating: Rating, days: float) -> Rating:
    """``rating`` with its RD grown for ``days`` without a rated game in the category:
    RD* = sqrt(RD^2 + (SCALE x volatility)^2 x t), t = days x 0.21436, at most RD_MAX
    (never shrunk: an RD already above stays)."""
    if days <= 0:
        return rating
    periods = days * INACTIVITY_PERIODS_PER_DAY
    grown = math.sqrt(rating.rd**2 + (SCALE * rating.volatility) ** 2 * periods)
    return Rating(rating.rating, max(rating.rd, min(RD_MAX, grown)), rating.volatility)


def rate_game(player: Rating, opponent: Rating, score: float) -> Rating:
    """``player``'s rating after one game against ``opponent`` (both as before the game,
    their inactivity already applied), scoring ``score`` (1, 0.5, 0): the game as its own
    rating period, the RD then kept within [RD_MIN, RD_MAX]."""
    return clamped(update(player, [(opponent, score)]))


# Categories


SPEEDS = ("bullet", "blitz", "rapid", "classical", "correspondence")
SPEED_LIMITS = (("bullet", 180), ("blitz", 480), ("rapid", 1500))
"""The speeds below ``classical``, each for an estimated duration under its limit (s)."""
OVERTIME_WEIGHT = 40


def estimated_seconds(control: TimeControl) -> float:
    """E = main_time + 40 x X, X the time a move gets beyond main time: the increment
    (Fischer), the period (byo-yomi), the period over its stones (Canadian), 0
    (absolute). Raises ValueError for correspondence, which has no E."""
    if control.system == "correspondence":
        raise ValueError("a correspondence clock has no estimated duration")
    extra: float = 0.0
    if control.system == "fischer":
        extra = control.increment or 0
    elif control.system == "byoyomi":
        extra = control.period_time or 0
    elif control.system == "canadian":
        extra = (control.period_time or 0) / (control.stones or 1)
    return (control.main_time or 0) + OVERTIME_WEIGHT * extra


def speed(control: TimeControl) -> str:
    """The speed of a game with ``control``: bullet, blitz, rapid, classical or
    correspondence.

    >>> speed(TimeControl.fischer(main_time=180, increment=2))
    'blitz'
    """
    if control.system == "correspondence":
        return "correspondence"
    seconds = estimated_seconds(control)
    return next((name for name, limit in SPEED_LIMITS if seconds < limit), "classical")


def category(kind: str, size: int, control: TimeControl) -> str:
    """The rating category ``<kind><size>-<speed>``, e.g. ``othello8-blitz``."""
    return f"{kind}{size}-{speed(control)}"


# Go ranks


RANK_BASE = 525.0
RANK_FACTOR = 23.15
DAN_FROM = 30
KYU_MAX = 30
DAN_MAX = 9


def rank_number(rating: float) -> float:
    """OGS's rank number R = ln(rating / 525) x 23.15 (30 is 1 dan)."""
    return math.log(max(rating, 1.0) / RANK_BASE) * RANK_FACTOR


def go_rank(rating: float) -> str:
    """The kyu/dan rank OGS shows for ``rating``, within 30k..9d.

    >>> go_rank(1500), go_rank(2200), go_rank(100)
    ('6k', '4d', '30k')
    """
    number = math.floor(rank_number(rating))
    if number >= DAN_FROM:
        return f"{min(DAN_MAX, number - DAN_FROM + 1)}d"
    return f"{min(KYU_MAX, DAN_FROM - number)}k"


PLAYED = ("place", "pass")
"""The moves a side makes itself (a resignation, a timeout, a forfeit are not)."""


def both_sides_moved(first_actions: Sequence[str]) -> bool:
    """Whether a rated game whose stored moves begin with ``first_actions`` (the actions
    of plies 1, 2, ...) moves the ratings: each side has made a move of its own, a
    ``place`` or a voluntary ``pass``. The sides alternate from the first move (Othello's
    automatic pass is its side's move, and none can come among the first two), so the
    first two moves are one of each side.

    >>> both_sides_moved(["place", "place", "resign"]), both_sides_moved(["place", "resign"])
    (True, False)
    """
    return len(first_actions) >= 2 and all(action in PLAYED for action in first_actions[:2])
