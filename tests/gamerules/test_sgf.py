"""Game records (gamerules/sgf/): what an SGF file says, what comes back, what is refused."""

from __future__ import annotations

import doctest
import re
from dataclasses import replace
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sgfmill import sgf  # type: ignore[import-untyped]

from gamerules import (
    Color,
    InvalidMoveError,
    Move,
    OthelloPosition,
    Point,
    Position,
    RulesError,
    new_position,
)
from gamerules import sgf as sgf_module
from gamerules.clock import TimeControl
from gamerules.sgf import (
    IMPORT_SIZES,
    GameKind,
    GameRecord,
    MoveClock,
    RecordError,
    Setup,
    export_collection,
    export_sgf,
    import_collection,
    import_sgf,
    othello_transcript,
    parse_othello_transcript,
    parse_sgf_point,
    properties,
    reading,
    record,
    replay,
    replaying,
    sgf_point,
    start_position,
    transcripts,
    writing,
)

B, W = Color.BLACK, Color.WHITE
AWKWARD_NAME = "Jérôme ]\\ 黒石 [x]\\"
AWKWARD_COMMENT = "first line ] \\\nsecond line: ünïcode, 囲碁, \\] and \\\\"


def place(color: Color, point: Point) -> tuple[Color, Move]:
    return color, Move.place(point)


def pass_(color: Color) -> tuple[Color, Move]:
    return color, Move.pass_turn()


def unwrapped(text: str) -> str:
    """An exported file without the line breaks put in to keep lines short."""
    return text.replace("\n", "")


# A 5x5 Go game scored by hand: Black walls off the left side, White the right;
# White's late invasion at (2, 0) is agreed dead.
#
#   .B.W.
#   .B.W.
#   xB.W.    x: White's dead stone
#   .B.W.
#   .B.W.
SCORED_GO = GameRecord(
    kind="go",
    size=5,
    moves=(
        *(move for row in range(5) for move in (place(B, (row, 1)), place(W, (row, 3)))),
        pass_(B),
        place(W, (2, 0)),
        pass_(B),
        pass_(W),
    ),
    black_name="Honinbo Shusaku",
    white_name=AWKWARD_NAME,
    komi=0.5,
    result="B+0.5",
    date="1846-09-11",
    dead=frozenset({(2, 0)}),
    territory={
        B: frozenset((row, 0) for row in range(5)),
        W: frozenset((row, 4) for row in range(5)),
    },
    game_name="The ear-reddening game, shrunk",
    comment=AWKWARD_COMMENT,
)

TIGER = "f5d6c3d3c4"
# An 8x8 game where Black must pass after its 14th move (a5): the transcript
# does not show the pass.
WITH_A_PASS = "c4c3c2b2a2e3f5a1e2b4a4a3d2a5f4d3e1g4h4"
# White takes every disc in 16 moves.
WIPEOUT = "d3c3f5f4e3d2e2f2c4c5f3f6e6e7b5a5"

# A 9x9 game with two handicap stones, G7 and C3: White moves first, Black takes
# White's A9 with its 4th move, and two passes end it.
HANDICAP_SGF = (
    "(;GM[1]FF[4]SZ[9]HA[2]KM[0.5]PB[Kitani]PW[Go Seigen]AB[gc][cg]"
    ";W[aa];B[ba];W[ee];B[ab];W[dc];B[];W[])"
)
HANDICAP_START = (
    ".........",
    ".........",
    "......B..",
    ".........",
    ".........",
    ".........",
    "..B......",
    ".........",
    ".........",
)
# GNU Go 3.8's `printsgf` after `loadsgf`: the position as AB/AW, PL, and no moves.
GNUGO_PRINTSGF = """(;GM[1]FF[4]
SZ[9]
GN[GNU Go 3.8 load and print]
DT[2026-11-22]
KM[4.5]HA[0]RU[Japanese]AP[GNU Go:3.8]AW[bb][eb][fb][gb][ac][dc]
[gc][hc][ic][bd][cd][dd][id][de][ee][fe][ie][df][ff][gf][if][ig]
[ih]
AB[ec][fc][ad][ed][fd][gd][hd][ae][be][ce][ge][he][cf][ef][hf]
[bg][dg][eg][fg][gg][hg][ch][hh][hi][ii]
PL[B]
)
"""


@pytest.mark.parametrize(
    "module",
    [sgf_module, record, properties, writing, reading, replaying, transcripts],
    ids=lambda module: module.__name__,
)
def test_the_examples_in_the_docstrings_hold(module: ModuleType) -> None:
    assert doctest.testmod(module).failed == 0


# Points


