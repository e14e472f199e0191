"""Playbans through the games that earn them and the places that refuse them, with
Django's clock frozen (``frozen_clock``): three games in a day ended at the first-move
deadline without the account's move, or one started game left to time out (or to be
claimed) while disconnected, keep it out of the seeks, the pools and the tournaments'
joins for 15 minutes, doubling at each repeat up to a day; games against the computer
and correspondence games never count. Challenges, joining a friend's game and the
pairings of a tournament it is in go on; the playban ends at its ``until``; staff see
it at the desk and may lift it."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AbstractBaseUser, User
from django.utils import timezone

from accounts import standing
from accounts.models import Account
from accounts.players import Player
from challenges import services as challenges
from gamerules.clock import TimeControl
from games.models import Game
from games.services import clock as clock_services
from games.services import lobby as lobby_services
from games.services import play, presence
from moderation import services
from moderation.models import Action, Playban, PlaybanOffence
from moderation.services import playbans
from pairing import services as pairing
from pairing.models import Seek
from pairing.pools import POOLS
from pairing.services import PairingError
from tests.conftest import FrozenClock
from tests.moderation.helpers import (
    CLOCK,
    account,
    game_between,
    logged_in,
    player,
    reported,
    staff,
    waiting_game,
)
from tests.pairing.test_consumers import BLITZ, lobby, visit
from tests.tournaments.helpers import START
from tests.tournaments.helpers import tournament as new_tournament
from tournaments import services as tournaments
from tournaments.services import TournamentError

pytestmark = pytest.mark.django_db

MINUTE = datetime.timedelta(minutes=1)
HOUR = datetime.timedelta(hours=1)
JSON = {"HTTP_ACCEPT": "application/json"}
FIRST_MOVES = ([2, 3], [2, 2])  # Black's d3, White's c3 on 8x8 Othello
Commits = Callable[..., Any]


@pytest.fixture
def ann() -> AbstractBaseUser:
    return account("ann")


@pytest.fixture
def bob() -> AbstractBaseUser:
    return account("bob")


@pytest.fixture
def commits(django_capture_on_commit_callbacks: Any) -> Commits:
    """What runs after a commit (the judging of an offence) runs, as in a server."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def unmoved(
    ann: AbstractBaseUser, bob: AbstractBaseUser, clock: FrozenClock, commits: Commits
) -> Game:
    """A game of Ann's (Black) that ended at the first-move deadline without her move."""
    game = game_between(ann, bob)
    clock.advance(30)  # FIRST_MOVE_SECONDS
    with commits():
        clock_services.flag(game_id=game.public_id)
    game.refresh_from_db()
    assert (game.status, game.abort_reason, game.to_move) == ("aborted", "first_move", "black")
    return game


def started(ann: AbstractBaseUser, bob: AbstractBaseUser, control: TimeControl = CLOCK) -> Game:
    """A game where Ann (Black) and Bob each made their first move: Ann's clock runs."""
    game = waiting_game(ann, time_control=control)
    lobby_services.join_game(player=player(bob), game_id=game.public_id, name="")
    for ply, (who, point) in enumerate(zip((ann, bob), FIRST_MOVES, strict=True)):
        play.play(player=player(who), game_id=game.public_id, ply=ply, point=point)
    return game


def run_out(game: Game, clock: FrozenClock, commits: Commits, seconds: float = 301) -> Game:
    """The side to move's clock runs out, and the clock watch flags the game."""
    clock.advance(seconds)
    with commits():
        clock_services.flag(game_id=game.public_id)
    game.refresh_from_db()
    assert game.result.endswith("+T"), game.result
    return game


def until(user: AbstractBaseUser) -> datetime.datetime | None:
    found = standing.playbanned(user.pk)
    return None if found is None else found.until


def seek(user: AbstractBaseUser, message: dict[str, Any] | None = None) -> Seek:
    return pairing.seek(
        player=Player(session_key=f"{user.pk}-session", user_id=user.pk),
        user=user,
        name=user.get_username(),
        message=message or POOLS[1].seek(rated=False),
        now=timezone.now(),
    )


