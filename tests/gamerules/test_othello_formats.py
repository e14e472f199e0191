"""The Othello command-line formats (gamerules/othello_formats.py), run as a user runs them.

Every case goes through the real command line, ``python -m gamerules FORMAT``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CONFORMANCE = Path(__file__).resolve().parents[3] / "shared" / "conformance"
OTHELLO_FORMATS = ["othello-replay", "othello-commands"]


def run(format_name: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gamerules", format_name],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )


def text(block: str) -> str:
    """A block of lines written indented in the test, as the program reads or prints it."""
    return textwrap.dedent(block).lstrip("\n")


def conformance_cases() -> list[object]:
    if not CONFORMANCE.is_dir():
        reason = f"the conformance samples are not there: {CONFORMANCE} is missing"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason), id="no-samples")]
    return [
        pytest.param(sample, id=f"{sample.parent.name}/{sample.name}")
        for sample in sorted(CONFORMANCE.glob("othello-*/*.in"))
    ]


@pytest.mark.parametrize("sample", conformance_cases())
def test_conformance_sample(sample: Path) -> None:
    result = run(sample.parent.name, sample.read_text())
    assert result.stderr == ""
    assert result.returncode == 0
    assert result.stdout == sample.with_suffix(".out").read_text()


@pytest.mark.skipif(not CONFORMANCE.is_dir(), reason=f"{CONFORMANCE} is missing")
@pytest.mark.parametrize("format_name", OTHELLO_FORMATS)
def test_every_batch_format_has_conformance_samples(format_name: str) -> None:
    assert list((CONFORMANCE / format_name).glob("*.in"))


# othello-replay

FOUR_BY_FOUR_WITH_TWO_PASSES = text(
    """
    4
    N 2 1
    B 3 1
    N 4 1
    B 1 3
    N 3 4
    B 4 3
    N 4 4
    N 2 4
    N 4 2
    """
)

BOARDS_OF_THE_FOUR_BY_FOUR_GAME = [
    ("....", ".BN.", ".NB.", "....", "2:2"),
    ("....", "NNN.", ".NB.", "....", "4:1"),
    ("....", "NNN.", "BBB.", "....", "3:3"),
    ("....", "NNN.", "NNB.", "N...", "6:1"),
    ("..B.", "NNB.", "NNB.", "N...", "5:3"),
    ("..B.", "NNB.", "NNNN", "N...", "7:2"),
    ("..B.", "NNB.", "NNBN", "N.B.", "6:4"),
    ("..B.", "NNB.", "NNNN", "N.BN", "8:3"),
    ("..B.", "NNNN", "NNNN", "N.BN", "10:2"),
    ("..B.", "NNNN", "NNNN", "NNNN", "12:1"),
]


def test_replay_skips_the_side_that_cannot_move() -> None:
    result = run("othello-replay", FOUR_BY_FOUR_WITH_TWO_PASSES)
    assert result.returncode == 0, result.stderr
    expected = "".join("\n".join(board) + "\n\n" for board in BOARDS_OF_THE_FOUR_BY_FOUR_GAME)
    assert result.stdout == expected


def test_replay_of_a_larger_board_with_loose_spacing_and_crlf() -> None:
    result = run("othello-replay", "10\r\n\r\n  N   4 5  \r\nB 4 4\n")
    assert result.returncode == 0, result.stderr
    boards = [board.splitlines() for board in result.stdout.split("\n\n")]
    assert [board[3:6] + board[10:] for board in boards] == [
        ["..........", "....BN....", "....NB....", "2:2"],
        ["....N.....", "....NN....", "....NB....", "4:1"],
        ["...BN.....", "....BN....", "....NB....", "3:3"],
        [],
    ]


START_WHITE_TO_MOVE = "--------\n" * 3 + "---WB---\n---BW---\n" + "--------\n" * 3 + "W\n"

MALFORMED = [
    pytest.param("othello-replay", "", 1, "the board size", id="replay: empty input"),
    pytest.param("othello-replay", "seven\n", 1, "board size", id="replay: size not a number"),
    pytest.param("othello-replay", "7\n", 1, "even number of at least 4", id="replay: odd size"),
    pytest.param("othello-replay", "2\n", 1, "even number of at least 4", id="replay: size 2"),
    pytest.param("othello-replay", "8\nN 3 4\nX 3 3\n", 3, "'X 3 3'", id="replay: bad colour"),
    pytest.param("othello-replay", "8\nN 3\n", 2, "'N row col'", id="replay: missing column"),
    pytest.param("othello-replay", "8\n\nN 9 1\n", 3, "from 1 to 8", id="replay: off the board"),
    pytest.param(
        "othello-replay", "8\nN 4 4\n", 2, "'N 4 4': d4 is occupied", id="replay: occupied"
    ),
    pytest.param(
        "othello-replay", "8\nN 1 1\n", 2, "'N 1 1': a1 flips nothing", id="replay: no flip"
    ),
    pytest.param(
        "othello-replay",
        "8\nN 3 4\nN 3 3\n",
        3,
        "'N 3 3': it is White's turn",
        id="replay: wrong colour while the right one can move",
    ),
    pytest.param("othello-commands", "", 1, "number of games", id="commands: empty input"),
    pytest.param("othello-commands", "x\n", 1, "number of games", id="commands: bad count"),
    pytest.param(
        "othello-commands",
        "1\n--------\n--------\n---x----\n",
        4,
        "'---x----'",
        id="commands: bad square",
    ),
    pytest.param(
        "othello-commands",
        "1\n--------\n-------\n",
        3,
        "board row of 8",
        id="commands: short row",
    ),
    pytest.param(
        "othello-commands",
        "1\n" + "--------\n" * 8 + "X\n",
        10,
        "B or W",
        id="commands: bad side to move",
    ),
    pytest.param(
        "othello-commands",
        "1\n" + START_WHITE_TO_MOVE + "L\nM35\nZ\nQ\n",
        13,
        "'Z'",
        id="commands: unknown command",
    ),
    pytest.param(
        "othello-commands",
        "1\n" + START_WHITE_TO_MOVE + "M11\nQ\n",
        11,
        "'M11': a1 flips nothing",
        id="commands: illegal move",
    ),
    pytest.param(
        "othello-commands",
        "1\n" + START_WHITE_TO_MOVE + "L\n",
        12,
        "ends where a command",
        id="commands: game without Q",
    ),
    pytest.param(
        "othello-commands",
        "1\n" + START_WHITE_TO_MOVE + "Q\nQ\n",
        12,
        "after the last game",
        id="commands: more than announced",
    ),
]


@pytest.mark.parametrize(("format_name", "stdin", "line", "message"), MALFORMED)
def test_bad_input_is_one_line_on_stderr_naming_the_line_and_exit_2(
    format_name: str, stdin: str, line: int, message: str
) -> None:
    result = run(format_name, stdin)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"error: line {line}: ")
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_input_that_is_not_text_is_an_input_error() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gamerules", "othello-replay"],
        input=b"4\nN 2 1\n\xff\xfe 1 1\n",
        capture_output=True,
        cwd=REPO,
        env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"},
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.decode().startswith("error: line 3: not readable as utf-8 text")
    assert result.stderr.count(b"\n") == 1


def test_replay_prints_the_boards_before_the_bad_line() -> None:
    result = run("othello-replay", "4\nN 2 1\nN 9 9\n")
    assert result.returncode == 2
    assert result.stdout == "....\n.BN.\n.NB.\n....\n2:2\n\n....\nNNN.\n.NB.\n....\n4:1\n\n"


# othello-commands


def test_commands_separate_games_by_exactly_one_blank_line() -> None:
    stdin = "3\n" + START_WHITE_TO_MOVE + "Q\n" + START_WHITE_TO_MOVE + "L\nQ\n"
    stdin += START_WHITE_TO_MOVE + "M35\nQ\n"
    result = run("othello-commands", stdin)
    assert result.returncode == 0, result.stderr
    start = START_WHITE_TO_MOVE.removesuffix("W\n")
    after_m35 = start.replace("--------\n---WB---", "----W---\n---WW---")
    assert result.stdout == (
        f"{start}\n(3,5) (4,6) (5,3) (6,4)\n{start}\nBlack -  1 White -  4\n{after_m35}"
    )


def test_commands_move_for_the_other_side_when_the_side_to_move_cannot() -> None:
    stdin = text(
        """
        1
        WWWWB---
        WWWB----
        WWB-----
        WB------
        --------
        --------
        --------
        --------
        B
        M25
        M35
        L
        Q
        """
    )
    result = run("othello-commands", stdin)
    assert result.returncode == 0, result.stderr
    assert result.stdout == text(
        """
        Black -  3 White - 12
        Black -  5 White - 11
        (1,6) (2,6) (3,4) (3,6) (4,3) (4,4) (4,6) (5,1) (5,2) (5,3)
        WWWWB---
        WWWWB---
        WWB-B---
        WB------
        --------
        --------
        --------
        --------
        """
    )


def test_commands_accept_a_board_larger_than_8() -> None:
    board = "----------\n" * 4 + "----WB----\n----BW----\n" + "----------\n" * 4
    result = run("othello-commands", f"1\n{board}B\nL\nM45\nQ\n")
    assert result.returncode == 0, result.stderr
    after = board.replace("----------\n----WB----", "----B-----\n----BB----")
    assert result.stdout == f"(4,5) (5,4) (6,7) (7,6)\nBlack -  4 White -  1\n{after}"


# othello-play

OPENING_BOARD = text(
    """
      a b c d e f g h
    1 . . . . . . . .
    2 . . . . . . . .
    3 . . . . . . . .
    4 . . . W B . . .
    5 . . . B W . . .
    6 . . . . . . . .
    7 . . . . . . . .
    8 . . . . . . . .
    """
)
AFTER_F5 = OPENING_BOARD.replace("5 . . . B W . .", "5 . . . B B B .")


def test_play_shows_the_board_and_prompts_with_the_legal_moves() -> None:
    result = run("othello-play", "f5\nquit\n")
    assert result.returncode == 0
    assert result.stderr == ""
    assert result.stdout == (
        OPENING_BOARD
        + "Black to move (legal: c4 d3 e6 f5) > "
        + AFTER_F5
        + "White to move (legal: d6 f4 f6) > "
    )


def test_play_takes_moves_as_row_and_column_and_lets_a_player_pass_at_will() -> None:
    result = run("othello-play", " 5 6 \npass\nPASS\nquit\n")
    assert result.returncode == 0
    assert result.stdout == (
        OPENING_BOARD
        + "Black to move (legal: c4 d3 e6 f5) > "
        + AFTER_F5
        + "White to move (legal: d6 f4 f6) > "
        + "Black to move (legal: c3 c4 d3) > "
        + "White to move (legal: d6 f4 f6) > "
    )


@pytest.mark.parametrize(
    ("command", "explanation"),
    [
        ("d4", "Illegal move: d4 is occupied."),
        ("a1", "Illegal move: a1 flips nothing."),
        ("1 1", "Illegal move: a1 flips nothing."),
        ("z9", "'z9' is not a point of the 8x8 board."),
        ("9 9", "No square '9 9': rows and columns go from 1 to 8 on this board."),
        (
            "hello",
            "Unknown command 'hello': type a move (f5, or row and column: 5 6), pass or quit.",
        ),
    ],
)
def test_play_explains_bad_input_in_one_line_and_asks_again(command: str, explanation: str) -> None:
    result = run("othello-play", f"{command}\nquit\n")
    assert result.returncode == 0
    prompt = "Black to move (legal: c4 d3 e6 f5) > "
    assert result.stdout == f"{OPENING_BOARD}{prompt}{explanation}\n{prompt}"


def test_play_goes_on_after_neither_side_can_move_and_ends_quietly_at_end_of_input() -> None:
    result = run("othello-play", "f5\npass\n4 3\npass\n")
    assert result.returncode == 0
    assert result.stderr == ""
    assert "4 . . B B B . . .\n5 . . . B B B . .\n" in result.stdout
    assert result.stdout.endswith("White to move (legal: none) > Black to move (legal: none) > \n")