@pytest.mark.parametrize(
    ("size", "point", "letters"),
    [
        (19, (18, 0), "as"),
        (19, (0, 0), "aa"),
        (19, (0, 18), "sa"),
        (19, (18, 18), "ss"),
        (19, (15, 3), "dp"),
        (19, (9, 8), "ij"),
        (19, (9, 7), "hj"),
        (9, (4, 4), "ee"),
        (9, (0, 8), "ia"),
        (3, (2, 0), "ac"),
        (8, (4, 5), "fe"),
        (26, (25, 0), "az"),
    ],
)
def test_points_are_written_column_then_row_from_the_top_left(
    size: int, point: Point, letters: str
) -> None:
    assert sgf_point(point, size) == letters
    assert parse_sgf_point(letters, size) == point


@pytest.mark.parametrize("text", ["", "tt", "jj", "a", "aaa", "AA", "a1"])
def test_sgf_letters_off_the_9x9_board_or_a_pass_are_not_points(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse_sgf_point(text, 9)


@pytest.mark.parametrize(
    ("size", "point"), [(9, (9, 0)), (9, (0, -1)), (19, (19, 19)), (27, (0, 0))]
)
def test_a_point_off_the_board_has_no_sgf_letters(size: int, point: Point) -> None:
    with pytest.raises(InvalidMoveError, match="is not a point of the"):
        sgf_point(point, size)


@pytest.mark.parametrize(
    ("written", "day"),
    [
        ("2024-05-01", "2024-05-01"),
        ("1996-05-06,07", "1996-05-06"),
        ("1996-05-06,1996-06-01", "1996-05-06"),
        (" 2024-05-01 ", "2024-05-01"),
        ("1996-05", None),
        ("1996", None),
        ("2024-02-30", None),
        ("2024-5-1", None),
        ("yesterday", None),
        ("", None),
        (None, None),
    ],
)
def test_the_day_played_is_the_first_whole_day_of_dt(written: str | None, day: str | None) -> None:
    played_on = GameRecord(kind="go", size=9, date=written).played_on

    assert (played_on.isoformat() if played_on else None) == day


# Writing


def test_othello_export_writes_the_header_and_each_move_in_point_letters() -> None:
    record = GameRecord(
        kind="othello",
        size=8,
        moves=(place(B, (4, 5)), place(W, (5, 3)), place(B, (2, 2))),
        black_name="Ann",
        white_name="Bo",
        date="2024-05-01",
    )

    assert export_sgf(record) == (
        "(;FF[4]AP[othello-go-server:0.1]CA[UTF-8]DT[2024-05-01]GM[2]PB[Ann]PW[Bo]SZ[8];\n"
        "B[fe];W[df];B[cc])\n"
    )


def test_go_export_writes_komi_result_passes_territory_and_dead_stones() -> None:
    text = export_sgf(SCORED_GO)

    assert text.startswith("(;FF[4]AP[othello-go-server:0.1]CA[UTF-8]DT[1846-09-11]")
    assert "GM[1]" in text and "KM[0.5]" in text and "RE[B+0.5]" in text and "SZ[5]" in text
    assert "PW[Jérôme \\]\\\\ 黒石 [x\\]\\\\]" in text
    assert unwrapped(text).endswith(
        ";B[ba];W[da];B[bb];W[db];B[bc];W[dc];B[bd];W[dd];B[be];W[de];B[];W[ac];B[];"
        "MA[ac]TB[aa][ab][ac][ad][ae]TW[ea][eb][ec][ed][ee]W[])"
    )


def test_othello_export_has_no_komi_and_writes_automatic_passes_as_empty_values() -> None:
    record = import_sgf("(;GM[2]SZ[4]KM[6.5];B[ba];W[ca];B[dc];W[aa])")

    assert record.komi is None
    assert unwrapped(export_sgf(record)).endswith(";B[ba];W[ca];B[dc];W[aa];B[])")


def test_a_board_wider_than_the_sgf_letters_cannot_be_exported() -> None:
    with pytest.raises(RecordError, match=re.escape("an SGF board has 1 to 26 lines, not 28")):
        export_sgf(GameRecord(kind="othello", size=28))


# Round trips


def test_an_othello_game_comes_back_with_its_moves_names_and_comment() -> None:
    record = GameRecord(
        kind="othello",
        size=8,
        moves=parse_othello_transcript(WITH_A_PASS).moves,
        black_name=AWKWARD_NAME,
        white_name="Émile",
        result="W+R",
        date="2024-05-01",
        game_name="]\\[",
        comment=AWKWARD_COMMENT,
    )

    assert import_sgf(export_sgf(record)) == record
    assert import_sgf(export_sgf(record).encode("utf-8")) == record


def test_a_scored_go_game_comes_back_with_its_dead_stones_and_territory() -> None:
    assert import_sgf(export_sgf(SCORED_GO)) == SCORED_GO
    assert import_sgf(export_sgf(SCORED_GO).encode("utf-8")) == SCORED_GO


def test_sgfmills_own_go_reader_reads_our_export() -> None:
    game = sgf.Sgf_game.from_bytes(export_sgf(SCORED_GO).encode("utf-8"))

    assert game.get_size() == 5
    assert game.get_komi() == 0.5
    assert game.get_player_name("w") == AWKWARD_NAME
    assert game.get_winner() == "b"
    assert _sgfmill_moves(game) == _as_sgfmill_moves(SCORED_GO)
    last = game.get_last_node()
    assert last.get("MA") == {(2, 0)}
    assert last.get("TW") == {(row, 4) for row in range(5)}


def test_a_collection_comes_back_game_by_game() -> None:
    records = [
        SCORED_GO,
        parse_othello_transcript(WIPEOUT),
        GameRecord(kind="go", size=19, komi=6.5),
    ]

    text = export_collection(records)

    assert text.count("(;FF[4]") == 3
    assert import_collection(text) == records


def test_a_collection_is_not_one_game() -> None:
    text = export_collection([SCORED_GO, SCORED_GO])

    with pytest.raises(RecordError, match="the file holds 2 games: import them one at a time"):
        import_sgf(text)


def test_an_error_in_a_collection_names_the_game() -> None:
    text = export_sgf(SCORED_GO) + "(;GM[1]SZ[9];B[cc];W[cc])"

    with pytest.raises(RecordError, match=r"^game 2: move 2 W\[cc\]"):
        import_collection(text)


# Reading what other programs write


# Comments


def test_comments_are_written_on_the_node_of_the_move_they_followed() -> None:
    record = GameRecord(
        kind="othello",
        size=8,
        moves=(place(B, (4, 5)), place(W, (5, 3)), place(B, (2, 2))),
        comments={0: "Ann: good luck", 2: "Bo: oops\nBo: misclick ]"},
    )

    text = unwrapped(export_sgf(record))

    assert "C[Ann: good luck]" in text.split(";")[1]  # the root
    main = sgf.Sgf_game.from_string(export_sgf(record)).get_main_sequence()
    assert [node.get("C") if node.has_property("C") else None for node in main] == [
        "Ann: good luck",
        None,
        "Bo: oops\nBo: misclick ]",
        None,
    ]


def test_comments_come_back_by_the_number_of_moves_they_followed() -> None:
    record = GameRecord(
        kind="go",
        size=9,
        komi=0.0,
        moves=(place(B, (2, 2)), place(W, (6, 6)), pass_(B)),
        comments={0: "before", 1: AWKWARD_COMMENT, 3: "at the end"},
    )

    assert import_sgf(export_sgf(record)) == record


def test_a_comment_after_a_missing_othello_pass_follows_the_move_it_was_written_on() -> None:
    # Black has no move after W[aa]: the pass put in is played move 5, W[ac] move 6.
    record = import_sgf("(;GM[2]SZ[4];B[ba];W[ca];B[dc];W[aa]C[then];W[ac]C[last];C[end])")

    assert record.comments == {4: "then", 6: "last\nend"}


def test_a_missing_automatic_pass_in_othello_is_put_in() -> None:
    # After b1 c1 d3 a1 on 4x4 Black has no move: White plays again at a3.
    record = import_sgf("(;GM[2]SZ[4];B[ba];W[ca];B[dc];W[aa];W[ac])")

    assert record.moves[4:] == (pass_(B), place(W, (2, 0)))


def test_an_explicit_automatic_pass_in_othello_is_read_as_it_is() -> None:
    record = import_sgf("(;GM[2]SZ[4];B[ba];W[ca];B[dc];W[aa];B[];W[ac])")

    assert record.moves[4:] == (pass_(B), place(W, (2, 0)))


def test_an_othello_record_ends_with_the_automatic_pass_after_its_last_placement() -> None:
    record = import_sgf("(;GM[2]SZ[4];B[ba];W[ca];B[dc];W[aa])")

    assert record.moves[-1] == pass_(B)


def test_a_finished_othello_game_without_a_result_is_scored_by_disc_count() -> None:
    record = import_sgf("(;GM[2]SZ[4];B[ba];W[ca];B[da];W[aa];B[ac];B[dd])")

    assert record.moves[5] == pass_(W)
    assert record.result == "B+8"


@pytest.mark.parametrize(
    "text",
    [
        "(;GM[2]SZ[8]AB[ed][de]AW[dd][ee];B[fe])",
        "(;GM[2]SZ[8]AB[ed][de]AW[dd][ee]PL[B];B[fe])",
        "(;GM[1]SZ[9]HA[0]PL[B];B[fe])",
        "(;GM[1]SZ[9]AE[ee];B[fe])",
    ],
)
def test_a_setup_of_the_games_own_start_is_no_setup(text: str) -> None:
    record = import_sgf(text)

    assert record.setup is None
    assert record.moves == (place(B, (4, 5)),)


# Setup positions


def test_a_handicap_game_starts_from_its_stones_with_white_to_move() -> None:
    record = import_sgf(HANDICAP_SGF)

    assert record.setup == Setup(HANDICAP_START, W, handicap=2)
    assert record.moves[:2] == (place(W, (0, 0)), place(B, (0, 1)))
    assert start_position(record).rows() == list(HANDICAP_START)
    steps = replay(record)
    assert steps[3][1].captured == ((0, 0),)
    assert steps[-1][0].rows()[:3] == [".B.......", "B........", "...W..B.."]


def test_a_handicap_game_comes_back_from_its_export_with_its_setup_and_moves() -> None:
    record = import_sgf(HANDICAP_SGF)

    text = export_sgf(record)

    assert "AB[gc][cg]" in text and "HA[2]" in text and "PL[W]" in text
    assert import_sgf(text) == record
    assert import_sgf(text.encode("utf-8")) == record


def test_sgfmill_reads_the_setup_of_our_export() -> None:
    record = import_sgf(HANDICAP_SGF)

    game = sgf.Sgf_game.from_bytes(export_sgf(record).encode("utf-8"))

    root = game.get_root()
    assert root.get_setup_stones() == ({(6, 6), (2, 2)}, set(), set())
    assert as_rows(9, *root.get_setup_stones()[:2]) == HANDICAP_START
    assert game.get_handicap() == 2
    assert root.get("PL") == "w"
    assert _sgfmill_moves(game) == _as_sgfmill_moves(record)


def as_rows(size: int, black: set[Point], white: set[Point]) -> tuple[str, ...]:
    """sgfmill's points (row 0 at the bottom) of each colour as our board rows."""
    return tuple(
        "".join(
            "B"
            if (size - 1 - row, col) in black
            else "W"
            if (size - 1 - row, col) in white
            else "."
            for col in range(size)
        )
        for row in range(size)
    )


@pytest.mark.parametrize(
    ("root", "to_move"),
    [
        ("HA[2]AB[gc][cg]", W),
        ("HA[2]AB[gc][cg]PL[B]", B),
        ("AB[gc][cg]", B),
        ("HA[1]AB[ee]", B),
        ("HA[2]AB[gc]AW[cg]", B),
        ("AB[ee]PL[w]", W),
        ("PL[W]", W),
    ],
)
def test_the_first_player_is_pl_else_white_after_handicap_stones_else_black(
    root: str, to_move: Color
) -> None:
    setup = import_sgf(f"(;GM[1]SZ[9]{root})").setup

    assert setup is not None
    assert setup.to_move is to_move


def test_gnu_gos_printsgf_position_imports_as_a_position_without_moves() -> None:
    record = import_sgf(GNUGO_PRINTSGF)

    black, white, empty = sgf.Sgf_game.from_string(GNUGO_PRINTSGF).get_root().get_setup_stones()
    assert empty == set()
    assert record.setup == Setup(as_rows(9, black, white), B, handicap=0)
    assert record.setup.rows[3] == "BWWWBBBBW"
    assert (record.moves, record.komi, record.result) == ((), 4.5, None)
    assert import_sgf(export_sgf(record)) == record


def test_an_othello_game_from_a_position_plays_on_to_the_same_end() -> None:
    whole = import_sgf("(;GM[2]SZ[4];B[ba];W[ca];B[da];W[aa];B[ac];B[dd])")
    middle = replay(whole)[1][0]
    black = "".join(f"[{sgf_point(point, 4)}]" for point in points_holding(middle, "B"))
    white = "".join(f"[{sgf_point(point, 4)}]" for point in points_holding(middle, "W"))

    tail = import_sgf(f"(;GM[2]SZ[4]AB{black}AW{white};B[da];W[aa];B[ac];B[dd])")

    assert tail.setup == Setup(tuple(middle.rows()), B)
    assert tail.moves == whole.moves[2:]
    assert tail.result == whole.result == "B+8"


def test_an_othello_position_that_is_over_gets_its_result() -> None:
    record = import_sgf("(;GM[2]SZ[4]AB[aa:dc]AW[ad:cd])")

    assert record.setup == Setup(("BBBB", "BBBB", "BBBB", "WWW."), B)
    assert (record.moves, record.result) == ((), "B+9")


def test_a_game_from_a_setup_has_no_transcript() -> None:
    record = import_sgf("(;GM[2]SZ[8]AB[ed][de]AW[dd][ee]PL[W])")

    assert record.setup is not None
    with pytest.raises(RecordError, match="a transcript starts from the standard position"):
        othello_transcript(record)


def test_go_reads_tt_as_a_pass_and_defaults_komi_to_zero() -> None:
    record = import_sgf("(;GM[1]SZ[9];B[tt];W[cc])")

    assert record.moves == (pass_(B), place(W, (2, 2)))
    assert record.komi == 0.0


def test_missing_game_and_size_mean_go_on_19x19() -> None:
    record = import_sgf("(;B[pd])")

    assert (record.kind, record.size, record.moves) == ("go", 19, (place(B, (3, 15)),))


def test_only_the_main_line_of_a_game_with_variations_is_read() -> None:
    record = import_sgf("(;GM[1]SZ[9];B[cc](;W[dd];B[ee])(;W[gg]))")

    assert record.moves == (place(B, (2, 2)), place(W, (3, 3)), place(B, (4, 4)))


def test_compressed_point_lists_are_expanded() -> None:
    record = import_sgf("(;GM[1]SZ[5];B[cc];W[];B[];TB[aa:bb]TW[ee])")

    assert record.territory == {B: {(0, 0), (0, 1), (1, 0), (1, 1)}, W: {(4, 4)}}


def test_an_empty_point_list_is_no_points() -> None:
    record = import_sgf("(;GM[1]SZ[5];B[cc];W[];B[];TB[]TW[ee]MA[])")

    assert record.territory == {W: {(4, 4)}}
    assert record.dead == frozenset()


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("B+3.5", "B+3.5"),
        ("W+R", "W+R"),
        ("B+Resign", "B+R"),
        ("w+r", "W+R"),
        ("W+T", "W+T"),
        ("0", "Draw"),
        ("Draw", "Draw"),
        ("Jigo", "Draw"),
        ("?", None),
        ("Void", None),
    ],
)
def test_results_are_read_as_the_server_spells_them(written: str, read: str | None) -> None:
    assert import_sgf(f"(;GM[1]SZ[9]RE[{written}])").result == read


