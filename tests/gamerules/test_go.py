"""The rules of Go (gamerules/go.py): boards drawn in, boards drawn out.

Diagrams are drawn top row first; a diagram may carry the usual coordinates
(column letters above, row numbers on the left), which are ignored.
"""

from __future__ import annotations

import copy
import doctest
import json
import pickle
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import boards  # type: ignore[import-untyped]

from gamerules import go
from gamerules.base import (
    Color,
    Diff,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Point,
    RulesError,
    empty_rows,
)
from gamerules.go import GoPosition

B, W = Color.BLACK, Color.WHITE
SIZES = [3, 5, 7, 9, 13, 19]


def board(diagram: str) -> list[str]:
    """The rows of a diagram; spaces, a line of column letters and row numbers are ignored."""
    rows = []
    for line in diagram.splitlines():
        tokens = line.split()
        if not tokens or (tokens[0].isalpha() and tokens[0] not in "BW."):
            continue
        if tokens[0].isdigit():
            tokens = tokens[1:]
        rows.append("".join(tokens))
    return rows


def position(diagram: str, to_move: Color = B) -> GoPosition:
    return GoPosition.from_rows(board(diagram), to_move)


def play_all(start: GoPosition, moves: list[str]) -> tuple[GoPosition, list[Diff]]:
    """``start`` after ``moves`` such as ``"B D4"`` or ``"W pass"``, and their diffs."""
    diffs = []
    for text in moves:
        letter, where = text.split()
        assert start.to_move is Color.from_letter(letter), f"{text}: not {letter}'s turn"
        move = Move.pass_turn() if where == "pass" else Move.place(start.parse_point(where))
        start, diff = start.play(move)
        diffs.append(diff)
    return start, diffs


def random_game(size: int, rng: random.Random, moves: int) -> Iterator[tuple[GoPosition, Diff]]:
    """Up to ``moves`` random legal moves from the empty board (a pass now and then):
    each position reached, with the diff that led to it."""
    current = GoPosition.start(size)
    for _ in range(moves):
        if current.is_over:
            return
        legal = current.legal_moves()
        if not legal or rng.random() < 0.04:
            current, diff = current.play(Move.pass_turn())
        else:
            current, diff = current.play(Move.place(rng.choice(legal)))
        yield current, diff


def chains_without_liberty(rows: list[str]) -> list[Point]:
    """A stone of each chain with no empty point next to it, found by a plain flood fill."""
    size = len(rows)
    seen: set[Point] = set()
    dead = []
    for start in ((r, c) for r in range(size) for c in range(size)):
        if rows[start[0]][start[1]] == "." or start in seen:
            continue
        chain, todo, free = {start}, [start], False
        while todo:
            row, col = todo.pop()
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if 0 <= r < size and 0 <= c < size:
                    if rows[r][c] == ".":
                        free = True
                    elif rows[r][c] == rows[start[0]][start[1]] and (r, c) not in chain:
                        chain.add((r, c))
                        todo.append((r, c))
        seen |= chain
        if not free:
            dead.append(start)
    return dead


def test_the_examples_in_the_docstrings_hold() -> None:
    assert doctest.testmod(go).failed == 0


# Board sizes and the start


@pytest.mark.parametrize("size", [*SIZES, 11, 15, 17])
def test_play_starts_on_an_empty_board_with_black(size: int) -> None:
    start = GoPosition.start(size)
    assert start.rows() == empty_rows(size)
    assert (start.size, start.to_move, start.consecutive_passes) == (size, B, 0)
    assert start.prisoners == {B: 0, W: 0}
    assert len(start.legal_moves()) == size * size
    assert not start.is_over


