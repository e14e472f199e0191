"""games.records and services.import_game: stored games read back as boards and records.

Games are played through the services with seeded random legal moves; the rules module,
replaying the same moves, is the oracle for the board at every ply.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from sgfmill import sgf as sgfmill_sgf  # type: ignore[import-untyped]

from accounts.players import Player
from gamerules import (
    KINDS,
    Color,
    GoPosition,
    OthelloPosition,
    Position,
    new_position,
    position_from_snapshot,
)
from gamerules import Move as RulesMove
from gamerules.clock import TimeControl
from gamerules.sgf import GameRecord, Setup, export_sgf, import_sgf, replay
from games import records
from games.models import Game, Move
from games.services import clock, imports, lobby, play, scoring, table
from games.services.errors import GameError
from tests.conftest import FrozenClock
from tests.gamerules.test_sgf import HANDICAP_SGF, HANDICAP_START

pytestmark = pytest.mark.django_db

BLACK = Player(session_key="black-session")
WHITE = Player(session_key="white-session")


def new_game(kind: str, size: int, **options: Any) -> Game:
    game = lobby.create_game(
        player=BLACK, new=lobby.NewGame(kind=kind, size=size, color="black", name="Ann", **options)
    )
    return lobby.join_game(player=WHITE, game_id=game.public_id, name="Bob")


def play_random(game: Game, *, seed: int, limit: int = 400, go_passes_after: int = 60) -> Game:
    """Play seeded random legal moves through the services until the game ends (or
    ``limit``); Go passes twice after ``go_passes_after`` moves, and both players accept
    the server's marking of dead stones, to finish."""
    rng = random.Random(seed)
    for _ in range(limit):
        game = Game.objects.get(pk=game.pk)
        if game.status == Game.Status.SCORING:
            for player in (BLACK, WHITE):
                scoring.accept(player=player, game_id=game.public_id)
            continue
        if game.status != Game.Status.ACTIVE:
            break
        player = BLACK if game.to_move == "black" else WHITE
        legal = position_from_snapshot(game.kind, game.snapshot).legal_moves()
        if game.kind == "go" and (game.ply >= go_passes_after or not legal):
            play.pass_turn(player=player, game_id=game.public_id, ply=game.ply)
        else:
            point = list(rng.choice(legal))
            play.play(player=player, game_id=game.public_id, ply=game.ply, point=point)
    return Game.objects.get(pk=game.pk)


def rules_positions(game: Game) -> list[Position]:
    """The oracle: the rules module's position after each ply, from the stored moves (and
    the stored start position of a game imported from a setup)."""
    if game.start is None:
        position = new_position(game.kind, game.size)
    else:
        position = KINDS[game.kind].from_rows(game.start["rows"], Color(game.start["to_move"]))
    positions = [position]
    for move in game.moves.all():
        if move.action == Move.Action.RESIGN:
            positions.append(position)
            continue
        if move.row is None:
            position, _ = position.play(RulesMove.pass_turn())
        else:
            position, _ = position.play(RulesMove.place((move.row, move.col)))
        positions.append(position)
    return positions


def played_games() -> list[tuple[str, int, int]]:
    return [("othello", 8, 1), ("othello", 6, 2), ("go", 9, 3), ("go", 7, 4)]


# The board at every ply


@pytest.mark.parametrize(("kind", "size", "seed"), played_games())
def test_board_at_every_ply_matches_the_rules(kind: str, size: int, seed: int) -> None:
    game = play_random(new_game(kind, size), seed=seed)
    assert game.status == Game.Status.FINISHED
    positions = rules_positions(game)
    assert len(positions) == game.ply + 1

    for ply, position in enumerate(positions):
        board = records.board_at(game, ply)
        assert (board.ply, board.rows) == (ply, position.rows()), f"ply {ply}"
        if isinstance(position, OthelloPosition):
            counts = position.disc_counts()
            assert board.discs == {color.value: counts[color] for color in Color}
            assert board.prisoners is None
        else:
            assert board.prisoners == {color.value: n for color, n in position.prisoners.items()}
            assert board.discs is None
    assert records.board_at(game).rows == positions[-1].rows() == game.snapshot["rows"]


def test_board_at_clamps_the_ply() -> None:
    game = play_random(new_game("othello", 6), seed=5, limit=4)

    assert records.board_at(game, -3).ply == 0
    assert records.board_at(game, -3).rows == OthelloPosition.start(6).rows()
    assert records.board_at(game, 999).ply == game.ply == 4
    assert records.board_at(game, None).ply == 4