@pytest.mark.parametrize(
    ("data", "name"),
    [
        ("(;CA[ISO-8859-1]PB[Jérôme])".encode("iso-8859-1"), "Jérôme"),
        ("(;PB[Jérôme])".encode("iso-8859-1"), "Jérôme"),
        ("(;PB[Jérôme 黒])".encode(), "Jérôme 黒"),
        ("(;CA[UTF-8]PB[Jérôme 黒])".encode(), "Jérôme 黒"),
        ("(;CA[Shift_JIS]PB[本因坊])".encode("shift_jis"), "本因坊"),
    ],
)
def test_text_is_decoded_by_the_files_character_set(data: bytes, name: str) -> None:
    assert import_sgf(data).black_name == name


def test_a_decoded_string_is_read_whatever_its_character_set_says() -> None:
    assert import_sgf("(;CA[ISO-8859-1]PB[黒])").black_name == "黒"


# What is refused, and what the message says


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Hello, I am not a game record.", "not an SGF file: no SGF data found"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not an SGF file: no SGF data found"),
        ("(;GM[1]SZ[9];B[cc]", "not an SGF file: unexpected end of SGF data"),
        ("(;GM[1])(;GM[1]B[cc]", "not an SGF file: game 2: unexpected end of SGF data"),
        (
            "(;GM[3]SZ[8])",
            "unsupported game GM[3]: only Go (GM[1]) and Othello (GM[2]) can be imported",
        ),
        ("(;GM[1]SZ[21])", "board size 21 is not supported for Go: odd sizes 3 to 19 only"),
        ("(;GM[1]SZ[8])", "board size 8 is not supported for Go: odd sizes 3 to 19 only"),
        ("(;GM[1]SZ[1])", "board size 1 is not supported for Go: odd sizes 3 to 19 only"),
        ("(;GM[2]SZ[18])", "board size 18 is not supported for Othello: even sizes 4 to 16 only"),
        ("(;GM[2]SZ[7])", "board size 7 is not supported for Othello: even sizes 4 to 16 only"),
        ("(;GM[1]SZ[9:13])", "SZ[9:13] is not a board size: expected one number, e.g. SZ[19]"),
        ("(;GM[1]SZ[9]KM[six])", "KM[six] is not a komi: expected a number, e.g. KM[6.5]"),
        (b"(;CA[klingon]PB[x])", "unknown character set CA[klingon]"),
        ("(;CA[UTF-8]PB[Jérôme])".encode("iso-8859-1"), "PB is not valid UTF-8 text"),
        (
            "(;GM[1]SZ[9];B[cc];AE[cc];W[ee])",
            "setup properties (AB/AW/AE) in node 2 are not supported: "
            "only the root node may lay out the start position",
        ),
        (
            "(;GM[1]SZ[5]AB[ab][ba]AW[aa])",
            "the setup is not a legal Go position: the chain at A5 has no liberty",
        ),
        (
            "(;GM[1]SZ[5]AB[aa:ee])",
            "the setup is not a legal Go position: the chain at A5 has no liberty",
        ),
        ("(;GM[1]SZ[9]AB[cc][jj])", "AB[jj] is not a point of the 9x9 board"),
        ("(;GM[2]SZ[8]AW[dd][ee][ii])", "AW[ii] is not a point of the 8x8 board"),
        ("(;GM[1]SZ[9]AB[cc]AW[dd][cc])", "the setup names cc in both AB and AW"),
        ("(;GM[1]SZ[9]AB[cc]AE[cc])", "the setup names cc in both AB and AE"),
        (
            "(;GM[2]SZ[8]AB[ed][de])",
            "the setup is not a legal Othello position: "
            "d4 is empty: a game never empties the four centre squares",
        ),
        (
            "(;GM[2]SZ[8]AB[ed][de][aa]AW[dd][ee])",
            "the setup is not a legal Othello position: the disc on a1 is apart from the "
            "others: every disc is placed next to one already on the board",
        ),
        (
            "(;GM[1]SZ[9]HA[two]AB[gc][cg])",
            "HA[two] is not a handicap: expected a number of stones, e.g. HA[2]",
        ),
        ("(;GM[1]SZ[9]AB[cc]PL[X])", "PL[X] is not a player: expected PL[B] or PL[W]"),
        ("(;GM[1]SZ[9]HA[2]AB[gc][cg];B[ee])", "move 1 B[ee] (black E5): it is white's turn"),
        ("(;GM[1]SZ[9]AB[cc]PL[W];W[cc])", "move 1 W[cc] (white C7): C7 is occupied"),
        ("(;GM[1]SZ[9];B[cc];W[jj])", "move 2: W[jj] is not a point of the 9x9 board"),
        ("(;GM[2]SZ[8];B[fe];W[fifth])", "move 2: W[fifth] is not a point of the 8x8 board"),
        ("(;GM[1]SZ[9];B[cc]W[dd])", "move 1: one node holds both B and W"),
        ("(;GM[1]SZ[9];B[cc][dd])", "move 1: B has 2 values"),
        ("(;GM[1]SZ[9];B[cc];B[dd])", "move 2 B[dd] (black D6): it is white's turn"),
        ("(;GM[2]SZ[8];W[fe])", "move 1 W[fe] (white f5): it is black's turn"),
        ("(;GM[2]SZ[8];B[fe];W[dd])", "move 2 W[dd] (white d4): d4 is occupied"),
        ("(;GM[2]SZ[8];B[aa])", "move 1 B[aa] (black a1): a1 flips nothing"),
        ("(;GM[2]SZ[8];B[])", "move 1 B[] (black pass): Black has a legal move and may not pass"),
        (
            "(;GM[2]SZ[4];B[ba];W[ca];B[dc];W[aa];B[ad])",
            "move 5 B[ad] (black a4): a4 flips nothing: Black has no legal move and must pass",
        ),
        (
            "(;GM[2]SZ[4];B[ba];W[ca];B[da];W[aa];B[ac];B[dd];W[cc])",
            "move 7 W[cc] (white c3): the game is over",
        ),
        (
            "(;GM[1]SZ[5];B[aa];W[cc];B[];W[];MA[bb])",
            "MA marks a dead stone at B4, but that point is empty",
        ),
    ],
)
def test_a_record_that_cannot_be_imported_says_why(text: str | bytes, message: str) -> None:
    with pytest.raises(RecordError, match=f"^{re.escape(message)}$"):
        import_sgf(text)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("(;GM[1]SZ[9];B[cc];W[cc])", "occupied"),
        ("(;GM[1]SZ[9];B[ba];W[];B[ab];W[aa])", "suicide"),
        ("(;GM[1]SZ[9];B[];W[];B[cc])", "over"),
    ],
)
def test_an_illegal_go_move_names_the_move_and_the_rules_reason(text: str, reason: str) -> None:
    with pytest.raises(
        RecordError, match=r"^move \d+ [BW]\[\w*\] \((black|white) \S+\): .*"
    ) as error:
        import_sgf(text)

    assert reason in str(error.value)


