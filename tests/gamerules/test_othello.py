"""The rules of Othello (gamerules/othello.py): boards drawn in, boards drawn out."""

from __future__ import annotations

import copy
import doctest
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerules import othello
from gamerules.base import Color, Diff, IllegalMoveError, InvalidMoveError, Move, RulesError
from gamerules.othello import OthelloPosition

B, W = Color.BLACK, Color.WHITE
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def board(diagram: str) -> list[str]:
    """The rows of a diagram drawn one row per line or separated by ``/``; spaces are ignored."""
    lines = diagram.replace("/", "\n").splitlines()
    return [line.replace(" ", "") for line in lines if line.strip()]


def position(diagram: str, to_move: Color) -> OthelloPosition:
    return OthelloPosition.from_rows(board(diagram), to_move)


def play_all(start: OthelloPosition, moves: list[str]) -> OthelloPosition:
    """``start`` after ``moves`` in notation, ``pass`` for the automatic pass."""
    for text in moves:
        move = Move.pass_turn() if text == "pass" else Move.place(start.parse_point(text))
        start = start.play(move)[0]
    return start


def naive_flips(rows: list[str], color: Color, point: tuple[int, int]) -> set[tuple[int, int]]:
    """The discs ``color`` flips by playing on ``point``, walking each line square by square."""
    size, own, other = len(rows), color.letter, color.opponent.letter
    flips: set[tuple[int, int]] = set()
    if rows[point[0]][point[1]] != ".":
        return flips
    for dr, dc in DIRECTIONS:
        line = []
        row, col = point[0] + dr, point[1] + dc
        while 0 <= row < size and 0 <= col < size and rows[row][col] == other:
            line.append((row, col))
            row, col = row + dr, col + dc
        if line and 0 <= row < size and 0 <= col < size and rows[row][col] == own:
            flips.update(line)
    return flips


def naive_legal(rows: list[str], color: Color) -> list[tuple[int, int]]:
    size = len(rows)
    points = [(row, col) for row in range(size) for col in range(size)]
    return [point for point in points if naive_flips(rows, color, point)]


def test_the_examples_in_the_docstrings_hold() -> None:
    assert doctest.testmod(othello).failed == 0


# The start position and the board sizes


@pytest.mark.parametrize(
    ("size", "diagram"),
    [
        (4, ". . . . / . W B . / . B W . / . . . ."),
        (6, "...... / ...... / ..WB.. / ..BW.. / ...... / ......"),
        (
            8,
            """
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . W B . . .
            . . . B W . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            """,
        ),
        (
            10,
            """
            . . . . . . . . . .
            . . . . . . . . . .
            . . . . . . . . . .
            . . . . . . . . . .
            . . . . W B . . . .
            . . . . B W . . . .
            . . . . . . . . . .
            . . . . . . . . . .
            . . . . . . . . . .
            . . . . . . . . . .
            """,
        ),
    ],
)
def test_start_position_has_white_on_the_main_diagonal_of_the_centre(
    size: int, diagram: str
) -> None:
    start = OthelloPosition.start(size)
    assert start.rows() == board(diagram)
    assert start.size == size
    assert start.to_move is B
    assert start.disc_counts() == {B: 2, W: 2}
    assert not start.is_over and not start.must_pass
    assert start.result() is None


@pytest.mark.parametrize("size", [0, 2, 3, 5, 7, 9, -4, 8.0, True, "8", None])
def test_othello_needs_an_even_board_of_at_least_4(size: object) -> None:
    with pytest.raises(RulesError, match="even size"):
        OthelloPosition.start(size)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("size", "legal"),
    [
        (4, ["b1", "a2", "d3", "c4"]),
        (6, ["c2", "b3", "e4", "d5"]),
        (8, ["d3", "c4", "f5", "e6"]),
        (10, ["e4", "d5", "g6", "f7"]),
    ],
)
def test_black_opens_on_four_squares(size: int, legal: list[str]) -> None:
    start = OthelloPosition.start(size)
    assert [start.format_point(point) for point in start.legal_moves()] == legal


# Moves in, boards out