def test_the_last_placement_is_marked_through_an_automatic_pass() -> None:
    # Black's a4 leaves White without a move: an automatic pass follows.
    game = new_game("othello", 4)
    position = OthelloPosition.from_rows(["B.WB", "...W", "B...", ".WB."], Color.BLACK)
    Game.objects.filter(pk=game.pk).update(snapshot=position.to_snapshot())
    moves = play.play(player=BLACK, game_id=game.public_id, ply=0, point=[3, 0])
    game = Game.objects.get(pk=game.pk)

    assert [move.action for move in moves] == ["place", "pass"]
    assert records.board_at(game, 1).marked == (3, 0)
    assert records.board_at(game, 2).marked == (3, 0)


def test_a_go_pass_or_a_resignation_marks_nothing() -> None:
    game = new_game("go", 9)
    play.play(player=BLACK, game_id=game.public_id, ply=0, point=[4, 4])
    play.pass_turn(player=WHITE, game_id=game.public_id, ply=1)
    play.resign(player=BLACK, game_id=game.public_id)
    game = Game.objects.get(pk=game.pk)

    assert [records.board_at(game, ply).marked for ply in range(4)] == [None, (4, 4), None, None]
    assert records.board_at(game).last_move.action == "resign"  # type: ignore[union-attr]
    assert records.board_at(game).rows == records.board_at(game, 1).rows


def test_go_prisoners_count_the_stones_captured_by_each_colour() -> None:
    game = new_game("go", 5)
    # Black surrounds the white stone at B4 (row 1, col 1).
    for ply, (player, point) in enumerate(
        [
            (BLACK, [0, 1]),
            (WHITE, [1, 1]),
            (BLACK, [1, 0]),
            (WHITE, [4, 4]),
            (BLACK, [1, 2]),
            (WHITE, [4, 3]),
            (BLACK, [2, 1]),
        ]
    ):
        play.play(player=player, game_id=game.public_id, ply=ply, point=point)
    game = Game.objects.get(pk=game.pk)

    assert records.board_at(game, 6).prisoners == {"black": 0, "white": 0}
    assert records.board_at(game, 7).prisoners == {"black": 1, "white": 0}
    assert records.board_at(game, 7).rows[1] == "B.B.."


# Records


@pytest.mark.parametrize(("kind", "size", "seed"), played_games())
def test_a_stored_game_exports_and_imports_to_the_same_moves(
    kind: str, size: int, seed: int
) -> None:
    game = play_random(new_game(kind, size), seed=seed)

    record = records.record_of(game)
    again = import_sgf(export_sgf(record))

    assert again.moves == record.moves
    assert len(record.moves) == game.ply
    assert (again.kind, again.size, again.black_name, again.white_name) == (
        kind,
        size,
        "Ann",
        "Bob",
    )
    assert again.result == game.result
    assert replay(again)[-1][0].rows() == game.snapshot["rows"]


def test_sgfmill_reads_a_go_export_to_the_same_moves() -> None:
    game = play_random(new_game("go", 9, komi=5.5), seed=7)

    data = export_sgf(records.record_of(game)).encode()
    sgf_game = sgfmill_sgf.Sgf_game.from_bytes(data)

    assert sgf_game.get_size() == 9
    assert sgf_game.get_komi() == 5.5
    assert sgf_game.get_player_name("b") == "Ann"
    assert sgf_game.get_winner() == {"B": "b", "W": "w"}.get(game.result[0])
    read = [node.get_move() for node in sgf_game.get_main_sequence()[1:]]
    # sgfmill counts rows from the bottom; a pass is None.
    stored = [
        (move.color[0], None if move.row is None else (8 - move.row, move.col))
        for move in game.moves.all()
    ]
    assert read == stored


def test_a_resignation_is_the_result_not_a_move() -> None:
    game = new_game("othello", 8)
    play.play(player=BLACK, game_id=game.public_id, ply=0, point=[2, 3])
    play.resign(player=WHITE, game_id=game.public_id)
    game = Game.objects.get(pk=game.pk)

    record = records.record_of(game)

    assert record.result == "B+R"
    assert record.moves == ((Color.BLACK, RulesMove.place((2, 3))),)
    assert record.date == game.created_at.date().isoformat()
    assert game.played_on == game.created_at.date()
    assert "RE[B+R]" in export_sgf(record)