@pytest.mark.parametrize("size", [1, 2, 4, 8, 18, 20, 21, -3, 9.0, True, "9", None])
def test_go_needs_an_odd_board_from_3_to_19(size: object) -> None:
    with pytest.raises(RulesError, match="odd size from 3 to 19"):
        GoPosition.start(size)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (["...", "..."], "odd size"),
        (["....", "....", "....", "...."], "odd size"),
        (["...", "....", "..."], "row 2"),
        (["...", ".X.", "..."], "row 2 has 'X'"),
        (["B..", "...", "..."], None),
        (["BW.", "W..", "..."], "chain at A3 has no liberty"),
        (["WWW", "WBW", "WWW"], "no liberty"),
        ("B........", "one string"),
    ],
)
def test_a_drawn_board_must_be_a_legal_go_board(rows: list[str], message: str | None) -> None:
    if message is None:
        assert GoPosition.from_rows(rows, W).rows() == rows
        return
    with pytest.raises(RulesError, match=message):
        GoPosition.from_rows(rows, B)


# Notation


@pytest.mark.parametrize(
    ("size", "point", "text"),
    [
        (19, (18, 0), "A1"),
        (19, (0, 0), "A19"),
        (19, (0, 18), "T19"),
        (19, (18, 18), "T1"),
        (19, (15, 3), "D4"),
        (19, (9, 8), "J10"),
        (19, (9, 7), "H10"),
        (9, (4, 4), "E5"),
        (9, (0, 8), "J9"),
        (3, (2, 0), "A1"),
    ],
)
def test_points_are_written_like_on_a_real_board(size: int, point: Point, text: str) -> None:
    start = GoPosition.start(size)
    assert start.format_point(point) == text
    assert start.parse_point(text) == point
    assert start.parse_point(text.lower()) == point
    assert start.notation(Move.place(point)) == text


