"""The tournaments' use cases through the database: joining, withdrawing, pausing, the
start, an arena's waves, Swiss, McMahon and round-robin rounds, byes, the end, rating,
berserk, the loop's exclusivity, the players taken to their games (``game_ready``) and
those who never come (forfeits, then paused or withdrawn, and told), the notices (a bye,
an arena's one notification), the sheets, and the chat."""

from __future__ import annotations

import datetime
import itertools
import json
from collections import Counter

import pytest
from django.db import transaction

import broadcast
from accounts.players import Player
from gamerules.clock import TimeControl
from games.models import Game
from games.services.errors import GameError
from live import state as states
from notifications.models import Notification
from players.models import RatingChange
from tests.support.concurrency import at_once, held_elsewhere
from tests.tournaments.helpers import (
    START,
    account,
    draw,
    joined,
    player,
    tournament,
    unplayed,
    win,
)
from tournaments import selectors, services
from tournaments.models import ChatLine, Entry, Tournament, TournamentPairing
from tournaments.services import TournamentError

pytestmark = pytest.mark.django_db(transaction=True)

LATER = START + datetime.timedelta(seconds=5)


def games_of(found: Tournament, round_number: int | None = None) -> list[Game]:
    pairings = TournamentPairing.objects.filter(tournament=found, game__isnull=False)
    if round_number is not None:
        pairings = pairings.filter(round=round_number)
    return [pairing.game for pairing in pairings.select_related("game").order_by("pk")]


def json_of(found: Tournament) -> dict:
    found.refresh_from_db()
    return selectors.tournament_json(found)


def points(found: Tournament) -> dict[str, float]:
    return {row["username"]: row["score"] for row in json_of(found)["players"]}


# Joining, withdrawing, pausing


def test_joining_twice_is_one_entry_and_withdrawing_before_the_start_leaves() -> None:
    found = tournament()
    [ann] = joined(found, "ann")
    services.join(user_id=ann.pk, tournament_id=found.pk)
    assert Entry.objects.filter(tournament=found).count() == 1
    services.withdraw(user_id=ann.pk, tournament_id=found.pk)
    assert not Entry.objects.filter(tournament=found).exists()
    with pytest.raises(TournamentError):
        services.withdraw(user_id=ann.pk, tournament_id=found.pk)


def test_a_tournament_that_is_not_there_is_not_found() -> None:
    ann = account("ann")
    with pytest.raises(TournamentError) as refused:
        services.join(user_id=ann.pk, tournament_id=999)
    assert refused.value.code == "not_found"


def test_only_an_arena_pauses() -> None:
    found = tournament("swiss")
    [ann] = joined(found, "ann")
    with pytest.raises(TournamentError):
        services.pause(user_id=ann.pk, tournament_id=found.pk)


def test_an_account_creates_5_tournaments_a_day_at_most_3_not_yet_finished() -> None:
    day = datetime.timedelta(days=1)
    clock = START - day

    def create(name: str) -> Tournament:
        return tournament(name=name, now=clock)

    def finished(*found: Tournament) -> None:
        Tournament.objects.filter(pk__in=[one.pk for one in found]).update(status="finished")

    first, second, third = create("1"), create("2"), create("3")
    with pytest.raises(TournamentError, match="not yet finished") as refused:
        create("4")
    assert refused.value.code == "rate_limited"
    finished(first, second)
    create("4"), create("5")
    finished(third)
    with pytest.raises(TournamentError, match="5 tournaments a day") as refused:
        create("6")
    assert refused.value.code == "rate_limited"
    assert Tournament.objects.count() == 5
    clock += day - datetime.timedelta(seconds=1)
    with pytest.raises(TournamentError, match="rate_limited"):
        create("6")
    clock += datetime.timedelta(seconds=1)  # the first one leaves the day
    assert create("6").name == "6"
    # Another account counts apart.
    other = account("other")
    assert services.create(
        user_id=other.pk,
        system="swiss",
        name="theirs",
        kind="othello",
        size=8,
        time_control=TimeControl.fischer(main_time=180, increment=2),
        rated=False,
        starts_at=START,
        rounds=3,
        now=clock,
    )


def test_a_start_in_the_past_is_refused_naming_the_field() -> None:
    with pytest.raises(TournamentError) as refused:
        tournament(now=START + datetime.timedelta(hours=1))
    assert refused.value.field == "starts_at"
    assert not Tournament.objects.exists()


