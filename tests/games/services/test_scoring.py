"""Go's scoring phase through games.services: two passes, marking dead stones, accepting,
resuming; every error in the contract's order; the count in G, the SGF record and the
replay.

Runs on SQLite by default and on PostgreSQL when DATABASE_URL is set (.ci/run).
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import pytest

from accounts.players import Player
from gamerules import Color, GoPosition
from gamerules.sgf import export_sgf, import_sgf
from games import records, selectors
from games.models import Game
from games.services import imports, lobby, play
from games.services import scoring as scoring_services
from games.services.errors import GameError
from tests.support.concurrency import at_once
from tests.support.helpers import Events, Refused, reload

pytestmark = pytest.mark.django_db

ROUNDS = 10

# Two white stones inside Black's side; White to move, so White passes first and Black
# second, and White is to move if play resumes. The server guesses the two stones dead.
#   . . B W .
#   . W B W .
#   . W B W .
#   . . B W .
#   . . B W .
INVADED = ["..BW.", ".WBW.", ".WBW.", "..BW.", "..BW."]
INVADERS = [[1, 1], [2, 1]]
BLACK_SIDE = [[r, c] for r in range(5) for c in (0, 1)]
WHITE_SIDE = [[r, 4] for r in range(5)]


def new_game(black: Player, white: Player, *, scoring: str = "territory") -> Game:
    """A 5x5 Go game between ``black`` and ``white`` at the INVADED position, White to move."""
    game = lobby.create_game(
        player=black,
        new=lobby.NewGame(kind="go", size=5, color="black", name="Ann", scoring=scoring),
    )
    lobby.join_game(player=white, game_id=game.public_id, name="Bob")
    position = GoPosition.from_rows(INVADED, Color.WHITE)
    Game.objects.filter(pk=game.pk).update(snapshot=position.to_snapshot(), to_move="white")
    return reload(game)


def counting(black: Player, white: Player, *, scoring: str = "territory") -> Game:
    """The INVADED game after White's and Black's passes: being scored."""
    game = new_game(black, white, scoring=scoring)
    play.pass_turn(player=white, game_id=game.public_id, ply=0)
    play.pass_turn(player=black, game_id=game.public_id, ply=1)
    return reload(game)


def agreed(black: Player, white: Player, *, scoring: str = "territory") -> Game:
    """The INVADED game counted, both players accepting the server's marking: finished."""
    game = counting(black, white, scoring=scoring)
    accept_both(game, black, white)
    return reload(game)


def accept_both(game: Game, black: Player, white: Player, **arguments: Any) -> None:
    for player in (black, white):
        scoring_services.accept(player=player, game_id=game.public_id, **arguments)


def count_of(game: Game) -> tuple[Any, ...]:
    """Everything a scoring service may change."""
    return (
        game.status,
        game.ply,
        game.snapshot,
        game.dead,
        game.territory,
        game.score,
        game.score_detail,
        game.black_accepted,
        game.white_accepted,
        game.marking,
        game.result,
    )


# Two passes: the server's first marking