@pytest.mark.parametrize("text", ["I5", "K10", "A0", "A10", "5E", "", "E", "pass", "EE5", "Z1"])
def test_text_that_is_not_a_point_of_the_9x9_board_is_refused(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        GoPosition.start(9).parse_point(text)


def test_a_pass_is_written_pass() -> None:
    assert GoPosition.start(9).notation(Move.pass_turn()) == "pass"


@pytest.mark.parametrize("point", [(9, 0), (0, 9), (-1, 4), (4, -1)])
def test_points_off_the_board_are_invalid(point: Point) -> None:
    start = GoPosition.start(9)
    with pytest.raises(InvalidMoveError, match="not a point of the 9x9 board"):
        start.play(Move.place(point))
    with pytest.raises(InvalidMoveError):
        start.format_point(point)


def test_a_point_that_is_not_a_pair_is_invalid() -> None:
    with pytest.raises(InvalidMoveError):
        GoPosition.start(9).play(Move("place", [1, 2]))  # type: ignore[arg-type]


# Moves in, boards and prisoners out

PLAYS = [
    pytest.param(
        position(
            """
              A B C D E
            5 . . . . .
            4 . . W . .
            3 . W B . .
            2 . . W . .
            1 . . . . .
            """,
            W,
        ),
        ["W D3"],
        """
        . . . . .
        . . W . .
        . W . W .
        . . W . .
        . . . . .
        """,
        (0, 1),
        ["C3"],
        id="one stone captured in the middle",
    ),
    pytest.param(
        position(
            """
            . . . . .
            . . . . .
            W . . . .
            B W . . .
            . . . . .
            """,
            W,
        ),
        ["W A1"],
        """
        . . . . .
        . . . . .
        W . . . .
        . W . . .
        W . . . .
        """,
        (0, 1),
        ["A2"],
        id="a stone on the edge",
    ),
    pytest.param(
        position(
            """
            B W . . .
            . . . . .
            . . . . .
            . . . . .
            . . . . .
            """,
            W,
        ),
        ["W A4"],
        """
        . W . . .
        W . . . .
        . . . . .
        . . . . .
        . . . . .
        """,
        (0, 1),
        ["A5"],
        id="a stone in the corner",
    ),
    pytest.param(
        position(
            """
            . B W . .
            B W W . .
            . B B W .
            . . . . .
            . . . . .
            """,
        ),
        ["B D5", "W E1", "B D4"],
        """
        . B . B .
        B . . B .
        . B B W .
        . . . . .
        . . . . W
        """,
        (3, 0),
        ["B4", "C4", "C5"],
        id="a chain of three",
    ),
    pytest.param(
        position(
            """
            . W B . .
            W . W B .
            . W B . .
            . . . . .
            . . . . .
            """,
        ),
        ["B B4"],
        """
        . W B . .
        W B . B .
        . W B . .
        . . . . .
        . . . . .
        """,
        (1, 0),
        ["C4"],
        id="the placed stone survives: captures come first",
    ),
    pytest.param(
        position(
            """
            W B . . .
            . W B . .
            W B . . .
            B . . . .
            . . . . .
            """,
        ),
        ["B A4"],
        """
        . B . . .
        B . B . .
        . B . . .
        B . . . .
        . . . . .
        """,
        (3, 0),
        ["A3", "A5", "B4"],
        id="three chains captured by one stone",
    ),
    pytest.param(
        position(
            """
            W W W
            W W W
            W W .
            """,
        ),
        ["B C1"],
        """
        . . .
        . . .
        . . B
        """,
        (8, 0),
        ["A1", "A2", "A3", "B1", "B2", "B3", "C2", "C3"],
        id="the whole board but one point",
    ),
    pytest.param(
        GoPosition.start(5),
        ["B C3", "W pass", "B D3", "W C4", "B pass", "W pass"],
        """
        . . . . .
        . . W . .
        . . B B .
        . . . . .
        . . . . .
        """,
        (0, 0),
        [],
        id="passes change nothing on the board",
    ),
]


@pytest.mark.parametrize(("start", "moves", "expected", "prisoners", "captured"), PLAYS)
def test_moves_capture_the_chains_they_leave_without_liberty(
    start: GoPosition,
    moves: list[str],
    expected: str,
    prisoners: tuple[int, int],
    captured: list[str],
) -> None:
    after, diffs = play_all(start, moves)
    assert after.rows() == board(expected)
    assert after.prisoners == {B: prisoners[0], W: prisoners[1]}
    taken = [start.format_point(point) for diff in diffs for point in diff.captured]
    assert sorted(taken) == sorted(captured)
    assert chains_without_liberty(after.rows()) == []


def test_the_diff_names_the_point_and_the_captures_in_row_major_order() -> None:
    start = position(
        """
        W B . . .
        . W B . .
        W B . . .
        B . . . .
        . . . . .
        """
    )
    after, diff = start.play(Move.place((1, 0)))
    assert diff == Diff(B, "place", (1, 0), captured=((0, 0), (1, 1), (2, 0)))
    assert diff.apply(start.rows()) == after.rows()
    assert diff.undo(after.rows()) == start.rows()
    assert after.play(Move.pass_turn())[1] == Diff(W, "pass")


# Illegal moves

SUICIDE = """
    . B . . .
    B . . . .
    . . . . .
    . . . . .
    . . . . .
    """


@pytest.mark.parametrize(
    ("diagram", "to_move", "point", "reason"),
    [
        pytest.param(SUICIDE, W, "A5", "A5 is suicide", id="one stone in the corner"),
        pytest.param(
            """
            . B . . .
            W B . . .
            B . . . .
            . . . . .
            . . . . .
            """,
            W,
            "A5",
            "A5 is suicide",
            id="filling the last liberty of its own chain",
        ),
        pytest.param(
            """
            . . B . .
            . B W B .
            . B . B .
            . . B . .
            . . . . .
            """,
            W,
            "C3",
            "C3 is suicide",
            id="two stones in the middle",
        ),
        pytest.param(SUICIDE, B, "B5", "B5 is occupied", id="occupied by own stone"),
        pytest.param(SUICIDE, W, "A4", "A4 is occupied", id="occupied by the opponent"),
    ],
)
def test_suicide_and_occupied_points_are_refused(
    diagram: str, to_move: Color, point: str, reason: str
) -> None:
    start = position(diagram, to_move)
    where = start.parse_point(point)
    with pytest.raises(IllegalMoveError, match=reason):
        start.play(Move.place(where))
    assert where not in start.legal_moves()


def test_a_stone_may_fill_its_own_liberty_when_it_captures() -> None:
    start = position(
        """
        . B W . .
        B W . . .
        W . . . .
        . . . . .
        . . . . .
        """,
        W,
    )
    after, diff = start.play(Move.place((0, 0)))
    assert diff.captured == ((0, 1), (1, 0))
    assert (0, 0) in start.legal_moves()
    assert after.prisoners == {B: 0, W: 2}


KO = position(
    """
      A B C D E
    5 . . . . .
    4 . B W . .
    3 B W . W .
    2 . B W . .
    1 . . . . .
    """
)


def test_simple_ko_cannot_be_retaken_at_once_but_can_after_a_ko_threat() -> None:
    taken, diffs = play_all(KO, ["B C3"])
    assert diffs[0].captured == ((2, 1),)
    with pytest.raises(IllegalMoveError, match=r"B3 would repeat an earlier board .*superko"):
        taken.play(Move.place(taken.parse_point("B3")))
    assert taken.parse_point("B3") not in taken.legal_moves()
    threat, _ = play_all(taken, ["W E2", "B E3"])
    retaken, diffs = play_all(threat, ["W B3"])
    assert diffs[0].captured == ((2, 2),)
    assert retaken.rows() == board(
        """
        . . . . .
        . B W . .
        B W . W B
        . B W . W
        . . . . .
        """
    )


def test_without_superko_the_ko_is_retaken_at_once_and_the_snapshot_says_so() -> None:
    start = GoPosition.start(5, superko=False)
    moves = ["B B4", "W C4", "B A3", "W B3", "B B2", "W C2", "B E1", "W D3", "B C3"]
    taken, _ = play_all(start, moves)
    retaken, diffs = play_all(taken, ["W B3"])
    assert diffs[0].captured == ((2, 2),)
    restored = GoPosition.from_snapshot(json.loads(json.dumps(retaken.to_snapshot())))
    again, diffs = play_all(restored, ["B C3"])
    assert diffs[0].captured == ((2, 1),)
    assert again.rows() == taken.rows()


def test_a_pass_is_no_ko_threat_under_positional_superko() -> None:
    taken, _ = play_all(KO, ["B C3", "W pass", "B pass"])
    assert taken.is_over
    resumed = taken.resume()
    assert resumed.to_move is W and resumed.consecutive_passes == 0
    with pytest.raises(IllegalMoveError, match="superko"):
        resumed.play(Move.place(resumed.parse_point("B3")))


def test_superko_refuses_a_capture_of_two_that_recreates_an_earlier_board() -> None:
    # Simple ko allows this retake (two stones captured), positional superko does not.
    start = position(
        """
        . W .
        . B W
        . B .
        """,
    )
    after, _ = play_all(start, ["B A3", "W A1", "B pass", "W A2"])
    assert after.rows() == board(". W . / W B W / W B .".replace("/", "\n"))
    with pytest.raises(IllegalMoveError, match="A3 would repeat an earlier board"):
        after.play(Move.place(after.parse_point("A3")))
    assert after.legal_moves() == []


def test_superko_refuses_a_board_seen_many_moves_earlier() -> None:
    start = position(
        """
        B . .
        B . .
        . . .
        """,
        W,
    )
    moves = ["W B2", "B B1", "W B3", "B A1", "W C1", "B C2", "W A1", "B A3", "W C3"]
    moves += ["B pass", "W C2", "B pass", "W B1"]
    after, diffs = play_all(start, moves)
    assert after.rows() == board("B W W / . W W / W W W".replace("/", "\n"))
    assert [len(diff.captured) for diff in diffs] == [0, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0]
    with pytest.raises(IllegalMoveError, match="A2 would repeat an earlier board"):
        after.play(Move.place(after.parse_point("A2")))
    assert after.legal_moves() == []


def test_positions_branching_from_one_position_keep_their_own_history() -> None:
    start = GoPosition.start(5)
    first, _ = play_all(start, ["B C3", "W D3"])
    second, _ = start.play(Move.place((2, 2)))
    assert second.to_snapshot()["history"] == first.to_snapshot()["history"][:2]
    assert (2, 3) in second.legal_moves()
    assert play_all(second, ["W D3"])[0] == first
    threat, _ = play_all(KO, ["B C3", "W E2", "B E3"])
    line, _ = play_all(threat, ["W B3", "B A1"])
    again, _ = play_all(threat, ["W B3"])
    assert (2, 2) not in again.legal_moves()
    assert play_all(again, ["B A1"])[0] == line


# Passes and the end of play


def test_two_passes_in_a_row_end_play_until_it_resumes() -> None:
    start, _ = play_all(GoPosition.start(5), ["B C3", "W pass"])
    assert start.consecutive_passes == 1 and not start.is_over
    over, _ = play_all(start, ["B pass"])
    assert over.is_over and over.consecutive_passes == 2
    assert over.legal_moves() == []
    for move in (Move.pass_turn(), Move.place((0, 0))):
        with pytest.raises(IllegalMoveError, match="play is over"):
            over.play(move)
    resumed = over.resume()
    assert resumed.to_move is W and not resumed.is_over
    assert resumed.rows() == over.rows()
    after, _ = play_all(resumed, ["W D3"])
    assert after.consecutive_passes == 0


def test_a_placement_between_passes_resets_the_count() -> None:
    after, _ = play_all(GoPosition.start(5), ["B pass", "W C3", "B pass"])
    assert after.consecutive_passes == 1 and not after.is_over


# Values: immutable, comparable, snapshots


def test_playing_leaves_the_position_unchanged() -> None:
    start = KO
    before = (start.rows(), start.to_move, start.prisoners, start.to_snapshot())
    start.play(Move.place((2, 2)))
    start.play(Move.pass_turn())
    assert (start.rows(), start.to_move, start.prisoners, start.to_snapshot()) == before
    with pytest.raises(AttributeError):
        start.to_move = W  # type: ignore[misc]
    with pytest.raises(AttributeError):
        start.anything = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        GoPosition()


def test_equal_positions_have_equal_boards_turns_prisoners_and_histories() -> None:
    one, _ = play_all(GoPosition.start(5), ["B C3", "W D3"])
    other, _ = play_all(GoPosition.start(5), ["B C3", "W D3"])
    assert one == other and hash(one) == hash(other)
    assert one != GoPosition.from_rows(one.rows(), B)
    assert one != one.play(Move.pass_turn())[0]
    assert one != "a position"


def test_a_snapshot_survives_json_and_keeps_the_ko_history() -> None:
    taken, _ = play_all(KO, ["B C3"])
    data = json.loads(json.dumps(taken.to_snapshot()))
    restored = GoPosition.from_snapshot(data)
    assert restored == taken
    assert restored.legal_moves() == taken.legal_moves()
    with pytest.raises(IllegalMoveError, match="superko"):
        restored.play(Move.place((2, 1)))
    assert data["prisoners"] == {"black": 1, "white": 0}
    assert len(data["history"]) == 2
    assert all(0 <= key < 2**53 for key in data["history"])


def test_copies_and_pickles_are_equal_positions() -> None:
    taken, _ = play_all(KO, ["B C3", "W pass"])
    for twin in (copy.copy(taken), copy.deepcopy(taken), pickle.loads(pickle.dumps(taken))):
        assert twin == taken
        assert twin.consecutive_passes == 1


def _snapshot(**changes: object) -> dict[str, object]:
    data = play_all(KO, ["B C3"])[0].to_snapshot()
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


@pytest.mark.parametrize(
    "data",
    [
        {},
        _snapshot(size=None),
        _snapshot(to_move="red"),
        _snapshot(size=7),
        _snapshot(rows="....."),
        _snapshot(prisoners={"black": -1, "white": 0}),
        _snapshot(prisoners={"black": 1}),
        _snapshot(consecutive_passes=3),
        _snapshot(history=[]),
        _snapshot(history=[0]),
        _snapshot(history="0"),
        _snapshot(history=[0, 2**60]),
        _snapshot(history=[True]),
    ],
)
def test_a_broken_snapshot_is_refused(data: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        GoPosition.from_snapshot(data)


def test_the_chain_of_a_stone_and_the_stone_on_a_point() -> None:
    start = position(
        """
        . B W . .
        B B W . .
        . . W W .
        . . . . .
        . . . . B
        """
    )
    assert start.chain((0, 1)) == {(0, 1), (1, 0), (1, 1)}
    assert start.chain((2, 3)) == {(0, 2), (1, 2), (2, 2), (2, 3)}
    assert start.chain((4, 4)) == {(4, 4)}
    assert start.chain((0, 0)) == frozenset()
    assert (start.stone_at((0, 1)), start.stone_at((0, 2)), start.stone_at((0, 0))) == (B, W, None)


# Properties of random games

games = st.tuples(st.sampled_from([3, 5, 7, 9]), st.randoms(use_true_random=False))


@settings(max_examples=60, deadline=None)
@given(games)
def test_stones_on_the_board_are_the_placements_less_the_captures(
    game: tuple[int, random.Random],
) -> None:
    size, rng = game
    placed = {B: 0, W: 0}
    captured = {B: 0, W: 0}
    for current, diff in random_game(size, rng, 150):
        if diff.point is not None:
            placed[diff.color] += 1
            captured[diff.color.opponent] += len(diff.captured)
        rows = current.rows()
        for color in (B, W):
            on_board = sum(row.count(color.letter) for row in rows)
            assert on_board == placed[color] - captured[color]
            assert current.prisoners[color.opponent] == captured[color]
        assert chains_without_liberty(rows) == []


@settings(max_examples=40, deadline=None)
@given(games)
def test_undoing_every_diff_of_a_long_game_leads_back_to_the_empty_board(
    game: tuple[int, random.Random],
) -> None:
    size, rng = game
    played = list(random_game(size, rng, 4 * size * size))
    diffs = [diff for _, diff in played]
    rows = played[-1][0].rows()
    for diff in reversed(diffs):
        rows = diff.undo(rows)
    assert rows == empty_rows(size)
    for diff, (current, _) in zip(diffs, played, strict=True):
        rows = diff.apply(rows)
        assert rows == current.rows()


@settings(max_examples=40, deadline=None)
@given(games)
def test_no_placement_ever_recreates_an_earlier_board(game: tuple[int, random.Random]) -> None:
    size, rng = game
    seen = {tuple(empty_rows(size))}
    history = GoPosition.start(size).to_snapshot()["history"]
    for current, diff in random_game(size, rng, 4 * size * size):
        if diff.point is not None:
            rows = tuple(current.rows())
            assert rows not in seen
            seen.add(rows)
        history = current.to_snapshot()["history"]
    assert len(history) == len(set(history)) == len(seen)


def oracle_legal(current: GoPosition, seen: set[tuple[str, ...]]) -> list[Point]:
    """The legal placements by sgfmill's board (no suicide: the stone stays) and the
    boards seen so far (no superko)."""
    size = current.size
    rows = current.rows()
    legal = []
    for row in range(size):
        for col in range(size):
            if rows[row][col] != ".":
                continue
            trial = sgfmill_board(rows)
            trial.play(size - 1 - row, col, current.to_move.letter.lower())
            after = sgfmill_rows(trial)
            if after[row][col] != "." and tuple(after) not in seen:
                legal.append((row, col))
    return legal


def sgfmill_board(rows: list[str]) -> boards.Board:
    size = len(rows)
    oracle = boards.Board(size)
    black = [(size - 1 - r, c) for r in range(size) for c in range(size) if rows[r][c] == "B"]
    white = [(size - 1 - r, c) for r in range(size) for c in range(size) if rows[r][c] == "W"]
    assert oracle.apply_setup(black, white, [])
    return oracle


def sgfmill_rows(oracle: boards.Board) -> list[str]:
    size = oracle.side
    letters = {None: ".", "b": "B", "w": "W"}
    return [
        "".join(letters[oracle.get(size - 1 - row, col)] for col in range(size))
        for row in range(size)
    ]


@pytest.mark.parametrize("seed", range(12))
def test_legal_moves_are_what_sgfmill_and_the_boards_seen_allow(seed: int) -> None:
    rng = random.Random(seed)
    size = [3, 5, 5, 7][seed % 4]
    seen = {tuple(empty_rows(size))}
    for current, diff in random_game(size, rng, 3 * size * size):
        if diff.point is not None:
            seen.add(tuple(current.rows()))
        if not current.is_over:
            assert current.legal_moves() == oracle_legal(current, seen)


@pytest.mark.parametrize("size", [5, 7, 9, 13, 19])
def test_boards_agree_with_sgfmill_move_by_move_on_hundreds_of_games(size: int) -> None:
    rng = random.Random(size)
    games_played = {5: 120, 7: 80, 9: 60, 13: 25, 19: 15}[size]
    for _ in range(games_played):
        oracle = boards.Board(size)
        for current, diff in random_game(size, rng, 2 * size * size):
            if diff.point is not None:
                row, col = diff.point
                before = sgfmill_rows(oracle)
                oracle.play(size - 1 - row, col, diff.color.letter.lower())
                assert sgfmill_rows(oracle) == current.rows()
                assert diff.undo(current.rows()) == before


# Handicap


@pytest.mark.parametrize(
    ("size", "stones", "diagram"),
    [
        (
            9,
            2,
            """
            A B C D E F G H J
            9 . . . . . . . . .
            8 . . . . . . . . .
            7 . . . . . . B . .
            6 . . . . . . . . .
            5 . . . . . . . . .
            4 . . . . . . . . .
            3 . . B . . . . . .
            2 . . . . . . . . .
            1 . . . . . . . . .
            """,
        ),
        (
            9,
            3,
            """
            . . . . . . . . .
            . . . . . . . . .
            . . B . . . B . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . B . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            """,
        ),
        (
            9,
            5,
            """
            . . . . . . . . .
            . . . . . . . . .
            . . B . . . B . .
            . . . . . . . . .
            . . . . B . . . .
            . . . . . . . . .
            . . B . . . B . .
            . . . . . . . . .
            . . . . . . . . .
            """,
        ),
        (
            7,
            4,
            """
            . . . . . . .
            . . . . . . .
            . . B . B . .
            . . . . . . .
            . . B . B . .
            . . . . . . .
            . . . . . . .
            """,
        ),
        (
            13,
            6,
            """
            . . . . . . . . . . . . .
            . . . . . . . . . . . . .
            . . . . . . . . . . . . .
            . . . B . . . . . B . . .
            . . . . . . . . . . . . .
            . . . . . . . . . . . . .
            . . . B . . . . . B . . .
            . . . . . . . . . . . . .
            . . . . . . . . . . . . .
            . . . B . . . . . B . . .
            . . . . . . . . . . . . .
            . . . . . . . . . . . . .
            . . . . . . . . . . . . .
            """,
        ),
        (
            13,
            8,
            """
            . . . . . . . . . . . . .
            . . . . . . . . . . . . .
            . . . . . . . . . . . . .
            . . . B . . B . . B . . .
            . . . . . . . . . . . . .
            . . . . . . . . . . . . .
            . . . B . . . . . B . . .
            . . . . . . . . . . . . .
            . . . . . . . . . . . . .
            . . . B . . B . . B . . .
            . . . . . . . . . . . . .
            . . . . . . . . . . . . .
            . . . . . . . . . . . . .
            """,
        ),
    ],
)
def test_handicap_stones_stand_on_the_standard_points(size: int, stones: int, diagram: str) -> None:
    start = go.handicap_position(size, stones)
    assert start.rows() == board(diagram)
    assert start.to_move is W
    assert start.prisoners == {B: 0, W: 0}


@pytest.mark.parametrize(
    ("size", "stones", "named"),
    [
        (19, 2, "Q16 D4"),
        (19, 3, "D16 Q16 D4"),
        (19, 4, "D16 Q16 D4 Q4"),
        (19, 5, "D16 Q16 K10 D4 Q4"),
        (19, 6, "D16 Q16 D10 Q10 D4 Q4"),
        (19, 7, "D16 Q16 D10 K10 Q10 D4 Q4"),
        (19, 8, "D16 K16 Q16 D10 Q10 D4 K4 Q4"),
        (19, 9, "D16 K16 Q16 D10 K10 Q10 D4 K4 Q4"),
        (13, 9, "D10 G10 K10 D7 G7 K7 D4 G4 K4"),
        (11, 5, "C9 J9 F6 C3 J3"),
        (9, 4, "C7 G7 C3 G3"),
        (7, 3, "C5 E5 C3"),
    ],
)
def test_handicap_points_by_name(size: int, stones: int, named: str) -> None:
    start = GoPosition.start(size)
    assert [start.format_point(p) for p in go.handicap_points(size, stones)] == named.split()


@pytest.mark.parametrize(
    ("size", "counts"),
    [(3, []), (5, []), (7, [2, 3, 4]), (9, [2, 3, 4, 5]), (11, list(range(2, 10)))]
    + [(size, list(range(2, 10))) for size in (13, 15, 17, 19)],
)
def test_how_many_handicap_stones_each_size_takes(size: int, counts: list[int]) -> None:
    assert list(go.handicap_counts(size)) == counts


@pytest.mark.parametrize(
    ("size", "stones"), [(9, 6), (9, 1), (9, 0), (19, 10), (5, 2), (3, 2), (19, True), (19, 2.0)]
)
def test_a_handicap_the_board_does_not_take_is_refused(size: int, stones: object) -> None:
    with pytest.raises(RulesError, match=f"{size}x{size} board takes"):
        go.handicap_points(size, stones)  # type: ignore[arg-type]


def test_a_handicap_on_a_size_go_does_not_have_is_refused() -> None:
    with pytest.raises(RulesError, match="odd size"):
        go.handicap_counts(8)


@pytest.mark.parametrize(
    ("rows", "to_move", "point", "expected"),
    [
        ([".B.", "BB.", "..."], B, (0, 0), True),  # the corner: two neighbours
        ([".B.", "BB.", "..."], W, (0, 0), False),  # the other side's eye
        ([".B.", "BB.", "..."], B, (0, 2), False),  # an empty neighbour
        (["BBB", "B.B", "BBB"], B, (1, 1), True),  # the middle: four neighbours
        ([".BW", "BW.", "W.."], B, (0, 0), True),  # an eye about to be taken
        (["...", "...", "..."], B, (1, 1), False),
    ],
)
def test_a_point_fills_an_own_eye_when_every_neighbour_is_the_movers_stone(
    rows: list[str], to_move: Color, point: tuple[int, int], expected: bool
) -> None:
    assert GoPosition.from_rows(rows, to_move).fills_own_eye(point) is expected


def test_fills_own_eye_refuses_a_point_off_the_board() -> None:
    with pytest.raises(InvalidMoveError):
        GoPosition.start(9).fills_own_eye((9, 0))