def test_record_errors_are_rules_errors() -> None:
    assert issubclass(RecordError, RulesError)


# Replaying a record


@pytest.mark.parametrize(
    "record", [SCORED_GO, parse_othello_transcript(WITH_A_PASS), import_sgf(HANDICAP_SGF)]
)
def test_replay_gives_each_position_and_the_diff_that_led_to_it(record: GameRecord) -> None:
    rows = (
        list(record.setup.rows) if record.setup else new_position(record.kind, record.size).rows()
    )

    steps = replay(record)

    assert len(steps) == len(record.moves)
    for (position, diff), (color, move) in zip(steps, record.moves, strict=True):
        assert (diff.color, diff.point) == (color, move.point)
        before, rows = rows, diff.apply(rows)
        assert rows == position.rows()
        assert diff.undo(rows) == before


def test_replay_refuses_a_board_the_game_does_not_have() -> None:
    with pytest.raises(RecordError, match="Othello board has an even size"):
        replay(GameRecord(kind="othello", size=7))


def test_replay_does_not_put_in_missing_passes() -> None:
    record = GameRecord(
        kind="othello",
        size=4,
        moves=(
            place(B, (0, 1)),
            place(W, (0, 2)),
            place(B, (2, 3)),
            place(W, (0, 0)),
            place(W, (2, 0)),
        ),
    )

    with pytest.raises(RecordError, match=re.escape("move 5 (white a3): it is black's turn")):
        replay(record)