def test_a_go_record_carries_komi_and_an_othello_record_none() -> None:
    go = records.record_of(new_game("go", 9, komi=0.5))
    othello = records.record_of(new_game("othello", 8))

    assert (go.komi, othello.komi) == (0.5, None)
    assert go.result is None


# services.import_game


@pytest.mark.parametrize(("kind", "size", "seed"), played_games())
def test_import_stores_a_finished_game_that_replays_to_the_same_board(
    kind: str, size: int, seed: int
) -> None:
    played = play_random(new_game(kind, size), seed=seed)
    record = import_sgf(export_sgf(records.record_of(played)))

    game = imports.import_game(record=record)

    game = Game.objects.get(pk=game.pk)
    assert (game.kind, game.size, game.status, game.ply) == (kind, size, "finished", played.ply)
    assert (game.black_name, game.white_name, game.result) == ("Ann", "Bob", played.result)
    assert game.snapshot == played.snapshot
    assert game.score == played.score
    assert (game.black_session_key, game.white_session_key) == ("", "")
    assert game.finished_at is not None
    stored = [(m.ply, m.color, m.action, m.row, m.col, m.diff) for m in game.moves.all()]
    original = [(m.ply, m.color, m.action, m.row, m.col, m.diff) for m in played.moves.all()]
    assert stored == original
    assert records.board_at(game).rows == rules_positions(game)[-1].rows()


def test_import_of_an_unfinished_record_keeps_its_result_or_none() -> None:
    resigned = imports.import_game(record=import_sgf("(;GM[1]SZ[9]RE[W+R];B[ee];W[cc])"))
    unknown = imports.import_game(record=import_sgf("(;GM[1]SZ[9];B[ee])"))

    assert (resigned.status, resigned.result, resigned.ply) == ("finished", "W+R", 2)
    assert (unknown.status, unknown.result) == ("finished", "")
    assert (unknown.black_name, unknown.white_name, unknown.komi) == ("Black", "White", 0.0)
    assert GoPosition.from_snapshot(unknown.snapshot).rows()[4] == "....B...."


def test_import_counts_a_go_game_ended_by_two_passes() -> None:
    game = imports.import_game(record=import_sgf("(;GM[1]SZ[5]KM[0.5];B[cc];W[];B[])"))

    assert (game.result, game.score) == ("B+23.5", {"black": 24, "white": 0.5})


@pytest.mark.parametrize(
    ("written", "day"),
    [
        ("1846-09-11", datetime.date(1846, 9, 11)),
        ("1996-05-06,07", datetime.date(1996, 5, 6)),
        ("1996-05", None),
        ("summer 1996", None),
        (None, None),
    ],
)
def test_import_keeps_the_day_the_record_was_played(
    written: str | None, day: datetime.date | None
) -> None:
    dt = "" if written is None else f"DT[{written}]"

    game = imports.import_game(record=import_sgf(f"(;GM[1]SZ[9]{dt};B[ee];W[cc])"))

    game = Game.objects.get(pk=game.pk)
    assert game.played_on == day
    # Stored today: the archive and the admin still list it with the newest.
    assert game.created_at.date() == datetime.datetime.now(datetime.UTC).date()
    exported = export_sgf(records.record_of(game))
    assert (f"DT[{day.isoformat()}]" in exported) if day else ("DT[" not in exported)
    assert import_sgf(exported).played_on == day


def test_an_imported_handicap_game_replays_from_its_stones_at_every_ply() -> None:
    game = imports.import_game(record=import_sgf(HANDICAP_SGF))

    game = Game.objects.get(pk=game.pk)
    assert game.start == {"rows": list(HANDICAP_START), "to_move": "white", "handicap": 2}
    assert (game.status, game.ply, game.moves.all()[0].color) == ("finished", 7, "white")
    positions = rules_positions(game)
    assert positions[0].rows() == list(HANDICAP_START)
    for ply, position in enumerate(positions):
        board = records.board_at(game, ply)
        assert board.rows == position.rows(), f"ply {ply}"
        assert board.prisoners == {color.value: n for color, n in position.prisoners.items()}
    assert records.board_at(game, 4).prisoners == {"black": 1, "white": 0}
    assert game.snapshot == positions[-1].to_snapshot()
    # Two passes: counted by territory, the handicap stones' area included.
    assert game.result.startswith("B+")