# What counts


def test_the_third_game_in_a_day_ended_without_a_move_costs_15_minutes(
    ann: AbstractBaseUser, bob: AbstractBaseUser, frozen_clock: FrozenClock, commits: Commits
) -> None:
    unmoved(ann, bob, frozen_clock, commits)
    frozen_clock.advance(3600)
    unmoved(ann, bob, frozen_clock, commits)
    assert until(ann) is None
    assert until(bob) is None

    frozen_clock.advance(20 * 3600)
    third = unmoved(ann, bob, frozen_clock, commits)

    assert until(ann) == frozen_clock.now + 15 * MINUTE
    assert Account.objects.get(user=ann).playban_reason == "no_move"
    [given] = Playban.objects.filter(account=ann)
    assert (given.reason, given.at, given.until) == ("no_move", frozen_clock.now, until(ann))
    assert set(given.offences.values_list("game", flat=True)) >= {third.pk}
    assert given.offences.count() == 3
    assert until(bob) is None  # he was there


def test_each_repeat_doubles_the_playban(
    ann: AbstractBaseUser, bob: AbstractBaseUser, frozen_clock: FrozenClock, commits: Commits
) -> None:
    lengths = []
    for _ in range(3):
        for _ in range(3):
            unmoved(ann, bob, frozen_clock, commits)
        lengths.append(until(ann) - frozen_clock.now)
        frozen_clock.advance(2 * 3600)  # served

    assert lengths == [15 * MINUTE, 30 * MINUTE, 60 * MINUTE]
    assert Playban.objects.filter(account=ann).count() == 3


def test_the_playban_is_at_most_a_day(
    ann: AbstractBaseUser, bob: AbstractBaseUser, frozen_clock: FrozenClock, commits: Commits
) -> None:
    for hours in range(1, 9):  # eight earlier playbans this week, each served
        at = frozen_clock.now - hours * HOUR * 12
        Playban.objects.create(account=ann, reason="no_move", at=at, until=at + MINUTE)
    for _ in range(3):
        unmoved(ann, bob, frozen_clock, commits)
    assert until(ann) == frozen_clock.now + 24 * HOUR


def test_games_without_a_move_more_than_a_day_old_are_forgotten(
    ann: AbstractBaseUser, bob: AbstractBaseUser, frozen_clock: FrozenClock, commits: Commits
) -> None:
    unmoved(ann, bob, frozen_clock, commits)
    unmoved(ann, bob, frozen_clock, commits)
    frozen_clock.advance(24 * 3600)
    unmoved(ann, bob, frozen_clock, commits)
    assert until(ann) is None
    unmoved(ann, bob, frozen_clock, commits)
    unmoved(ann, bob, frozen_clock, commits)
    assert until(ann) == frozen_clock.now + 15 * MINUTE


def test_a_game_counts_towards_one_playban_only(
    ann: AbstractBaseUser, bob: AbstractBaseUser, frozen_clock: FrozenClock, commits: Commits
) -> None:
    for _ in range(3):
        unmoved(ann, bob, frozen_clock, commits)
    assert playbans.judge(user_id=ann.pk) is None  # judged again: nothing new
    frozen_clock.advance(20 * 60)  # served
    unmoved(ann, bob, frozen_clock, commits)
    assert until(ann) is None  # one more, not three
    assert Playban.objects.filter(account=ann).count() == 1


def test_white_who_never_moves_after_blacks_first_move_counts_black_does_not(
    ann: AbstractBaseUser, bob: AbstractBaseUser, frozen_clock: FrozenClock, commits: Commits
) -> None:
    for _ in range(3):
        game = game_between(ann, bob)
        play.play(player=player(ann), game_id=game.public_id, ply=0, point=FIRST_MOVES[0])
        frozen_clock.advance(30)
        with commits():
            clock_services.flag(game_id=game.public_id)
    assert until(bob) == frozen_clock.now + 15 * MINUTE
    assert until(ann) is None