# The start


def test_nothing_happens_before_the_start_and_at_it_the_players_are_told() -> None:
    found = tournament()
    ann, _bob = joined(found, "ann", "bob")
    assert services.advance(tournament_id=found.pk, now=START - datetime.timedelta(seconds=1)) == []
    found.refresh_from_db()
    assert found.status == "upcoming"
    made = services.advance(tournament_id=found.pk, now=START)
    found.refresh_from_db()
    assert found.status == "running"
    assert len(made) == 1
    kinds = Counter(Notification.objects.values_list("kind", flat=True))
    assert kinds == {"tournament_starting": 2, "round_paired": 2}
    paired = Notification.objects.get(user=ann, kind="round_paired")
    assert paired.url == f"/games/{made[0].public_id}/"


# The arena


def test_an_arena_pairs_its_free_players_and_scores_wins_with_fire() -> None:
    found = tournament()
    ann, bob, cid, dan = joined(found, "ann", "bob", "cid", "dan")
    made = services.advance(tournament_id=found.pk, now=START, seed=1)
    assert len(made) == 2
    seated = [user for game in made for user in (game.black_user_id, game.white_user_id)]
    assert sorted(seated) == sorted(user.pk for user in (ann, bob, cid, dan))
    assert all(game.status == "active" and game.time_control["main_time"] == 180 for game in made)
    # Nobody free: no new pairing.
    assert services.advance(tournament_id=found.pk, now=LATER) == []
    # Ann wins three games in a row: 2, 2, then 4 on fire.
    for wave in range(3):
        game = next(
            game
            for game in games_of(found)
            if ann.pk in (game.black_user_id, game.white_user_id) and game.status == "active"
        )
        opponent = game.seat_of_user(ann.pk).opponent.user_id
        win(game, ann)
        other = next(game for game in games_of(found) if game.status == "active")
        win(other, next(user for user in (bob, cid, dan) if user.pk == other.black_user_id))
        services.advance(tournament_id=found.pk, now=LATER + datetime.timedelta(seconds=wave))
        assert opponent  # never the same opponent twice in a row (checked below)
    table = json_of(found)
    top = table["players"][0]
    assert top["username"] == "ann" and top["score"] == 8 and top["fire"] is True
    assert top["tiebreaks"] == {}
    # Never the same opponent twice in a row.
    for user in (ann, bob, cid, dan):
        opponents = [
            game.seat_of_user(user.pk).opponent.user_id
            for game in games_of(found)
            if user.pk in (game.black_user_id, game.white_user_id)
        ]
        assert all(a != b for a, b in itertools.pairwise(opponents))


def test_a_paused_arena_player_is_not_paired_until_back() -> None:
    found = tournament()
    _ann, _bob, cid = joined(found, "ann", "bob", "cid")
    services.pause(user_id=cid.pk, tournament_id=found.pk)
    [game] = services.advance(tournament_id=found.pk, now=START, seed=3)
    assert cid.pk not in (game.black_user_id, game.white_user_id)
    services.join(user_id=cid.pk, tournament_id=found.pk)
    assert not Entry.objects.get(user=cid).paused


def test_no_new_arena_pairing_in_the_last_minute_and_the_end_waits_for_the_last_game() -> None:
    found = tournament(duration=10)
    ann, bob, cid, dan = joined(found, "ann", "bob", "cid", "dan")
    [first, second] = services.advance(tournament_id=found.pk, now=START, seed=2)
    late = START + datetime.timedelta(minutes=9, seconds=30)
    win(first, ann if ann.pk in (first.black_user_id, first.white_user_id) else bob)
    win(second, cid if cid.pk in (second.black_user_id, second.white_user_id) else dan)
    assert services.advance(tournament_id=found.pk, now=late) == []
    # A game in progress at the end counts; the arena finishes once it has ended.
    found.refresh_from_db()
    assert found.status == "running"
    end = START + datetime.timedelta(minutes=10)
    services.advance(tournament_id=found.pk, now=end)
    found.refresh_from_db()
    assert found.status == "finished"