PLAYS = [
    pytest.param(
        OthelloPosition.start(8),
        ["f5"],
        """
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . W B . . .
        . . . B B B . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        """,
        id="opening f5 flips e5",
    ),
    pytest.param(
        OthelloPosition.start(8),
        ["f5", "f6", "e6", "f4"],
        """
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . W W W . .
        . . . B B W . .
        . . . . B W . .
        . . . . . . . .
        . . . . . . . .
        """,
        id="four opening moves",
    ),
    pytest.param(
        position(
            """
            B . B . B .
            . W W W . .
            B W . W B .
            . W W W . .
            B . B . B .
            . . . . . .
            """,
            B,
        ),
        ["c3"],
        """
        B . B . B .
        . B B B . .
        B B B B B .
        . B B B . .
        B . B . B .
        . . . . . .
        """,
        id="all eight lines at once",
    ),
    pytest.param(
        position(
            """
            . W W B . .
            W . . . . .
            W . . . . .
            W . . . . .
            W . . . . .
            W . . . . .
            """,
            B,
        ),
        ["a1"],
        """
        B B B B . .
        W . . . . .
        W . . . . .
        W . . . . .
        W . . . . .
        W . . . . .
        """,
        id="a line running off the board flips nothing",
    ),
    pytest.param(
        position(
            """
            . W W B W B
            W . . . . .
            . . . . . .
            B . . . . .
            . . . . . .
            . . . . . .
            """,
            B,
        ),
        ["a1"],
        """
        B B B B W B
        W . . . . .
        . . . . . .
        B . . . . .
        . . . . . .
        . . . . . .
        """,
        id="flips stop at the first own disc and never cross an empty square",
    ),
    pytest.param(
        position(
            """
            . . . .
            W B . W
            . . . B
            . . . .
            """,
            B,
        ),
        ["d1"],
        """
        . . . B
        W B . B
        . . . B
        . . . .
        """,
        id="no wrap from the end of a row to the next",
    ),
]


@pytest.mark.parametrize(("start", "moves", "expected"), PLAYS)
def test_moves_turn_over_every_bracketed_line(
    start: OthelloPosition, moves: list[str], expected: str
) -> None:
    assert play_all(start, moves).rows() == board(expected)


def test_play_returns_the_placed_point_and_the_flipped_discs_in_row_major_order() -> None:
    start = position(
        """
        B . B . B .
        . W W W . .
        B W . W B .
        . W W W . .
        B . B . B .
        . . . . . .
        """,
        B,
    )
    after, diff = start.play(Move.place((2, 2)))
    flipped = ((1, 1), (1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2), (3, 3))
    assert diff == Diff(B, "place", (2, 2), flipped)
    assert diff.apply(start.rows()) == after.rows()
    assert diff.undo(after.rows()) == start.rows()
    assert after.to_move is W
    assert after.disc_counts() == {B: 17, W: 0}


@pytest.mark.parametrize("size", [4, 6, 8, 16])
def test_bitboards_have_one_bit_per_disc_and_one_guard_bit_per_row(size: int) -> None:
    rng = random.Random(size)
    rows = ["".join(rng.choice(".BW") for _ in range(size)) for _ in range(size)]
    black, white = OthelloPosition.from_rows(rows, B).bitboards()
    for color, bits in ((B, black), (W, white)):
        drawn = {
            row * (size + 1) + col
            for row in range(size)
            for col in range(size)
            if rows[row][col] == color.letter
        }
        assert {index for index in range(bits.bit_length()) if bits >> index & 1} == drawn


def test_a_position_never_changes() -> None:
    start = OthelloPosition.start(8)
    start.play(Move.place((4, 5)))
    assert start == OthelloPosition.start(8)
    with pytest.raises(AttributeError):
        start.to_move = W  # type: ignore[misc]
    with pytest.raises(TypeError):
        OthelloPosition()


def test_a_position_survives_copy_and_pickle() -> None:
    game = OthelloPosition.start(6).play(Move.place((1, 2)))[0]
    assert copy.deepcopy(game) == game
    assert pickle.loads(pickle.dumps(game)) == game
    assert pickle.loads(pickle.dumps(game)).legal_moves() == game.legal_moves()