def test_two_passes_start_the_count_with_the_guessed_dead_stones(
    black: Player, white: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    game = new_game(black, white)
    play.pass_turn(player=white, game_id=game.public_id, ply=0)
    with django_capture_on_commit_callbacks(execute=True):
        play.pass_turn(player=black, game_id=game.public_id, ply=1)

    game = reload(game)
    assert (game.status, game.result, game.finished_at) == ("scoring", "", None)
    assert game.dead == INVADERS
    # Black: 10 points (the invaders' too) + 2 dead; White: 5 points + komi 6.5.
    assert game.territory == {"black": BLACK_SIDE, "white": WHITE_SIDE}
    assert game.score == {"black": 12, "white": 11.5}
    assert game.score_detail == {
        "black": {"territory": 10, "prisoners": 0, "dead": 2, "stones": 5, "komi": 0, "total": 12},
        "white": {
            "territory": 5,
            "prisoners": 0,
            "dead": 0,
            "stones": 5,
            "komi": 6.5,
            "total": 11.5,
        },
    }
    assert (game.black_accepted, game.white_accepted, game.marking) == (False, False, 1)

    [(_, event)] = broadcasts
    assert (event["type"], event["move"]["action"]) == ("game.moved", "pass")
    state = event["game"]
    assert (state["status"], state["to_move"], state["legal"], state["result"]) == (
        "scoring",
        None,
        [],
        None,
    )
    assert (state["dead"], state["territory"], state["score"]) == (
        INVADERS,
        game.territory,
        {"black": 12, "white": 11.5},
    )
    assert state["score_detail"] == game.score_detail
    assert (state["accepted"], state["marking"]) == ({"black": False, "white": False}, 1)


def test_while_playing_g_has_no_count_and_othello_none_at_all(black: Player, white: Player) -> None:
    go = selectors.game_state(new_game(black, white), you="black")
    othello = lobby.create_game(
        player=black, new=lobby.NewGame(kind="othello", size=8, color="black", name="A")
    )

    assert (go["dead"], go["territory"], go["score_detail"], go["marking"]) == ([], None, None, 0)
    assert go["accepted"] == {"black": False, "white": False}
    assert go["score"] == {"black": 0, "white": 6.5}
    counted = selectors.game_state(othello, you=None)
    assert [counted[key] for key in selectors.COUNT_KEYS] == [None] * 5


# mark


def test_a_mark_toggles_the_whole_chain_and_is_broadcast(
    black: Player, white: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    game = counting(black, white)

    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.mark(player=black, game_id=game.public_id, point=[2, 1], marking=1)
    game = reload(game)
    # Both invaders alive again: Black's side is nobody's, White keeps 5 + komi.
    assert (game.dead, game.marking, game.status) == ([], 2, "scoring")
    assert game.territory == {"black": [], "white": WHITE_SIDE}
    assert game.score == {"black": 0, "white": 11.5}
    [(_, event)] = broadcasts
    assert event["type"] == "game.state"
    assert (event["game"]["dead"], event["game"]["marking"]) == ([], 2)
    assert event["game"]["score"] == {"black": 0, "white": 11.5}

    # Either player marks; no marking number is needed.
    scoring_services.mark(player=white, game_id=game.public_id, point=[1, 1])
    game = reload(game)
    assert (game.dead, game.marking, game.score) == (INVADERS, 3, {"black": 12, "white": 11.5})


def test_any_stone_may_be_marked_dead_even_a_big_group(black: Player, white: Player) -> None:
    game = counting(black, white)

    scoring_services.mark(player=white, game_id=game.public_id, point=[4, 2])
    game = reload(game)
    black_wall = [[r, 2] for r in range(5)]
    assert game.dead == sorted(INVADERS + black_wall)
    assert game.score_detail["white"]["dead"] == 5
    assert game.score_detail["black"]["dead"] == 2


def test_a_mark_withdraws_both_acceptances(black: Player, white: Player) -> None:
    game = counting(black, white)
    scoring_services.accept(player=black, game_id=game.public_id)
    assert (reload(game).black_accepted, reload(game).white_accepted) == (True, False)

    scoring_services.mark(player=white, game_id=game.public_id, point=[1, 1])

    game = reload(game)
    assert (game.black_accepted, game.white_accepted, game.status) == (False, False, "scoring")
    # The old marking is gone: accepting it by number is stale, the new one is accepted.
    with pytest.raises(GameError) as caught:
        scoring_services.accept(player=white, game_id=game.public_id, marking=1)
    assert caught.value.code == "stale"
    scoring_services.accept(player=white, game_id=game.public_id, marking=2)
    assert reload(game).white_accepted


# accept


def test_both_accepting_the_same_marking_finishes_with_its_score(
    black: Player, white: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    game = counting(black, white)

    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.accept(player=white, game_id=game.public_id, marking=1)
    game = reload(game)
    assert (game.status, game.white_accepted, game.black_accepted) == ("scoring", True, False)
    [(_, first)] = broadcasts
    assert first["type"] == "game.state"
    assert first["game"]["accepted"] == {"black": False, "white": True}

    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.accept(player=black, game_id=game.public_id, marking=1)
    game = reload(game)
    assert (game.status, game.result) == ("finished", "B+0.5")
    assert game.finished_at is not None
    assert (game.dead, game.score) == (INVADERS, {"black": 12, "white": 11.5})
    assert game.score_detail["black"]["total"] == 12
    final = broadcasts[-1][1]
    assert (final["type"], final["game"]["status"], final["game"]["result"]) == (
        "game.state",
        "finished",
        "B+0.5",
    )
    assert final["game"]["territory"] == {"black": BLACK_SIDE, "white": WHITE_SIDE}


def test_accepting_twice_changes_and_sends_nothing(
    black: Player, white: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    game = counting(black, white)
    scoring_services.accept(player=black, game_id=game.public_id)
    before = count_of(reload(game))

    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.accept(player=black, game_id=game.public_id, marking=1)

    assert count_of(reload(game)) == before
    assert broadcasts == []


def test_a_different_marking_agreed_on_gives_its_own_score(black: Player, white: Player) -> None:
    game = counting(black, white)
    scoring_services.mark(player=white, game_id=game.public_id, point=[1, 1])
    accept_both(game, black, white, marking=2)

    game = reload(game)
    assert (game.status, game.result, game.dead) == ("finished", "W+11.5", [])


def test_area_scoring_counts_stones_and_territory(black: Player, white: Player) -> None:
    game = agreed(black, white, scoring="area")
    # Black: 5 stones + 10 points; White: 5 stones + 5 points + komi 7.5. Dead stones and
    # prisoners do not count by area.
    assert (game.result, game.score) == ("W+2.5", {"black": 15, "white": 17.5})
    assert game.score_detail["white"] == {
        "territory": 5,
        "prisoners": 0,
        "dead": 0,
        "stones": 5,
        "komi": 7.5,
        "total": 17.5,
    }


# resume


def test_resume_plays_on_with_the_side_after_the_passes_and_drops_the_marking(
    black: Player, white: Player, broadcasts: Events, django_capture_on_commit_callbacks: Any
) -> None:
    game = counting(black, white)
    scoring_services.accept(player=black, game_id=game.public_id)

    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.resume(player=black, game_id=game.public_id, marking=1)

    game = reload(game)
    assert (game.status, game.to_move, game.ply) == ("active", "white", 2)
    assert (game.dead, game.territory, game.score_detail) == ([], None, None)
    assert (game.black_accepted, game.white_accepted, game.marking) == (False, False, 2)
    assert game.score == {"black": 0, "white": 6.5}
    assert game.snapshot["consecutive_passes"] == 0
    [(_, event)] = broadcasts
    assert (event["type"], event["game"]["status"], event["game"]["to_move"]) == (
        "game.state",
        "active",
        "white",
    )
    assert [0, 0] in event["game"]["legal"]

    # Play goes on at the same ply; two more passes count again, with a new marking.
    play.play(player=white, game_id=game.public_id, ply=2, point=[0, 4])
    play.pass_turn(player=black, game_id=game.public_id, ply=3)
    play.pass_turn(player=white, game_id=game.public_id, ply=4)
    game = reload(game)
    assert (game.status, game.marking, game.dead) == ("scoring", 3, INVADERS)
    assert game.score == {"black": 12, "white": 10.5}


# resign


def test_resigning_while_scoring_finishes_and_drops_the_marking(
    black: Player, white: Player
) -> None:
    game = counting(black, white)

    [move] = play.resign(player=black, game_id=game.public_id)

    game = reload(game)
    assert (move.action, game.status, game.result) == ("resign", "finished", "W+R")
    assert (game.dead, game.territory, game.score_detail) == ([], None, None)
    assert game.score == {"black": 0, "white": 6.5}
    record = records.record_of(game)
    assert (record.dead, record.territory, record.result) == (frozenset(), {}, "W+R")


# Errors, in the contract's order: bad_request, not_a_player, game_over, stale,
# illegal_move. A refusal changes and sends nothing.


@pytest.mark.parametrize(
    ("point", "marking"),
    [
        pytest.param([1], None, id="one-number"),
        pytest.param("b4", None, id="string"),
        pytest.param([1.0, 1], None, id="float"),
        pytest.param([True, 1], None, id="bool"),
        pytest.param(None, None, id="missing"),
        pytest.param([5, 1], None, id="off-board"),
        pytest.param([-1, 1], None, id="negative"),
        pytest.param([1, 1], "1", id="marking-string"),
        pytest.param([1, 1], 1.0, id="marking-float"),
        pytest.param([1, 1], True, id="marking-bool"),
    ],
)
def test_a_malformed_mark_is_a_bad_request_even_from_a_spectator(
    black: Player, spectator: Player, white: Player, refused: Refused, point: Any, marking: Any
) -> None:
    game = counting(black, white)

    for player in (black, spectator):
        refused(
            "bad_request",
            scoring_services.mark,
            game,
            player=player,
            point=point,
            marking=marking,
        )


def test_a_malformed_marking_is_a_bad_request(
    black: Player, white: Player, refused: Refused
) -> None:
    game = counting(black, white)

    refused("bad_request", scoring_services.accept, game, player=black, marking="1")
    refused("bad_request", scoring_services.resume, game, player=black, marking=[1])


def test_an_unknown_game_is_a_bad_request(black: Player) -> None:
    for call, arguments in (
        (scoring_services.mark, {"point": [0, 0]}),
        (scoring_services.accept, {}),
        (scoring_services.resume, {}),
    ):
        with pytest.raises(GameError) as caught:
            call(player=black, game_id="x", **arguments)
        assert caught.value.code == "bad_request"


def test_a_spectator_is_not_a_player_even_with_an_old_marking(
    black: Player, white: Player, spectator: Player, refused: Refused
) -> None:
    game = counting(black, white)

    refused("not_a_player", scoring_services.mark, game, player=spectator, point=[1, 1], marking=7)
    refused("not_a_player", scoring_services.accept, game, player=spectator, marking=7)
    refused("not_a_player", scoring_services.resume, game, player=spectator)


def test_a_finished_game_is_game_over_even_with_an_old_marking(
    black: Player, white: Player, refused: Refused
) -> None:
    game = agreed(black, white)

    for player in (black, white):
        refused("game_over", scoring_services.mark, game, player=player, point=[1, 1], marking=0)
        refused("game_over", scoring_services.accept, game, player=player, marking=0)
        refused("game_over", scoring_services.resume, game, player=player)
        refused("game_over", play.pass_turn, game, player=player, ply=2)


def test_an_old_marking_is_stale(black: Player, white: Player, refused: Refused) -> None:
    game = counting(black, white)
    scoring_services.mark(player=black, game_id=game.public_id, point=[1, 1], marking=1)

    # A double click: the second mark names the marking the first one replaced.
    refused("stale", scoring_services.mark, game, player=black, point=[1, 1], marking=1)
    refused("stale", scoring_services.accept, game, player=white, marking=1)
    refused("stale", scoring_services.resume, game, player=white, marking=1)
    # ...and stale comes before illegal_move (an empty point).
    refused("stale", scoring_services.mark, game, player=black, point=[0, 0], marking=1)


def test_a_mark_on_an_empty_point_is_an_illegal_move(
    black: Player, white: Player, refused: Refused
) -> None:
    game = counting(black, white)

    with pytest.raises(GameError, match="there is no stone on A5"):
        scoring_services.mark(player=black, game_id=game.public_id, point=[0, 0])
    refused("illegal_move", scoring_services.mark, game, player=white, point=[4, 4], marking=1)


def test_outside_the_scoring_phase_mark_accept_resume_are_illegal_moves(
    black: Player, white: Player, refused: Refused
) -> None:
    active = new_game(black, white)
    waiting = lobby.create_game(
        player=black, new=lobby.NewGame(kind="go", size=9, color="black", name="A")
    )
    othello = lobby.create_game(
        player=black, new=lobby.NewGame(kind="othello", size=8, color="black", name="A")
    )
    lobby.join_game(player=white, game_id=othello.public_id, name="B")

    for game in (active, waiting, othello):
        refused("illegal_move", scoring_services.mark, game, player=black, point=[2, 2])
        refused("illegal_move", scoring_services.accept, game, player=black)
        refused("illegal_move", scoring_services.resume, game, player=black, marking=0)


def test_while_scoring_play_and_pass_are_illegal_moves(
    black: Player, white: Player, refused: Refused
) -> None:
    game = counting(black, white)

    for player in (black, white):
        refused("illegal_move", play.play, game, player=player, ply=2, point=[0, 0])
        refused("illegal_move", play.pass_turn, game, player=player, ply=2)
    refused("stale", play.play, game, player=white, ply=1, point=[0, 0])


# The record: SGF and replay


def test_the_sgf_record_carries_the_agreed_dead_stones_territory_and_result(
    black: Player, white: Player
) -> None:
    game = agreed(black, white)
    game = reload(game)

    text = export_sgf(records.record_of(game))

    assert "RE[B+0.5]" in text
    assert sgf_points(text, "MA") == {"bb", "bc"}
    assert sgf_points(text, "TB") == {"aa", "ab", "ac", "ad", "ae", "ba", "bb", "bc", "bd", "be"}
    assert sgf_points(text, "TW") == {"ea", "eb", "ec", "ed", "ee"}
    # The count is in the last node, the second pass.
    assert text.index("MA[") > text.rindex(";B[]")


def sgf_points(text: str, identifier: str) -> set[str]:
    """The point values of one property in an SGF text: ``{"bb", "bc"}``."""
    match = re.search(rf"{identifier}((?:\[[a-s]{{2}}\])+)", text)
    assert match, f"no {identifier} in {text}"
    return set(re.findall(r"\[([a-s]{2})\]", match[1]))


def test_a_game_still_being_scored_exports_no_count(black: Player, white: Player) -> None:
    record = records.record_of(counting(black, white))

    assert (record.dead, record.territory, record.result) == (frozenset(), {}, None)


# The INVADED position played out in SGF, ending with two passes.
INVADED_SGF = (
    "(;GM[1]SZ[5]KM[6.5];B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];W[de]"
    ";B[];W[bb];B[];W[bc];B[];W[]{marks})"
)


@pytest.mark.parametrize(
    ("marks", "result", "dead"),
    [
        pytest.param("MA[bb][bc]", "B+0.5", INVADERS, id="dead stones marked"),
        pytest.param("", "W+11.5", [], id="nothing marked"),
    ],
)
def test_an_imported_go_game_is_counted_with_its_dead_stones(
    marks: str, result: str, dead: list[list[int]]
) -> None:
    game = imports.import_game(record=import_sgf(INVADED_SGF.format(marks=marks)))

    game = reload(game)
    assert GoPosition.from_snapshot(game.snapshot).rows() == INVADED
    assert (game.status, game.result, game.dead) == ("finished", result, dead)
    assert records.final_count(game) is not None
    assert "TW[ea][eb][ec][ed][ee]" in export_sgf(records.record_of(game))


def test_the_replay_shows_the_final_count_at_the_last_move(black: Player, white: Player) -> None:
    game = counting(black, white)
    assert records.replay_data(game)["count"] is None
    accept_both(game, black, white)

    count = records.replay_data(reload(game))["count"]

    assert count["dead"] == INVADERS
    assert count["territory"] == {"black": BLACK_SIDE, "white": WHITE_SIDE}
    assert count["score"] == {"black": 12, "white": 11.5}
    assert count["score_detail"]["white"]["komi"] == 6.5


def test_the_replay_page_shows_the_agreed_totals_at_the_last_move_only(
    black: Player, white: Player, client: Any
) -> None:
    game = agreed(black, white)

    last = client.get(f"/games/{game.public_id}/replay/").content.decode()
    first = client.get(f"/games/{game.public_id}/replay/?ply=1").content.decode()

    assert 'id="score-black" title="points">12<' in last
    assert 'id="score-white" title="points">11.5<' in last
    assert 'id="score-white" title="stones captured + komi">0 + 6.5<' in first


# Racing clicks: real threads, each with its own connection, released together.


@pytest.mark.django_db(transaction=True)
def test_an_accept_racing_a_mark_never_finishes_on_a_marking_its_sender_did_not_see(
    black: Player, white: Player
) -> None:
    for _ in range(ROUNDS):
        game = counting(black, white)
        scoring_services.accept(player=white, game_id=game.public_id, marking=1)

        # White changes its mind while Black accepts the marking both have seen.
        outcomes = at_once(
            partial(scoring_services.mark, player=white, game_id=game.public_id, point=[1, 1]),
            partial(scoring_services.accept, player=black, game_id=game.public_id),
            marking=1,
        )

        game = reload(game)
        if outcomes[0] == "game_over":
            # The accept came first: the game ended on the marking both accepted.
            assert isinstance(outcomes[1], Game), outcomes
            assert (game.status, game.dead, game.result) == ("finished", INVADERS, "B+0.5")
        else:
            # The mark came first: the accept named the old marking, and was stale.
            assert isinstance(outcomes[0], Game), outcomes
            assert outcomes[1] == "stale", outcomes
            assert (game.status, game.dead, game.marking) == ("scoring", [], 2)
            assert (game.black_accepted, game.white_accepted) == (False, False)


@pytest.mark.django_db(transaction=True)
def test_two_marks_of_one_marking_land_once(black: Player, white: Player) -> None:
    game = counting(black, white)

    for _ in range(ROUNDS):
        before = reload(game)
        outcomes = at_once(
            *(
                partial(scoring_services.mark, player=player, game_id=game.public_id, point=[2, 1])
                for player in (black, white)
            ),
            marking=before.marking,
        )

        assert sorted(map(type, outcomes), key=str) == sorted([Game, str], key=str), outcomes
        assert "stale" in outcomes
        after = reload(game)
        assert after.marking == before.marking + 1
        assert (after.dead == []) == (before.dead == INVADERS)