def test_an_arena_game_in_progress_at_the_end_counts_before_the_finish() -> None:
    found = tournament(duration=10)
    ann, _bob = joined(found, "ann", "bob")
    [game] = services.advance(tournament_id=found.pk, now=START, seed=2)
    end = START + datetime.timedelta(minutes=11)
    services.advance(tournament_id=found.pk, now=end)
    found.refresh_from_db()
    assert found.status == "running"
    win(game, ann)
    services.advance(tournament_id=found.pk, now=end)
    assert json_of(found)["status"] == "finished"
    assert points(found) == {"ann": 2, "bob": 0}


# Berserk


def test_berserk_halves_ones_own_clock_before_ones_first_move_once() -> None:
    found = tournament()
    ann, _bob = joined(found, "ann", "bob")
    [game] = services.advance(tournament_id=found.pk, now=START, seed=2)
    services.berserk(player=player(ann), game_id=game.public_id)
    game.refresh_from_db()
    color = "black" if game.black_user_id == ann.pk else "white"
    other = "white" if color == "black" else "black"
    assert game.clocks[color]["remaining_ms"] == 90_000
    assert game.clocks[other]["remaining_ms"] == 180_000
    with pytest.raises(GameError):
        services.berserk(player=player(ann), game_id=game.public_id)
    game.refresh_from_db()
    assert game.clocks[color]["remaining_ms"] == 90_000
    pairing = TournamentPairing.objects.get(game=game)
    assert pairing.berserk(color) and not pairing.berserk(other)


def test_berserk_is_for_an_arenas_players_only() -> None:
    found = tournament("swiss")
    ann, _bob = joined(found, "ann", "bob")
    [game] = services.advance(tournament_id=found.pk, now=START)
    with pytest.raises(GameError):
        services.berserk(player=player(ann), game_id=game.public_id)
    arena = tournament(name="arena")
    _cid, _dan = joined(arena, "cid", "dan")
    [game] = services.advance(tournament_id=arena.pk, now=START, seed=1)
    with pytest.raises(GameError) as refused:
        services.berserk(player=Player(session_key="someone"), game_id=game.public_id)
    assert refused.value.code == "not_a_player"


# Swiss, McMahon, round robin


def test_a_swiss_pairs_each_round_when_the_last_ends_with_a_bye_never_twice() -> None:
    found = tournament("swiss", rounds=3)
    users = joined(found, "ann", "bob", "cid", "dan", "eve")
    byes: list[str] = []
    met: set[frozenset[int]] = set()
    for number in (1, 2, 3):
        made = services.advance(tournament_id=found.pk, now=START)
        assert len(made) == 2
        found.refresh_from_db()
        assert found.round == number
        [bye] = TournamentPairing.objects.filter(tournament=found, round=number, game=None)
        byes.append(bye.black.username)
        # Half the round ended: no next round yet.
        win(made[0], next(user for user in users if user.pk == made[0].black_user_id))
        assert services.advance(tournament_id=found.pk, now=START) == []
        draw(made[1])
        for game in made:
            pair = frozenset((game.black_user_id, game.white_user_id))
            assert pair not in met
            met.add(pair)
    assert len(set(byes)) == 3
    services.advance(tournament_id=found.pk, now=START)
    data = json_of(found)
    assert data["status"] == "finished" and data["round"] == 3
    assert set(data["players"][0]["tiebreaks"]) == {
        "buchholz",
        "sonneborn_berger",
        "disc_difference",
    }
    assert sum(row["score"] for row in data["players"]) == 3 * (2 + 1)  # 2 games + a bye
    byes_json = [p for p in data["pairings"] if p["result"] == "bye"]
    assert all(p["game_id"] is None and p["white"] is None for p in byes_json)


def test_a_swiss_player_who_withdraws_is_paired_no_more() -> None:
    found = tournament("swiss", rounds=2)
    ann, _bob, cid, dan = joined(found, "ann", "bob", "cid", "dan")
    made = services.advance(tournament_id=found.pk, now=START)
    services.withdraw(user_id=dan.pk, tournament_id=found.pk)
    for game in made:
        win(game, ann if ann.pk in (game.black_user_id, game.white_user_id) else cid)
    services.advance(tournament_id=found.pk, now=START)
    second = TournamentPairing.objects.filter(tournament=found, round=2)
    assert dan.pk not in {p.black_id for p in second} | {p.white_id for p in second}
    assert second.filter(game=None).count() == 1  # three players: a bye