# Legal moves

UVA_SECOND_GAME = """
    W W W W B . . .
    W W W B . . . .
    W W B . . . . .
    W B . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    """
LEGAL = [
    pytest.param(
        """
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . W B . . .
        . . . B B B . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        """,
        W,
        ["f4", "d6", "f6"],
        id="white after f5",
    ),
    pytest.param(
        UVA_SECOND_GAME,
        W,
        ["f1", "e2", "d3", "e3", "c4", "d4", "b5", "c5"],
        id="every disc of the anti-diagonal can be bracketed",
    ),
    pytest.param(
        UVA_SECOND_GAME,
        B,
        [],
        id="uva 220 second game, black has none",
    ),
    pytest.param(
        """
        B . . W
        . . . .
        . . . .
        W . . B
        """,
        B,
        [],
        id="corners alone bracket nothing",
    ),
]


@pytest.mark.parametrize(("diagram", "to_move", "expected"), LEGAL)
def test_legal_moves_are_the_squares_that_flip_something(
    diagram: str, to_move: Color, expected: list[str]
) -> None:
    start = position(diagram, to_move)
    assert [start.format_point(point) for point in start.legal_moves()] == expected


@pytest.mark.parametrize(
    ("diagram", "point", "reason"),
    [
        (". . . . / . W B . / . B W . / . . . .", (1, 1), "b2 is occupied"),
        (". . . . / . W B . / . B W . / . . . .", (0, 0), "a1 flips nothing"),
        (
            "W B . . / . . . . / . . . . / . . . .",
            (3, 3),
            "d4 flips nothing: Black has no legal move and must pass",
        ),
    ],
)
def test_an_illegal_placement_says_why(diagram: str, point: tuple[int, int], reason: str) -> None:
    start = position(diagram, B)
    with pytest.raises(IllegalMoveError, match=reason):
        start.play(Move.place(point))


@pytest.mark.parametrize("point", [(-1, 0), (0, -1), (8, 0), (0, 8), (100, 100)])
def test_a_point_off_the_board_is_an_invalid_move(point: tuple[int, int]) -> None:
    with pytest.raises(InvalidMoveError, match="not a point of the 8x8 board"):
        OthelloPosition.start(8).play(Move.place(point))


def test_a_placement_without_a_point_is_an_invalid_move() -> None:
    with pytest.raises(InvalidMoveError):
        OthelloPosition.start(8).play(Move("place", None))


# Passing and the end of the game


def test_a_side_without_a_move_passes_automatically() -> None:
    stuck = position(UVA_SECOND_GAME, B)
    assert stuck.must_pass and not stuck.is_over
    assert stuck.legal_moves() == []
    after, diff = stuck.play(Move.pass_turn())
    assert diff == Diff(B, "pass")
    assert after.rows() == stuck.rows()
    assert after.to_move is W
    assert not after.must_pass
    assert stuck.notation(Move.pass_turn()) == "pass"


def test_a_side_with_a_move_may_not_pass() -> None:
    with pytest.raises(IllegalMoveError, match="Black has a legal move and may not pass"):
        OthelloPosition.start(8).play(Move.pass_turn())


def test_passed_hands_the_turn_over_without_any_check() -> None:
    start = OthelloPosition.start(8)
    assert start.passed().to_move is W
    assert start.passed().rows() == start.rows()
    assert start.passed().passed() == start


def test_the_4x4_game_with_two_automatic_passes() -> None:
    moves = ["a2", "a3", "a4", "c1", "d3", "c4", "d4", "pass", "d2", "pass", "b4"]
    end = play_all(OthelloPosition.start(4), moves)
    assert end.rows() == board(". . W . / B B B B / B B B B / B B B B")
    assert end.is_over and not end.must_pass
    assert end.result() == "B+11"