def test_games_against_the_computer_never_count(
    ann: AbstractBaseUser, frozen_clock: FrozenClock, commits: Commits
) -> None:
    for _ in range(3):
        game = lobby_services.create_game(
            player=player(ann),
            new=lobby_services.NewGame(
                kind="othello",
                size=8,
                color="black",
                name="",
                time_control=CLOCK,
                opponent="computer",
                level=1,
            ),
        )
        frozen_clock.advance(30)
        with commits():
            clock_services.flag(game_id=game.public_id)
        game.refresh_from_db()
        assert (game.status, game.abort_reason) == ("aborted", "first_move")
    assert until(ann) is None
    assert not PlaybanOffence.objects.exists()


def test_a_correspondence_game_left_to_time_out_never_counts(
    ann: AbstractBaseUser, bob: AbstractBaseUser, frozen_clock: FrozenClock, commits: Commits
) -> None:
    game = started(ann, bob, TimeControl.correspondence(days=1))
    run_out(game, frozen_clock, commits, seconds=86401)  # Ann never came back
    assert until(ann) is None
    assert not PlaybanOffence.objects.exists()


def test_a_started_game_timed_out_while_disconnected_costs_a_playban_at_once(
    ann: AbstractBaseUser, bob: AbstractBaseUser, frozen_clock: FrozenClock, commits: Commits
) -> None:
    game = started(ann, bob)
    presence.connected(player=player(ann), game_id=game.public_id, process="p", channel_name="a")
    presence.disconnected(channel_name="a")  # she closed the tab

    run_out(game, frozen_clock, commits)

    assert until(ann) == frozen_clock.now + 15 * MINUTE
    assert Account.objects.get(user=ann).playban_reason == "left"
    assert until(bob) is None


def test_a_started_game_timed_out_while_connected_costs_nothing(
    ann: AbstractBaseUser, bob: AbstractBaseUser, frozen_clock: FrozenClock, commits: Commits
) -> None:
    game = started(ann, bob)
    presence.connected(player=player(ann), game_id=game.public_id, process="p", channel_name="a")

    run_out(game, frozen_clock, commits)  # at the table, thinking too long

    assert until(ann) is None
    assert not PlaybanOffence.objects.exists()


def test_a_started_game_claimed_after_the_player_left_costs_a_playban(
    ann: AbstractBaseUser,
    bob: AbstractBaseUser,
    frozen_clock: FrozenClock,
    commits: Commits,
    settings: Any,
) -> None:
    game = started(ann, bob)
    presence.connected(player=player(ann), game_id=game.public_id, process="p", channel_name="a")
    presence.disconnected(channel_name="a")
    frozen_clock.advance(settings.ABANDON_SECONDS)

    with commits():
        presence.claim(player=player(bob), game_id=game.public_id)

    game.refresh_from_db()
    assert game.result == "W+F"
    assert until(ann) == frozen_clock.now + 15 * MINUTE
    assert Account.objects.get(user=ann).playban_reason == "left"


# What a playban refuses, and what it leaves open


@pytest.fixture
def banned(
    ann: AbstractBaseUser, bob: AbstractBaseUser, frozen_clock: FrozenClock, commits: Commits
) -> datetime.datetime:
    """Ann is playbanned for 15 minutes: its end."""
    for _ in range(3):
        unmoved(ann, bob, frozen_clock, commits)
    found = until(ann)
    assert found is not None
    return found


def test_a_playbanned_accounts_seeks_and_pool_clicks_are_refused_with_until(
    ann: AbstractBaseUser, banned: datetime.datetime
) -> None:
    custom = {"type": "seek", "kind": "go", "size": 9, "clock": "none", "range": None}
    for message in (POOLS[1].seek(rated=False), POOLS[1].seek(rated=True), custom):
        with pytest.raises(PairingError) as refused:
            seek(ann, message)
        assert refused.value.code == "playban"
        assert refused.value.details == {"until": banned.isoformat()}
        assert refused.value.message.startswith(
            "you cannot seek a game, join a pool or join a tournament until "
        )
        assert refused.value.message.endswith(
            "(in 15\xa0minutes): you let games end without making your first move"
        )
    assert not Seek.objects.exists()