def test_a_mcmahon_starts_stronger_players_ahead() -> None:
    from players.models import Rating

    found = tournament(
        "mcmahon",
        kind="go",
        size=9,
        bar=32,  # 3d
        time_control=__import__("gamerules.clock", fromlist=["TimeControl"]).TimeControl.byoyomi(
            main_time=300, periods=3, period_time=30
        ),
    )
    strong, weak = joined(found, "strong", "weak")
    category = selectors.category_of(found)
    Rating.objects.create(user=strong, category=category, rating=2400.0)
    Rating.objects.create(user=weak, category=category, rating=1200.0)
    data = json_of(found)
    by_name = {row["username"]: row for row in data["players"]}
    assert by_name["strong"]["score"] == 0 and by_name["weak"]["score"] < 0
    assert set(by_name["weak"]["tiebreaks"]) == {"sos", "sodos"}
    [game] = services.advance(tournament_id=found.pk, now=START)
    win(game, weak)
    assert {row["username"]: row["score"] for row in json_of(found)["players"]}["weak"] == (
        by_name["weak"]["score"] + 1
    )


def test_a_round_robin_plays_every_pair_once() -> None:
    found = tournament("roundrobin")
    users = joined(found, "ann", "bob", "cid", "dan")
    met: list[frozenset[int]] = []
    while True:
        made = services.advance(tournament_id=found.pk, now=START)
        if not made:
            break
        for game in made:
            met.append(frozenset((game.black_user_id, game.white_user_id)))
            win(game, next(user for user in users if user.pk == game.black_user_id))
    assert len(met) == len(set(met)) == 6
    found.refresh_from_db()
    assert found.status == "finished" and found.round == 3
    late = account("late")
    with pytest.raises(TournamentError):
        services.join(user_id=late.pk, tournament_id=found.pk)


# Rating, G


def test_a_rated_tournaments_games_are_rated_and_carry_the_tournament_in_g() -> None:
    found = tournament("swiss", rated=True, rounds=1)
    ann, _bob = joined(found, "ann", "bob")
    [game] = services.advance(tournament_id=found.pk, now=START)
    assert game.rated
    state = states.game_state(Game.objects.get(pk=game.pk), you=None)
    assert state["tournament"] == {"id": found.pk, "name": found.name, "round": 1}
    from games.services import lobby, play

    other = lobby.create_game(
        player=player(ann), new=lobby.NewGame(kind="othello", size=8, color="black", name="")
    )
    assert states.game_state(other, you=None)["tournament"] is None
    # Each side moves (a rated game needs a move of each), then black resigns.
    game.refresh_from_db()
    black, white = Player(user_id=game.black_user_id), Player(user_id=game.white_user_id)
    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
    play.play(player=white, game_id=game.public_id, ply=1, point=[2, 2])
    play.resign(player=black, game_id=game.public_id)
    assert RatingChange.objects.filter(game_id=game.pk).count() == 2


# Exclusivity: one loop, one pairing a player


def test_two_loops_at_once_pair_each_player_once() -> None:
    """Two threads (two connections, as two processes) run the loop at the same moment,
    again and again: every player is in one game of a wave at most."""
    found = tournament()
    joined(found, *(f"p{n}" for n in range(10)))

    def run() -> None:
        for _ in range(3):
            services.tick(now=START)

    assert at_once(run, run) == [None, None]
    made = games_of(found)
    seated = [user for game in made for user in (game.black_user_id, game.white_user_id)]
    assert len(made) == 5
    assert len(seated) == len(set(seated)) == 10


def test_two_advances_at_once_without_the_loops_lock_pair_a_round_once() -> None:
    """Without the loop's lock (two processes whose locks disagree, say), the tournament's
    row lock alone keeps a Swiss round from being paired twice."""
    found = tournament("swiss")
    joined(found, *(f"p{n}" for n in range(8)))

    def run() -> int:
        return len(services.advance(tournament_id=found.pk, now=START))

    made = at_once(run, run)
    assert sorted(made) == [0, 4]
    assert TournamentPairing.objects.filter(tournament=found).count() == 4