# Othello transcripts


def test_the_tiger_opening_as_a_transcript_and_as_sgf() -> None:
    record = parse_othello_transcript(TIGER)

    assert record.moves == (
        place(B, (4, 5)),
        place(W, (5, 3)),
        place(B, (2, 2)),
        place(W, (2, 3)),
        place(B, (3, 2)),
    )
    assert othello_transcript(record) == TIGER
    assert unwrapped(export_sgf(record)).endswith(";B[fe];W[df];B[cc];W[dc];B[cd])")


def test_a_transcript_leaves_out_passes_and_reading_puts_them_back() -> None:
    record = parse_othello_transcript(WITH_A_PASS)

    assert record.moves[13:16] == (place(W, (4, 0)), pass_(B), place(W, (3, 5)))
    assert othello_transcript(record) == WITH_A_PASS


def test_a_finished_transcript_gets_its_result() -> None:
    assert parse_othello_transcript(WIPEOUT).result == "W+20"
    assert parse_othello_transcript(TIGER).result is None


def test_a_transcript_ignores_case_and_spaces() -> None:
    assert parse_othello_transcript("F5 d6\nC3").moves == parse_othello_transcript("f5d6c3").moves


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("f5z9", "move 2: 'z9' is not a square of the 8x8 board"),
        ("f5d", "move 2: 'd' is not a square of the 8x8 board"),
        ("f5f5", "move 2 (white f5): f5 is occupied"),
        ("f5a1", "move 2 (white a1): a1 flips nothing"),
    ],
)
def test_a_transcript_that_cannot_be_read_says_why(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=f"^{re.escape(message)}$"):
        parse_othello_transcript(text)


