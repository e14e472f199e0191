"""The real KataGo (installed by scripts/katago.sh; ``real_katago`` skips these tests when it
is not, and fails them when the run opted in): a game against KataGo to the end, the
levels below from its network's policy. Kept few and small (9x9, 1 to 2 visits): each
takes seconds on two cores. A review through the server's engines' pool is
tests/games/workers/test_engines_katago_real.py's."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gameengine import katago
from gameengine.answer import answer
from gameengine.gnugo import GoGame
from gamerules import GoPosition, go
from gamerules.base import Color, Move
from tests.support.go_turns import go_turn


def test_a_game_against_katago_goes_to_the_end(real_katago: dict[str, Any]) -> None:
    # KataGo (level 10 at 2 visits here) as White against random moves that pass after 20.
    settings = {**real_katago, "top_visits": 2}
    rng = random.Random(3)
    position = GoPosition.start(9)
    moves: list[tuple[str, list[int] | None]] = []
    resigned = False
    try:
        while not position.is_over and len(moves) < 160:
            if position.to_move.value == "white":
                turn = go_turn(position, moves, level=10)
                point = answer(turn, katago_settings=settings)["point"]
                if point == "resign":
                    resigned = True
                    break
            else:
                legal = position.legal_moves()
                point = list(rng.choice(legal)) if len(moves) < 40 and legal else None
            step = Move.pass_turn() if point is None else Move.place((point[0], point[1]))
            position = position.play(step)[0]
            moves.append((position.to_move.opponent.value, point))
    finally:
        katago.close()
    assert position.is_over and not resigned
    # KataGo, White, won on the board (area counting, the rules' guess of the dead stones).
    counted = go.score(position, dead=go.estimate_dead(position), komi=7.0, method="area")
    assert counted.result.startswith("W+")


def test_the_levels_below_choose_from_the_networks_policy(real_katago: dict[str, Any]) -> None:
    # E5, White's pass, C3: White to play (the position checked by hand with kata-raw-nn).
    moves = [(Color.BLACK, (4, 4)), (Color.WHITE, None), (Color.BLACK, (6, 2))]
    game = GoGame(9, 7.0, moves=tuple(moves))
    settings = katago.KataGoSettings.of(real_katago)
    try:
        policy = katago.player(settings).policy(game, Color.WHITE)
        position = GoPosition.start(9)
        for _, point in moves:
            step = Move.pass_turn() if point is None else Move.place(point)
            position = position.play(step)[0]
        turn = go_turn(position, moves, level=9)
        level_9 = answer(turn, katago_settings=real_katago)["point"]
        level_1 = {
            tuple(answer({**turn, "level": 1}, katago_settings=real_katago)["point"])
            for _ in range(5)
        }
    finally:
        katago.close()
    # A probability for each empty point (none on the stones) and the pass, summing to 1.
    assert set(policy.points) == set(position.legal_moves())
    assert sum(policy.points.values()) + policy.passing == pytest.approx(1.0, abs=1e-3)
    first = max(policy.points, key=lambda point: policy.points[point])
    assert tuple(level_9) == first and policy.points[first] > 0.2
    assert len(level_1) > 1 and level_1 <= set(position.legal_moves())