def test_a_pairing_that_fails_midway_leaves_nothing_and_is_done_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A process killed while pairing a round: its transaction rolls back whole (no game,
    no pairing, the round not moved on), and the next tick pairs the round."""
    found = tournament("swiss")
    joined(found, "ann", "bob", "cid", "dan")
    real = TournamentPairing.objects.bulk_create

    def killed(*args: object, **kwargs: object) -> None:
        raise SystemExit("killed")

    monkeypatch.setattr(TournamentPairing.objects, "bulk_create", killed)
    with pytest.raises(SystemExit):
        services.advance(tournament_id=found.pk, now=START)
    assert not Game.objects.exists() and not TournamentPairing.objects.exists()
    found.refresh_from_db()
    assert found.round == 0
    monkeypatch.setattr(TournamentPairing.objects, "bulk_create", real)
    assert len(services.advance(tournament_id=found.pk, now=START)) == 2


def test_while_one_process_holds_the_loop_another_turn_does_nothing() -> None:
    """While one connection (a process) runs the loop, another's turn pairs nobody; the
    next turn, once it is free, does."""
    found = tournament()
    joined(found, "ann", "bob")
    with held_elsewhere(services.loop_lock):
        assert services.tick(now=START) is None
        assert not Game.objects.exists()
    assert services.tick(now=START) == 1


def test_an_arena_player_who_never_moves_is_paused_until_back() -> None:
    """A game aborted because a player never made its first move is that player's loss,
    and the arena pauses it (it has left); joining again brings it back."""
    from games.services import ending

    found = tournament()
    ann, bob = joined(found, "ann", "bob")
    [game] = services.advance(tournament_id=found.pk, now=START, seed=1)
    game.refresh_from_db()
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        ending.end_aborted(locked, Game.AbortReason.FIRST_MOVE)  # black never moved
    Game.objects.filter(pk=game.pk).update(finished_at=START + datetime.timedelta(seconds=1))
    missing, there = (ann, bob) if game.black_user_id == ann.pk else (bob, ann)
    assert points(found) == {there.username: 2, missing.username: 0}
    assert services.advance(tournament_id=found.pk, now=LATER) == []
    assert Entry.objects.get(user=missing).paused and not Entry.objects.get(user=there).paused
    services.join(user_id=missing.pk, tournament_id=found.pk, now=LATER)
    assert not Entry.objects.get(user=missing).paused
    # Back, and paired again (not with its last opponent: with a newcomer).
    [cid] = joined(found, "cid")
    [again] = services.advance(tournament_id=found.pk, now=LATER, seed=1)
    assert not Entry.objects.get(user=missing).paused
    assert cid.pk in (again.black_user_id, again.white_user_id)


def test_a_game_that_ends_tells_the_pages_at_the_loops_next_turn() -> None:
    import json

    import broadcast

    found = tournament("swiss")
    ann, _bob = joined(found, "ann", "bob")
    [game] = services.advance(tournament_id=found.pk, now=START)
    with broadcast.outbox() as kept:
        win(game, ann)
        assert not [group for group, _ in kept if group.startswith("tournament.")]
        services.send_later_standings()
        [(group, event)] = [(g, e) for g, e in kept if g.startswith("tournament.")]
        services.send_later_standings()  # once
        assert len([g for g, _ in kept if g.startswith("tournament.")]) == 1
    assert group == f"tournament.{found.pk}"
    standings = json.loads(event["whole"])
    assert standings["type"] == "standings"
    top = standings["tournament"]["players"][0]
    assert (top["username"], top["score"]) == ("ann", 1.0)


# Taken to the game; a player who never comes


def game_ready(kept: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    return [(group, event) for group, event in kept if event["type"] == "account.game_ready"]


def test_every_paired_account_hears_game_ready_once_the_round_commits() -> None:
    found = tournament("swiss")
    ann, bob, cid = joined(found, "ann", "bob", "cid")
    with broadcast.outbox() as kept:
        [game] = services.advance(tournament_id=found.pk, now=START)
    ready = {"type": "account.game_ready", "game": game.public_id, "tournament": found.pk}
    assert sorted(game_ready(kept)) == sorted(
        [(f"account.{game.black_user_id}", ready), (f"account.{game.white_user_id}", ready)]
    )
    # The bye's player has no game to open.
    [bye] = TournamentPairing.objects.filter(tournament=found, game=None)
    assert f"account.{bye.black_id}" not in {group for group, _ in game_ready(kept)}
    assert {bye.black_id, game.black_user_id, game.white_user_id} == {ann.pk, bob.pk, cid.pk}


def test_a_wave_rolled_back_opens_no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    found = tournament()
    joined(found, "ann", "bob")

    def killed(*args: object, **kwargs: object) -> None:
        raise SystemExit("killed")

    monkeypatch.setattr(TournamentPairing.objects, "bulk_create", killed)
    with broadcast.outbox() as kept, pytest.raises(SystemExit):
        services.advance(tournament_id=found.pk, now=START, seed=1)
    assert game_ready(kept) == []


@pytest.mark.parametrize(
    ("system", "flag", "words"),
    [
        ("arena", "paused", "you are paused. Resume on the tournament's page"),
        ("swiss", "withdrawn", "withdrawn from the later rounds. Join again"),
        ("roundrobin", "withdrawn", "withdrawn from the later rounds."),
    ],
)
def test_a_player_who_never_moves_loses_is_dropped_and_told(
    system: str, flag: str, words: str
) -> None:
    found = tournament(system)
    ann, bob = joined(found, "ann", "bob")
    [game] = services.advance(tournament_id=found.pk, now=START, seed=1)
    unplayed(game)  # black never moved
    missing, there = (ann, bob) if game.black_user_id == ann.pk else (bob, ann)
    # Readable from the stored game alone (a playban counts these).
    assert (game.status, game.abort_reason, game.to_move) == ("aborted", "first_move", "black")
    assert services.advance(tournament_id=found.pk, now=LATER, seed=1) == []
    assert getattr(Entry.objects.get(user=missing), flag)
    assert not getattr(Entry.objects.get(user=there), flag)
    [told] = Notification.objects.filter(kind="tournament_forfeit")
    assert told.user_id == missing.pk and words in told.text
    assert told.url == f"/tournaments/{found.pk}/"
    # Told once, however many turns follow.
    services.advance(tournament_id=found.pk, now=LATER, seed=1)
    assert Notification.objects.filter(kind="tournament_forfeit").count() == 1


def test_a_swiss_forfeit_is_in_both_sheets_and_the_next_round_goes_on_without_the_absent() -> None:
    found = tournament("swiss", rounds=3)
    ann, bob, cid = joined(found, "ann", "bob", "cid")
    names = {user.pk: user.username for user in (ann, bob, cid)}
    [game] = services.advance(tournament_id=found.pk, now=START)
    [bye] = TournamentPairing.objects.filter(tournament=found, round=1, game=None)
    black, white = game.black_user_id, game.white_user_id
    unplayed(game)
    [second] = services.advance(tournament_id=found.pk, now=LATER)
    assert {second.black_user_id, second.white_user_id} == {white, bye.black_id}
    sheets = {row["username"]: row["sheet"] for row in json_of(found)["players"]}
    assert sheets[names[black]] == [
        {"round": 1, "opponent": names[white], "color": "black", "result": "forfeit_loss"}
    ]
    assert sheets[names[white]][0] == {
        "round": 1,
        "opponent": names[black],
        "color": "white",
        "result": "forfeit_win",
    }
    assert sheets[names[bye.black_id]][0] == {
        "round": 1,
        "opponent": None,
        "color": None,
        "result": "bye",
    }
    # Back in: the next round has it again, and it is not dropped again for round 1.
    services.join(user_id=black, tournament_id=found.pk, now=LATER)
    win(second, ann if ann.pk in (second.black_user_id, second.white_user_id) else bob)
    services.advance(tournament_id=found.pk, now=LATER)
    third = TournamentPairing.objects.filter(tournament=found, round=3)
    assert black in {p.black_id for p in third} | {p.white_id for p in third}
    assert not Entry.objects.get(user_id=black).withdrawn


def test_a_player_with_a_bye_is_told() -> None:
    found = tournament("swiss")
    joined(found, "ann", "bob", "cid")
    services.advance(tournament_id=found.pk, now=START)
    [bye] = TournamentPairing.objects.filter(tournament=found, game=None)
    [told] = Notification.objects.filter(user_id=bye.black_id, kind="round_paired")
    assert told.text == "The swiss, round 1: you have a bye, which scores as a win."
    assert told.url == f"/tournaments/{found.pk}/"


def test_an_arena_tells_each_player_of_its_games_in_one_notification_updated() -> None:
    found = tournament()
    users = joined(found, "ann", "bob", "cid", "dan")
    ann = users[0]
    seen = []
    for wave in range(3):
        now = LATER + datetime.timedelta(seconds=wave)
        made = services.advance(tournament_id=found.pk, now=now, seed=wave)
        assert len(made) == 2
        [mine] = [game for game in made if ann.pk in (game.black_user_id, game.white_user_id)]
        [told] = Notification.objects.filter(user=ann, kind="round_paired")
        assert told.url == f"/games/{mine.public_id}/" and told.read_at is None
        assert told.created_at == now
        seen.append(told.pk)
        Notification.objects.filter(pk=told.pk).update(read_at=now)  # read on the bell
        for game in made:
            win(game, next(user for user in users if user.pk == game.black_user_id))
    assert len(set(seen)) == 1
    assert Counter(
        Notification.objects.filter(kind="round_paired").values_list("user", flat=True)
    ) == {user.pk: 1 for user in users}


def test_an_arena_sheet_is_a_line_a_game_in_order() -> None:
    found = tournament()
    ann, bob, _cid = joined(found, "ann", "bob", "cid")
    [first] = services.advance(tournament_id=found.pk, now=START, seed=1)
    games = [first]
    for wave in range(1, 4):
        finished = games[-1]
        win(finished, ann if ann.pk in (finished.black_user_id, finished.white_user_id) else bob)
        [game] = services.advance(
            tournament_id=found.pk, now=LATER + datetime.timedelta(seconds=wave), seed=1
        )
        games.append(game)
    rows = {row["username"]: row for row in json_of(found)["players"]}
    for row in rows.values():
        assert [line["game"] for line in row["sheet"]] == row["games"]
        finished = [line["points"] for line in row["sheet"] if line["points"] is not None]
        assert sum(finished) == row["score"]
        assert all(line["berserk"] is False for line in row["sheet"])
    # The game being played has no points yet.
    assert any(line["points"] is None for row in rows.values() for line in row["sheet"])


# The chat


def test_an_entrant_speaks_in_the_chat_and_its_pages_hear_it() -> None:
    found = tournament("swiss")
    [ann] = joined(found, "ann")
    with broadcast.outbox() as kept:
        services.say(user_id=ann.pk, tournament_id=found.pk, text="  good luck all ", now=START)
    [(group, event)] = [(g, e) for g, e in kept if e["type"] == "tournament.chat"]
    assert group == f"tournament.{found.pk}"
    said = json.loads(event["whole"])
    assert said == {
        "type": "chat",
        "username": "ann",
        "text": "good luck all",
        "at": START.isoformat(),
    }
    assert json_of(found)["chat"] == [
        {"username": "ann", "text": "good luck all", "at": START.isoformat()}
    ]


@pytest.mark.parametrize(
    ("who", "text", "code"),
    [
        ("stranger", "hello", "not_a_player"),
        ("visitor", "hello", "not_a_player"),
        ("ann", "", "bad_request"),
        ("ann", "   ", "bad_request"),
        ("ann", "x" * 301, "bad_request"),
        ("ann", ["hello"], "bad_request"),
    ],
)
def test_the_chat_refuses_strangers_and_bad_lines(who: str, text: object, code: str) -> None:
    found = tournament("swiss")
    joined(found, "ann")
    stranger = account("stranger")
    user_id = {"ann": Entry.objects.get().user_id, "stranger": stranger.pk, "visitor": None}[who]
    with pytest.raises(TournamentError) as refused:
        services.say(user_id=user_id, tournament_id=found.pk, text=text)
    assert refused.value.code == code
    assert not ChatLine.objects.exists()


def test_a_withdrawn_entrant_still_speaks_and_t_carries_the_latest_fifty_lines() -> None:
    found = tournament("swiss")
    ann, _bob = joined(found, "ann", "bob")
    services.advance(tournament_id=found.pk, now=START)
    services.withdraw(user_id=ann.pk, tournament_id=found.pk)
    for n in range(55):
        services.say(
            user_id=ann.pk,
            tournament_id=found.pk,
            text=f"line {n}",
            now=START + datetime.timedelta(seconds=2 * n),  # within the chat's rate
        )
    chat = json_of(found)["chat"]
    assert [line["text"] for line in chat] == [f"line {n}" for n in range(5, 55)]