@pytest.mark.parametrize(
    ("diagram", "result"),
    [
        ("B B B B / B B B B / B B B B / W W W W", "B+8"),
        ("W W W W / W W W W / W W W W / W W W B", "W+14"),
        ("B B B B / B B B B / W W W W / W W W W", "Draw"),
        ("B . . . / . . . . / . . . . / . . . .", "B+1"),
        ("B . . . / . . . . / . . . . / . . . W", "Draw"),
        (". . . . / . . . . / . . . . / . . . .", "Draw"),
    ],
)
def test_the_game_ends_when_neither_side_can_move(diagram: str, result: str) -> None:
    for to_move in (B, W):
        end = position(diagram, to_move)
        assert end.is_over and not end.must_pass
        assert end.legal_moves() == []
        assert end.result() == result
        with pytest.raises(IllegalMoveError, match="the game is over"):
            end.play(Move.pass_turn())
        with pytest.raises(IllegalMoveError, match="the game is over"):
            end.play(Move.place((3, 3)))


# Notation


@pytest.mark.parametrize(
    ("size", "point", "text"),
    [
        (8, (4, 5), "f5"),
        (8, (0, 0), "a1"),
        (8, (7, 7), "h8"),
        (10, (9, 9), "j10"),
        (28, (0, 27), "ab1"),
    ],
)
def test_notation_has_column_letters_and_row_numbers_from_the_top_left(
    size: int, point: tuple[int, int], text: str
) -> None:
    start = OthelloPosition.start(size)
    assert start.format_point(point) == text
    assert start.parse_point(text) == point
    assert start.parse_point(text.upper()) == point
    assert start.notation(Move.place(point)) == text


@pytest.mark.parametrize("size", [4, 6, 8, 10, 16, 30])
def test_notation_round_trips_on_every_square(size: int) -> None:
    start = OthelloPosition.start(size)
    points = [(row, col) for row in range(size) for col in range(size)]
    texts = [start.format_point(point) for point in points]
    assert len(set(texts)) == len(points)
    assert [start.parse_point(text) for text in texts] == points