@pytest.mark.parametrize("record", [SCORED_GO, GameRecord(kind="othello", size=6)])
def test_only_8x8_othello_has_a_transcript(record: GameRecord) -> None:
    with pytest.raises(RecordError, match="a transcript is for 8x8 Othello only"):
        othello_transcript(record)


# Random games


# SGF maps tabs and other control characters to spaces, and line breaks in a
# name to spaces; a comment keeps its line breaks.
name_characters = st.characters(exclude_categories=("Cc", "Cs"))
comment_characters = st.characters(exclude_categories=("Cc", "Cs"), include_characters="\n")


@st.composite
def played_games(draw: st.DrawFn, kind: GameKind) -> GameRecord:
    """A game of random legal moves, as the server would store it, from the game's start
    or from a setup position (one that random moves reach, its history forgotten)."""
    size = draw(st.sampled_from(IMPORT_SIZES[kind]))
    standard = new_position(kind, size)
    setup = None
    if draw(st.booleans()):
        position = play_randomly(draw, standard, draw(st.integers(1, 30)))[0]
        # Passes alone lead back to the start's board: a setup that says nothing (no
        # stones, Black to move) is no setup, in a record as in a file.
        if (position.rows(), position.to_move) != (standard.rows(), standard.to_move):
            handicap = draw(st.none() | st.integers(0, 9)) if kind == "go" else None
            setup = Setup(tuple(position.rows()), position.to_move, handicap)
    start = start_position(GameRecord(kind=kind, size=size, setup=setup))
    position, moves = play_randomly(draw, start, draw(st.integers(0, 80)))
    names = st.none() | st.text(name_characters, max_size=12)
    record = GameRecord(
        kind=kind,
        size=size,
        setup=setup,
        moves=tuple(moves),
        black_name=draw(names),
        white_name=draw(names),
        date=draw(st.none() | st.dates().map(str)),
        comment=draw(st.none() | st.text(comment_characters)),
    )
    if isinstance(position, OthelloPosition):
        return replace(record, result=position.result())
    owned = {color: draw(subsets(points_holding(position, "."))) for color in Color}
    return replace(
        record,
        komi=draw(st.sampled_from([0.0, 0.5, 6.5, 7.5, -2.0])),
        result=draw(st.sampled_from(["B+R", "W+3.5", "Draw", None])),
        dead=draw(subsets(points_holding(position, "BW"))),
        territory={color: points for color, points in owned.items() if points},
    )


