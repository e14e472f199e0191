"""manual.diagrams: every picture of the help pages is a position the rules accept, and
what the pages say of it is what the rules do (boards in, moves, boards and refusals out)."""

from __future__ import annotations

import re
from html import escape

import pytest

from gamerules import Color, GoPosition, OthelloPosition, RulesError
from manual import diagrams
from manual.diagrams import Diagram, after, refusal, replayed

ALL = [diagram for page in diagrams.PAGES.values() for diagram in page]


@pytest.mark.parametrize("diagram", ALL, ids=lambda diagram: diagram.name)
def test_each_picture_is_a_legal_position_drawn_as_an_inline_svg(diagram: Diagram) -> None:
    svg = diagram.svg()

    assert isinstance(diagram.position(), OthelloPosition | GoPosition)
    assert svg.startswith("<svg ") and svg.endswith("</svg>") and svg.count("<svg") == 1
    assert 'role="img"' in svg and f'aria-label="{escape(diagram.label)}"' in svg
    assert "style=" not in svg  # the CSP forbids inline styles: colours are attributes
    stones = sum(row.count("B") + row.count("W") for row in diagram.rows)
    assert svg.count('class="stone ') == stones
    assert ('class="last-move"' in svg) == (diagram.marked is not None)


def test_the_pictures_of_a_page_have_ids_of_their_own() -> None:
    for page, drawn in diagrams.PAGES.items():
        names = [diagram.name for diagram in drawn]
        assert len(set(names)) == len(names), page
        assert set(diagrams.pictures(page)) == set(names)
    assert diagrams.pictures("clocks") == {}


def points(diagram: Diagram, written: str) -> set[tuple[int, int]]:
    return {diagram.point(point) for point in written.split()}


def test_othello_a_move_flips_every_line_it_closes() -> None:
    before, played = diagrams.OTHELLO_FLIP, diagrams.OTHELLO_FLIPPED

    assert played.diff is not None
    assert set(played.diff.flipped) == points(before, "d5 d6 e6")
    assert played.rows == (
        "........",
        "........",
        "........",
        "...WB...",
        "...BWWW.",
        "..BBBB..",
        "......B.",
        "........",
    )
    assert played.marked == "c6" and played.to_move is Color.WHITE


def test_othello_a_side_without_a_move_must_pass() -> None:
    position = diagrams.OTHELLO_PASS.position()

    assert position.to_move is Color.BLACK and position.legal_moves() == []
    assert isinstance(position, OthelloPosition) and position.must_pass and not position.is_over
    assert refusal(position, "b3") == "b3 flips nothing: Black has no legal move and must pass"
    assert refusal(position, "pass") is None


def test_othello_start() -> None:
    assert diagrams.OTHELLO_START.rows[3:5] == ("...WB...", "...BW...")


def test_go_a_chain_without_liberties_is_captured() -> None:
    played = diagrams.GO_CAPTURED

    assert played.diff is not None
    assert set(played.diff.captured) == points(diagrams.GO_CAPTURE, "B3 C3")
    assert played.rows == (".....", ".BB..", "B..B.", ".BB..", ".....")


def test_go_ko_the_stone_may_not_be_taken_back_at_once() -> None:
    taken = diagrams.GO_KO_TAKEN

    assert taken.diff is not None
    assert set(taken.diff.captured) == points(taken, "B3")
    assert taken.rows == (".....", ".BW..", "B.BW.", ".BW..", ".....")
    now = replayed(diagrams.GO_KO, ("C3",))
    assert "superko" in (refusal(now, "B3") or "")
    # After a move elsewhere by each side, the board would be new: White may take.
    later = replayed(diagrams.GO_KO, ("C3", "E1", "A1"))
    assert refusal(later, "B3") is None


@pytest.mark.parametrize(
    ("moves", "lost"),
    [
        (("A7", "B6"), "A7 B7 C7 C6 C5"),  # Black fills a shared liberty: White captures
        (("B6", "A7"), "B7 C7 C6 C5 B6"),
        (("pass", "A7", "B6"), "A7 A6 A5 B5"),  # White fills one: Black captures
        (("pass", "B6", "A7"), "B6 A6 A5 B5"),
    ],
)
def test_go_seki_whoever_fills_a_shared_liberty_loses_the_group(
    moves: tuple[str, ...], lost: str
) -> None:
    seki = diagrams.GO_SEKI
    before = replayed(seki, moves[:-1])
    after_capture = replayed(seki, moves)

    assert isinstance(before, GoPosition) and isinstance(after_capture, GoPosition)
    taken = {
        point
        for point in points(seki, lost)
        if before.stone_at(point) and not after_capture.stone_at(point)
    }
    assert taken == points(seki, lost)


def test_go_seki_points_count_for_nobody() -> None:
    owned = diagrams.GO_SEKI.score().territory_points

    assert not (owned[Color.BLACK] | owned[Color.WHITE]) & points(diagrams.GO_SEKI, "A7 B6")


def test_go_count_territory_dead_stones_and_komi() -> None:
    count = diagrams.GO_COUNT.score()

    assert count.territory == {Color.BLACK: 21, Color.WHITE: 11}
    assert count.dead == {Color.BLACK: 1, Color.WHITE: 1}
    assert count.total == {Color.BLACK: 22, Color.WHITE: 18.5}
    assert count.result == "B+3.5"
    svg = diagrams.GO_COUNT.svg()
    assert svg.count('dead" opacity') == 2 and svg.count('class="territory ') == 32


@pytest.mark.parametrize(
    ("kind", "rows", "error"),
    [
        ("go", (".....", ".BB..", "BWWB.", ".BB..", "....."), "no liberty"),
        ("go", ("....", "....", "....", "...."), "size"),
        (
            "othello",
            ("B.....", "......", "..WB..", "..BW..", "......", "......"),
            "apart from the others",
        ),
        ("othello", ("....", ".W..", ".BW.", "...."), "never empties"),
        ("chess", ("....",) * 4, "unknown game kind"),
    ],
)
def test_a_position_the_rules_refuse_is_no_diagram(
    kind: str, rows: tuple[str, ...], error: str
) -> None:
    with pytest.raises(RulesError, match=re.escape(error)):
        Diagram("x", kind, rows, Color.BLACK, "x")


def test_after_an_illegal_move_is_refused() -> None:
    with pytest.raises(RulesError, match="flips nothing"):
        after(diagrams.OTHELLO_FLIP, "a1", name="x", label="x")