def test_an_imported_handicap_game_exports_its_setup_and_moves() -> None:
    original = import_sgf(HANDICAP_SGF)
    game = imports.import_game(record=original)

    record = records.record_of(Game.objects.get(pk=game.pk))
    text = export_sgf(record)

    assert record.setup == original.setup == Setup(HANDICAP_START, Color.WHITE, 2)
    assert "AB[gc][cg]" in text and "HA[2]" in text and "PL[W]" in text
    again = import_sgf(text)
    assert (again.setup, again.moves) == (original.setup, original.moves)
    sgf_game = sgfmill_sgf.Sgf_game.from_bytes(text.encode())
    assert sgf_game.get_root().get_setup_stones() == ({(6, 6), (2, 2)}, set(), set())


@pytest.mark.parametrize(
    ("text", "result"),
    [
        ("(;GM[1]SZ[9]AB[ee]AW[cc]PL[W])", ""),
        ("(;GM[1]SZ[9]AB[ee]AW[cc]PL[W]RE[W+3.5])", "W+3.5"),
        ("(;GM[2]SZ[4]AB[aa:dc]AW[ad:cd])", "B+9"),
        ("(;GM[2]SZ[8]AB[ed][de]AW[dd][ee]PL[W])", ""),
    ],
)
def test_a_setup_without_moves_is_a_finished_game_at_its_start(text: str, result: str) -> None:
    record = import_sgf(text)

    game = imports.import_game(record=record)

    game = Game.objects.get(pk=game.pk)
    assert (game.status, game.ply, game.result) == ("finished", 0, result)
    assert record.setup is not None
    assert game.start == record.setup.to_json()
    assert game.to_move == record.setup.to_move.value
    assert game.snapshot["rows"] == records.board_at(game).rows == list(record.setup.rows)
    assert not game.moves.exists()


def test_import_shortens_long_names() -> None:
    game = imports.import_game(record=GameRecord(kind="othello", size=8, black_name="x" * 99))

    assert game.black_name == "x" * lobby.NAME_MAX_LENGTH


@pytest.mark.parametrize(
    "record",
    [
        GameRecord(kind="othello", size=18),
        GameRecord(kind="go", size=21),
        GameRecord(kind="go", size=9, moves=((Color.WHITE, RulesMove.place((0, 0))),)),
        GameRecord(kind="othello", size=8, moves=((Color.BLACK, RulesMove.place((0, 0))),)),
        GameRecord(kind="go", size=3, setup=Setup(("BW.", "W..", "..."), Color.BLACK)),
        GameRecord(kind="othello", size=4, setup=Setup(("B...",) + ("....",) * 3, Color.WHITE)),
        GameRecord(
            kind="go",
            size=9,
            setup=Setup(HANDICAP_START, Color.WHITE, 2),
            moves=((Color.BLACK, RulesMove.place((4, 4))),),
        ),
    ],
)
def test_import_refuses_a_record_the_rules_refuse_and_stores_nothing(record: GameRecord) -> None:
    with pytest.raises(GameError) as caught:
        imports.import_game(record=record)

    assert caught.value.code == "bad_request"
    assert not Game.objects.exists()
    assert not Move.objects.exists()


# The archive query


def test_archive_filters_and_counts_moves() -> None:
    othello = play_random(new_game("othello", 8), seed=1, limit=5)
    go = new_game("go", 9)
    play.play(player=BLACK, game_id=go.public_id, ply=0, point=[2, 2])
    zoe = User.objects.create_user("Zoe")
    other = lobby.create_game(
        player=Player(user_id=zoe.pk),
        new=lobby.NewGame(kind="go", size=13, color="white", name="Zoe"),
    )

    assert [game.pk for game in records.archive()] == [other.pk, go.pk, othello.pk]
    assert [game.move_count for game in records.archive()] == [0, 1, 5]
    assert [game.pk for game in records.archive(kind="go")] == [other.pk, go.pk]
    assert [game.pk for game in records.archive(size=9)] == [go.pk]
    assert [game.pk for game in records.archive(status="waiting")] == [other.pk]
    # By account, in any case (docs/api/README.md#one-name-per-player); guests' names are not
    # accounts, and a part of a name finds nothing.
    assert [game.pk for game in records.archive(player="ZOE")] == [other.pk]
    assert [game.pk for game in records.archive(player="nobody")] == []
    assert [game.pk for game in records.archive(player="Bob")] == []
    assert [game.pk for game in records.archive(player="Zo")] == []
    assert [game.pk for game in records.archive(mine=[go.pk])] == [go.pk]