def play_randomly(
    draw: st.DrawFn, position: Position, count: int
) -> tuple[Position, list[tuple[Color, Move]]]:
    """Up to ``count`` random legal moves from ``position`` (Go may pass at any time), and
    Othello's automatic pass after the last one: the position reached and the moves."""
    moves = []
    for _ in range(count):
        if position.is_over:
            break
        options = [Move.place(point) for point in position.legal_moves()]
        if position.kind == "go" or not options:
            options.append(Move.pass_turn())
        move = draw(st.sampled_from(options))
        moves.append((position.to_move, move))
        position, _ = position.play(move)
    if isinstance(position, OthelloPosition) and position.must_pass:
        moves.append(pass_(position.to_move))
        position, _ = position.play(Move.pass_turn())
    return position, moves


def points_holding(position: Position, letters: str) -> list[Point]:
    """The points whose square is one of ``letters`` (``.``, ``B``, ``W``)."""
    return [
        (row, col)
        for row, line in enumerate(position.rows())
        for col, square in enumerate(line)
        if square in letters
    ]


def subsets(points: list[Point]) -> st.SearchStrategy[frozenset[Point]]:
    return st.frozensets(st.sampled_from(points)) if points else st.just(frozenset())


@given(played_games("othello") | played_games("go"))
def test_random_games_of_both_kinds_come_back_from_sgf(record: GameRecord) -> None:
    assert import_sgf(export_sgf(record)) == record
    assert import_sgf(export_sgf(record).encode("utf-8")) == record