def test_a_malformed_seek_is_told_what_is_wrong_first(
    ann: AbstractBaseUser, banned: datetime.datetime
) -> None:
    with pytest.raises(PairingError) as refused:
        seek(ann, {**POOLS[1].seek(rated=False), "size": 7})
    assert refused.value.code == "bad_request"


def test_the_playban_ends_at_its_until(
    ann: AbstractBaseUser, banned: datetime.datetime, frozen_clock: FrozenClock
) -> None:
    frozen_clock.now = banned - datetime.timedelta(seconds=1)
    with pytest.raises(PairingError):
        seek(ann)
    frozen_clock.now = banned
    assert until(ann) is None
    assert seek(ann).user_id == ann.pk
    tournaments.join(user_id=ann.pk, tournament_id=new_tournament().pk)


def test_a_seek_waiting_when_the_playban_starts_is_withdrawn_its_pages_told_why(
    ann: AbstractBaseUser,
    bob: AbstractBaseUser,
    frozen_clock: FrozenClock,
    commits: Commits,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    told: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr("broadcast.send_to_group", lambda group, event: told.append((group, event)))
    unmoved(ann, bob, frozen_clock, commits)
    unmoved(ann, bob, frozen_clock, commits)
    seek(ann)  # in another tab, meanwhile

    unmoved(ann, bob, frozen_clock, commits)

    assert not Seek.objects.exists()
    [(group, event)] = [(group, event) for group, event in told if group.startswith("seeker.")]
    assert group == f"seeker.{ann.pk}-session"
    assert event["type"] == "pairing.news"
    refusal = event["message"]
    assert (refusal["type"], refusal["code"]) == ("error", "playban")
    assert refusal["until"] == until(ann).isoformat()  # type: ignore[union-attr]


def test_a_playbanned_account_joins_no_tournament_over_http(
    ann: AbstractBaseUser, banned: datetime.datetime
) -> None:
    found = new_tournament()
    client = logged_in(ann)

    refused = client.post(f"/tournaments/{found.pk}/join/", **JSON)
    page = client.post(f"/tournaments/{found.pk}/join/")

    assert refused.status_code == 400
    body = refused.json()
    assert (body["error"], body["until"]) == ("playban", banned.isoformat())
    assert body["message"].startswith("you cannot seek a game, join a pool or join a tournament")
    assert page.status_code == 302
    shown = client.get(page.url).content.decode()
    assert "you cannot seek a game, join a pool or join a tournament until" in shown
    assert 'id="playban-note"' in shown and "How playbans work" in shown
    assert not found.entries.exists()


def test_a_paused_arena_player_resumes_no_more_while_playbanned_but_stays_in(
    ann: AbstractBaseUser, bob: AbstractBaseUser, frozen_clock: FrozenClock, commits: Commits
) -> None:
    found = new_tournament()
    tournaments.join(user_id=ann.pk, tournament_id=found.pk)
    for _ in range(3):
        unmoved(ann, bob, frozen_clock, commits)

    tournaments.join(user_id=ann.pk, tournament_id=found.pk)  # in already: nothing changes
    tournaments.pause(user_id=ann.pk, tournament_id=found.pk)
    with pytest.raises(TournamentError) as refused:
        tournaments.join(user_id=ann.pk, tournament_id=found.pk)
    assert refused.value.code == "playban"


def test_a_playbanned_entrant_of_a_tournament_is_still_paired(
    ann: AbstractBaseUser, bob: AbstractBaseUser, frozen_clock: FrozenClock, commits: Commits
) -> None:
    found = new_tournament(system="swiss", rounds=1)
    for user in (ann, bob):
        tournaments.join(user_id=user.pk, tournament_id=found.pk, now=START)
    for _ in range(3):
        unmoved(ann, bob, frozen_clock, commits)
    assert until(ann) is not None

    [game] = tournaments.advance(tournament_id=found.pk, now=START)

    assert {game.black_user_id, game.white_user_id} == {ann.pk, bob.pk}


def test_challenges_open_games_and_a_friends_game_stay_open(
    ann: AbstractBaseUser, bob: AbstractBaseUser, banned: datetime.datetime
) -> None:
    challenge = challenges.challenge(
        player=player(ann),
        username="bob",
        name="",
        rated=False,
        options={"kind": "othello", "size": 8, "color": "black", "time_control": CLOCK},
    )
    assert challenge.reserved_for_id == bob.pk
    friends = waiting_game(bob)
    joined = lobby_services.join_game(player=player(ann), game_id=friends.public_id, name="")
    assert joined.status == Game.Status.ACTIVE
    assert waiting_game(ann).status == Game.Status.WAITING


# Where it is shown, and staff


def test_the_home_page_says_how_long_and_why(
    ann: AbstractBaseUser, banned: datetime.datetime
) -> None:
    page = logged_in(ann).get("/").content.decode()
    assert 'id="playban-note"' in page
    assert "You cannot seek a game, join a pool or join a tournament until" in page
    assert "you let games end without making your first move" in page
    assert 'id="playban-note"' not in logged_in(account("cid")).get("/").content.decode()


def test_the_desk_shows_the_playbans_and_staff_lift_one(
    ann: AbstractBaseUser,
    bob: AbstractBaseUser,
    banned: datetime.datetime,
    frozen_clock: FrozenClock,
    commits: Commits,
) -> None:
    mod = staff()
    reported(bob, ann)
    desk = logged_in(mod).get("/moderation/ann/").content.decode()
    assert "playbanned until" in desk
    assert 'data-playban-reason="no_move"' in desk
    assert desk.count('href="/games/') >= 3  # the games it counted

    answer = logged_in(mod).post(
        "/moderation/ann/", {"action": "lift_playban", "reason": "the server was down"}, **JSON
    )

    assert answer.json() == {"ok": True}
    assert until(ann) is None
    seek(ann)
    [given] = Playban.objects.filter(account=ann)
    assert given.lifted_at == frozen_clock.now
    entry = Action.objects.get(action="lift_playban")
    assert (entry.account_id, entry.reason) == (ann.pk, "the server was down")
    assert ann.reports_against.filter(closed_at__isnull=True).exists()  # left open
    # A lifted playban does not double the next.
    for _ in range(3):
        unmoved(ann, bob, frozen_clock, commits)
    assert until(ann) == frozen_clock.now + 15 * MINUTE


def test_lifting_without_a_playban_changes_nothing_but_the_log(ann: AbstractBaseUser) -> None:
    services.act(staff_id=staff().pk, username="ann", action="lift_playban", reason="checked")
    assert until(ann) is None
    assert Action.objects.filter(action="lift_playban").count() == 1


@pytest.mark.django_db(transaction=True)
async def test_over_the_lobby_socket_a_seek_is_refused_with_playban_and_until() -> None:
    def ban() -> datetime.datetime | None:
        ann, bob = User.objects.get(username="ann"), account("bob")
        for _ in range(3):  # each game's deadline passed; the clock watch flags it
            game = game_between(ann, bob)
            Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - MINUTE)
            clock_services.flag(game_id=game.public_id)
        return until(ann)

    cookie = await database_sync_to_async(visit)("ann")
    ends = await database_sync_to_async(ban)()
    assert ends is not None
    async with lobby(cookie) as ws:
        await ws.send(BLITZ)
        refusal = await ws.receive_until("error")
        assert refusal["message"].startswith("you cannot seek a game, join a pool")
        assert refusal == {
            "type": "error",
            "code": "playban",
            "message": refusal["message"],
            "field": None,
            "until": ends.isoformat(),
        }