@pytest.mark.parametrize("text", ["", "f", "5", "5f", "f0", "i1", "a9", "f5x", "f-5", "ff"])
def test_text_that_is_not_a_point_of_the_board_is_an_invalid_move(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        OthelloPosition.start(8).parse_point(text)


def test_a_point_off_the_board_has_no_notation() -> None:
    with pytest.raises(InvalidMoveError):
        OthelloPosition.start(8).format_point((8, 0))


# Building positions: diagrams and snapshots


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (["....", "....", "...."], "even size"),
        (["...", "...", "...", "..."], "row 1"),
        (["....", ".WB.", ".BX.", "...."], "row 3 has 'X'"),
        (["....", ".wb.", ".bw.", "...."], "row 2 has 'w'"),
    ],
)
def test_a_diagram_must_be_a_square_board_of_dots_b_and_w(rows: list[str], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        OthelloPosition.from_rows(rows, B)


def test_a_snapshot_restores_the_position() -> None:
    game = play_all(OthelloPosition.start(6), ["c2", "b2", "a2"])
    snapshot = game.to_snapshot()
    assert snapshot == {
        "size": 6,
        "rows": board(
            """
            . . . . . .
            B B B . . .
            . . W B . .
            . . B W . .
            . . . . . .
            . . . . . .
            """
        ),
        "to_move": "white",
    }
    assert OthelloPosition.from_snapshot(snapshot) == game
    assert hash(OthelloPosition.from_snapshot(snapshot)) == hash(game)


@pytest.mark.parametrize(
    "snapshot",
    [
        {},
        {"size": 4, "rows": ["....", ".WB.", ".BW.", "...."]},
        {"size": 4, "rows": ["....", ".WB.", ".BW.", "...."], "to_move": "red"},
        {"size": 6, "rows": ["....", ".WB.", ".BW.", "...."], "to_move": "black"},
        {"size": 4, "rows": "....", "to_move": "black"},
        {"size": 4, "rows": ["....", ".WB.", ".BW.", 1234], "to_move": "black"},
        [],
    ],
)
def test_a_malformed_snapshot_is_a_rules_error(snapshot: object) -> None:
    with pytest.raises(RulesError):
        OthelloPosition.from_snapshot(snapshot)  # type: ignore[arg-type]


# Properties of random games


Game = tuple[list[OthelloPosition], list[Diff]]


def random_game(size: int, rng: random.Random) -> Game:
    """Every position of a random game to its end, and the diff of each move."""
    positions, diffs = [OthelloPosition.start(size)], []
    while not positions[-1].is_over:
        legal = positions[-1].legal_moves()
        move = Move.place(rng.choice(legal)) if legal else Move.pass_turn()
        after, diff = positions[-1].play(move)
        positions.append(after)
        diffs.append(diff)
    return positions, diffs


games = st.builds(random_game, st.sampled_from([4, 6, 8, 10]), st.randoms(use_true_random=False))


@settings(max_examples=60, deadline=None)
@given(games)
def test_every_placement_adds_one_disc(game: Game) -> None:
    positions, diffs = game
    placements = 0
    for current, diff in zip(positions, [*diffs, None], strict=True):
        counts = current.disc_counts()
        assert counts[B] + counts[W] == 4 + placements
        placements += diff is not None and diff.action == "place"


@settings(max_examples=60, deadline=None)
@given(games)
def test_the_flipped_discs_are_exactly_what_changed_on_the_board(game: Game) -> None:
    positions, diffs = game
    for before, diff, after in zip(positions, diffs, positions[1:], strict=False):
        old, new = before.rows(), after.rows()
        changed = {
            (row, col)
            for row in range(before.size)
            for col in range(before.size)
            if old[row][col] != new[row][col]
        }
        assert diff.color is before.to_move
        if diff.point is None:
            assert changed == set() and before.must_pass
            continue
        assert changed == {diff.point, *diff.flipped}
        assert set(diff.flipped) == naive_flips(old, diff.color, diff.point)
        assert all(new[row][col] == diff.color.letter for row, col in changed)


@settings(max_examples=60, deadline=None)
@given(games)
def test_undoing_every_diff_leads_back_to_the_start(game: Game) -> None:
    positions, diffs = game
    rows = positions[-1].rows()
    for before, diff in zip(reversed(positions[:-1]), reversed(diffs), strict=True):
        rows = diff.undo(rows)
        assert rows == before.rows()
    assert rows == OthelloPosition.start(positions[0].size).rows()


@settings(max_examples=60, deadline=None)
@given(games)
def test_the_game_is_over_exactly_when_neither_side_can_move(game: Game) -> None:
    positions, _ = game
    assert positions[-1].is_over
    for current in positions:
        rows = current.rows()
        mine = naive_legal(rows, current.to_move)
        theirs = naive_legal(rows, current.to_move.opponent)
        assert current.legal_moves() == mine
        assert current.is_over == (not mine and not theirs)
        assert current.must_pass == (not mine and bool(theirs))
        assert (current.result() is None) != current.is_over


@settings(max_examples=30, deadline=None)
@given(games)
def test_snapshots_round_trip_through_the_whole_game(game: Game) -> None:
    for current in game[0]:
        assert OthelloPosition.from_snapshot(current.to_snapshot()) == current
        assert OthelloPosition.from_rows(current.rows(), current.to_move) == current


def test_a_stored_game_starts_from_its_setup_or_else_from_the_start() -> None:
    from gamerules import Color, new_position, setup_position

    assert setup_position("othello", 6, None) == new_position("othello", 6)
    rows = ["....", ".WB.", ".BW.", "...."]
    position = setup_position("othello", 4, {"rows": rows, "to_move": "white"})
    assert position.rows() == rows and position.to_move is Color.WHITE
    go = setup_position(
        "go", 5, {"rows": ["....."] * 2 + ["..B.."] + ["....."] * 2, "to_move": "white"}
    )
    assert go.rows()[2] == "..B.." and go.to_move is Color.WHITE


def test_a_setups_stones_by_colour_as_an_engine_is_told_them() -> None:
    from gamerules import Color, stones_by_color

    rows = ["....", ".WB.", ".BW.", "...."]
    assert stones_by_color(rows) == {
        Color.WHITE: [(1, 1), (2, 2)],
        Color.BLACK: [(1, 2), (2, 1)],
    }
    assert stones_by_color(["...", "..."]) == {}
