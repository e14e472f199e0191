"""The Waterloo Go scoring format (gamerules/go_formats.py), through the real command line."""

from __future__ import annotations

import io
import random
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerules.base import InputFormatError
from gamerules.go_formats import go_score

from .test_go import random_game
from .test_othello_formats import run as run_format

CONFORMANCE = Path(__file__).resolve().parents[3] / "shared" / "conformance" / "go-score"
SAMPLES = sorted(CONFORMANCE.glob("*.in"))


def run(text: str) -> subprocess.CompletedProcess[str]:
    """``python -m gamerules go-score`` with ``text`` on standard input."""
    return run_format("go-score", text)


def lines(*rows: str) -> str:
    return "".join(row + "\n" for row in rows)


def test_the_conformance_samples_are_there() -> None:
    assert SAMPLES, f"no samples in {CONFORMANCE}"


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda path: path.stem)
def test_conformance_samples_through_the_command_line(sample: Path) -> None:
    result = run(sample.read_text())
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == sample.with_suffix(".out").read_text()


@pytest.mark.parametrize(
    ("given_input", "expected"),
    [
        pytest.param(lines("3 0", "0 0"), "0 0\n", id="no stone: nobody owns anything"),
        pytest.param(lines("3 1", "B(0,0)", "0 0"), "8 0\n", id="one stone owns the whole board"),
        pytest.param(lines("3 1", "W(1,1)", "0 0"), "0 8\n", id="white first: black passed"),
        pytest.param(
            lines("5 5", "B(0,1)", "W(0,0)", "B(-1,0)", "B(1,0)", "B(0,-1)", "0 0"),
            "22 0\n",
            id="captured by a diamond, white passing twice: 21 points and 1 prisoner",
        ),
        pytest.param(
            lines(
                "5 11",
                "B(-1,1)",
                "W(0,1)",
                "B(-2,0)",
                "W(-1,0)",
                "B(-1,-1)",
                "W(0,-1)",
                "B(2,-2)",
                "W(1,0)",
                "B(0,0)",
                "W(-1,0)",
                "B(0,0)",
                "0 0",
            ),
            "3 1\n",
            id="the seed has no ko rule: a ko is retaken at once, back and forth",
        ),
        pytest.param(
            lines("19 2", "B(-9,-9)", "W(9,9)", "0 0"),
            "0 0\n",
            id="19x19, one region bordered by both",
        ),
        pytest.param(
            lines("3 1", "W(1,1)", "5 0", "3 1", "B(-1,-1)", "0 0"),
            "0 8\n0 0\n8 0\n",
            id="several cases",
        ),
        pytest.param("  7 1  \n\n B( 0 , 0 )\r\n\n0   0\n", "48 0\n", id="blank lines and spaces"),
        pytest.param(lines("3 1", "B(0,0)"), "8 0\n", id="the end of the input ends it too"),
        pytest.param(
            lines("3 1", "B(0,0)", "0 0", "3 1", "W(0,0)"), "8 0\n", id="nothing after 0 0"
        ),
    ],
)
def test_own_cases_through_the_command_line(given_input: str, expected: str) -> None:
    result = run(given_input)
    assert (result.returncode, result.stderr, result.stdout) == (0, "", expected)


@pytest.mark.parametrize(
    ("given_input", "line", "message"),
    [
        (lines("7 x"), 1, "expected a case 'n m'"),
        (lines("7"), 1, "expected a case 'n m'"),
        (lines("8 1", "B(0,0)"), 1, "odd, from 3 to 19, not 8"),
        (lines("21 0"), 1, "not 21"),
        (lines("1 0"), 1, "not 1"),
        (lines("7 -1"), 1, "cannot be negative"),
        (lines("7 2", "B(0,0)", "X(1,1)"), 3, "expected a stone like B(-1,2)"),
        (lines("7 1", "B 0 0"), 2, "expected a stone"),
        (lines("7 1", "B(4,0)"), 2, "B(4,0) is off the 7x7 board: x and y run from -3 to 3"),
        (lines("7 1", "W(0,-4)"), 2, "off the 7x7 board"),
        (lines("7 2", "B(0,0)", "0 0"), 3, "expected a stone"),
        (lines("7 2", "B(0,0)"), 3, "the input ends before stone 2 of 2"),
        (lines("3 1", "B(0,0)", "3 1"), 4, "the input ends before stone 1 of 1"),
        (lines("5 2", "B(0,0)", "W(0,0)"), 3, "illegal move W(0,0): C3 is occupied"),
        (
            lines("3 3", "B(0,1)", "B(-1,0)", "W(-1,1)"),
            4,
            "illegal move W(-1,1): A3 is suicide",
        ),
    ],
)
def test_malformed_input_is_one_line_on_stderr_naming_the_line(
    given_input: str, line: int, message: str
) -> None:
    result = run(given_input)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"error: line {line}: ")
    assert "Traceback" not in result.stderr
    with pytest.raises(InputFormatError, match=re.escape(message)) as raised:
        go_score(io.StringIO(given_input), io.StringIO())
    assert raised.value.line == line


def test_cases_before_a_broken_one_are_still_printed() -> None:
    result = run(lines("3 1", "B(0,0)", "3 1", "B(2,2)"))
    assert result.returncode == 2
    assert result.stdout == "8 0\n"
    assert result.stderr == "error: line 4: B(2,2) is off the 3x3 board: x and y run from -1 to 1\n"


def score_text(text: str) -> str:
    output = io.StringIO()
    go_score(io.StringIO(text), output)
    return output.getvalue()


ORIENTATIONS = [
    lambda x, y: (x, y),
    lambda x, y: (-x, y),
    lambda x, y: (x, -y),
    lambda x, y: (-x, -y),
    lambda x, y: (y, x),
    lambda x, y: (-y, x),
    lambda x, y: (y, -x),
    lambda x, y: (-y, -x),
]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([3, 5, 7, 9]), st.randoms(use_true_random=False))
def test_the_scores_do_not_depend_on_which_way_the_axes_point(
    size: int, rng: random.Random
) -> None:
    half = size // 2
    stones = [
        (diff.color.letter, diff.point[1] - half, half - diff.point[0])
        for _, diff in random_game(size, rng, 2 * size * size)
        if diff.point is not None
    ]
    outputs = {
        score_text(
            lines(
                f"{size} {len(stones)}",
                *(f"{letter}({orient(x, y)[0]},{orient(x, y)[1]})" for letter, x, y in stones),
                "0 0",
            )
        )
        for orient in ORIENTATIONS
    }
    assert len(outputs) == 1