@given(played_games("othello"))
def test_othello_files_that_leave_out_every_pass_read_the_same(record: GameRecord) -> None:
    placements = tuple((color, move) for color, move in record.moves if move.point is not None)

    assert import_sgf(export_sgf(replace(record, moves=placements))) == record


@given(played_games("go"))
def test_sgfmill_reads_the_setup_and_moves_of_random_go_games(record: GameRecord) -> None:
    game = sgf.Sgf_game.from_bytes(export_sgf(record).encode("utf-8"))

    black, white, _ = game.get_root().get_setup_stones()
    start = record.setup.rows if record.setup else new_position("go", record.size).rows()
    assert as_rows(record.size, black, white) == tuple(start)
    assert _sgfmill_moves(game) == _as_sgfmill_moves(record)


def _sgfmill_moves(game: sgf.Sgf_game) -> list[tuple[str, tuple[int, int] | None]]:
    return [node.get_move() for node in game.get_main_sequence()[1:]]


def _as_sgfmill_moves(record: GameRecord) -> list[tuple[str, tuple[int, int] | None]]:
    """Our moves as sgfmill sees them: ``b``/``w``, and row 0 at the bottom."""
    return [
        (
            color.letter.lower(),
            None if move.point is None else (record.size - 1 - move.point[0], move.point[1]),
        )
        for color, move in record.moves
    ]


# Clocks: TM, OT, BL/WL, OB/OW


TIMED_GO = replace(
    SCORED_GO,
    result="W+T",
    dead=frozenset(),
    territory={},
    time_control=TimeControl.byoyomi(main_time=600, periods=5, period_time=30),
    clocks=(
        MoveClock(598_250),
        MoveClock(590_000),
        *(MoveClock(30_000, 5 - i % 5) for i in range(10)),
        MoveClock(12_500, 1),
        None,  # a move whose node says nothing
    ),
)


def test_a_timed_game_writes_its_clock_and_each_moves_time_left() -> None:
    text = unwrapped(export_sgf(TIMED_GO))

    assert "TM[600]" in text
    assert "OT[5x30 byo-yomi]" in text
    assert ";B[ba]BL[598.25]" in text
    assert ";W[da]WL[590]" in text
    assert ";OW[4]W[db]WL[30]" in text  # in overtime: the periods left
    assert ";B[]BL[12.5]OB[1];W[])" in text  # the last move's node says nothing
    assert "RE[W+T]" in text


@pytest.mark.parametrize(
    "control",
    [
        TimeControl.fischer(main_time=300, increment=3),
        TimeControl.absolute(main_time=90),
        TimeControl.canadian(main_time=1200, stones=25, period_time=300),
        TimeControl.byoyomi(main_time=0, periods=3, period_time=10),
        TimeControl.correspondence(days=3),
    ],
)
def test_every_time_control_comes_back(control: TimeControl) -> None:
    record = replace(TIMED_GO, time_control=control)
    assert import_sgf(export_sgf(record)) == record


@pytest.mark.parametrize(
    ("written", "read"),
    [("B+T", "B+T"), ("W+Time", "W+T"), ("b+forfeit", "B+F"), ("W+F", "W+F")],
)
def test_results_on_time_and_by_forfeit_are_read(written: str, read: str) -> None:
    assert import_sgf(f"(;GM[1]SZ[9]RE[{written}];B[ee])").result == read


@pytest.mark.parametrize(
    ("root", "control"),
    [
        ("TM[1800]", TimeControl.absolute(main_time=1800)),
        (
            "TM[600]OT[25/600 Canadian]",
            TimeControl.canadian(main_time=600, stones=25, period_time=600),
        ),
        ("TM[300]OT[3 periods of 30 seconds]", None),  # words this module does not read
        ("TM[abc]", None),
        ("", None),
    ],
)
def test_time_controls_written_by_others(root: str, control: TimeControl | None) -> None:
    assert import_sgf(f"(;GM[1]SZ[9]{root};B[ee])").time_control == control


def test_a_time_left_that_is_no_number_is_refused() -> None:
    with pytest.raises(RecordError, match=r"move 1: BL\[soon\]"):
        import_sgf("(;GM[1]SZ[9];B[ee]BL[soon])")