def test_a_timed_game_keeps_its_clock_and_its_time_result_through_sgf(
    black: Player, white: Player, frozen_clock: FrozenClock
) -> None:
    control = TimeControl.byoyomi(main_time=10, periods=2, period_time=5)
    game = lobby.create_game(
        player=black,
        new=lobby.NewGame(kind="go", size=9, color="black", name="Ann", time_control=control),
    )
    lobby.join_game(player=white, game_id=game.public_id, name="Bob")
    line = [(4, [2, 2]), (12, [6, 6]), (3, [2, 6]), (12, [6, 2]), (3, [4, 4])]
    for ply, (seconds, point) in enumerate(line):
        frozen_clock.advance(seconds)
        mover = black if ply % 2 == 0 else white
        play.play(player=mover, game_id=game.public_id, ply=ply, point=point)
    frozen_clock.advance(20)  # White's last period runs out
    clock.flag(game_id=game.public_id)
    game = Game.objects.get(pk=game.pk)

    text = export_sgf(records.record_of(game))
    imported = imports.import_game(record=import_sgf(text))

    assert (imported.result, imported.time_control) == ("B+T", game.time_control)
    played = [(m.clock_ms, m.overtime_left) for m in game.moves.filter(action="place")]
    # The first moves are free; then Black 10 - 3, White 2 s into its first period, Black.
    assert played == [(10000, None), (10000, None), (7000, None), (5000, 2), (4000, None)]
    assert [(m.clock_ms, m.overtime_left) for m in imported.moves.all()] == played
    assert records.result_text(imported.result, "go") == "Black wins on time"


# The chat in the record


def test_the_players_chat_is_in_the_sgf_on_the_move_it_followed_and_comes_back() -> None:
    game = new_game("go", 9)
    spectator = Player(session_key="spectator-session")
    table.say(player=BLACK, game_id=game.public_id, name="x", text="have fun")
    game = play_random(game, seed=3, limit=2)
    table.say(player=WHITE, game_id=game.public_id, name="x", text="oops ] \\ misclick")
    table.say(player=spectator, game_id=game.public_id, name="Cy", text="nice")
    table.say(player=BLACK, game_id=game.public_id, name="x", text="no worries")
    play.resign(player=WHITE, game_id=game.public_id)
    game = Game.objects.get(pk=game.pk)

    record = records.record_of(game)

    assert record.comments == {0: "Ann: have fun", 2: "Bob: oops ] \\ misclick\nAnn: no worries"}
    main = sgfmill_sgf.Sgf_game.from_bytes(export_sgf(record).encode()).get_main_sequence()
    assert main[2].get("C") == "Bob: oops ] \\ misclick\nAnn: no worries"
    imported = imports.import_game(record=import_sgf(export_sgf(record)))
    said = [(m.ply, m.name, m.color, m.text) for m in imported.chat.all()]
    assert said == [
        (0, "", "", "Ann: have fun"),
        (2, "", "", "Bob: oops ] \\ misclick\nAnn: no worries"),
    ], "the record's comments, whole, and nobody's chat (tests/games/test_imported.py)"
    assert records.record_of(imported).comments == record.comments


def test_an_imported_comment_is_the_records_whatever_it_says() -> None:
    record = import_sgf("(;GM[1]SZ[9]PB[Ann]PW[Bob]C[A teaching game\nAnn: hi];B[cc]C[Good shape])")

    game = imports.import_game(record=record)

    said = [(m.ply, m.name, m.color, m.text) for m in game.chat.all()]
    assert said == [(0, "", "", "A teaching game\nAnn: hi"), (1, "", "", "Good shape")]


def test_the_replay_shows_what_the_players_said_at_its_move() -> None:
    game = play_random(new_game("othello", 8), seed=1, limit=3)
    table.say(player=BLACK, game_id=game.public_id, name="x", text="<i>well played</i>")
    table.say(player=Player(session_key="other"), game_id=game.public_id, name="Cy", text="hm")

    chat = records.replay_data(game)["chat"]

    assert [(m["ply"], m["name"], m["color"], m["text"]) for m in chat] == [
        (3, "Ann", "black", "<i>well played</i>")
    ]
