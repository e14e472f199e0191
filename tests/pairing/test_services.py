"""pairing.services: seeks, the sockets that keep them, and the waves that pair them."""

from __future__ import annotations

import datetime
import functools
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

import broadcast
from accounts.players import Player
from accounts.services import block, make_bot
from games.models import Game, ServerProcess
from games.services import lobby as lobby_services
from games.services import presence
from live import events
from pairing import lobby as lobbies
from pairing import services as pairing
from pairing.models import LobbySocket, Pairing, Seek
from pairing.services import PairingError
from tests.conftest import FrozenClock
from tests.support.concurrency import at_once, held_elsewhere

pytestmark = pytest.mark.django_db(transaction=True)

BLITZ = {"kind": "othello", "size": 8, "clock": "fischer", "main_time": 180, "increment": 2}
POOL = "othello8-fischer-180+2-casual"


class Recorder:
    """The channel layer the events are sent to: what went to each group, decoded."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        if "whole" in message or "text" in message:
            self.sent.extend((group, decoded) for decoded in events.decoded(message))
        else:
            self.sent.append((group, message))

    def to(self, group: str) -> list[dict[str, Any]]:
        return [message for sent_to, message in self.sent if sent_to == group]


def paired_texts(layer: Recorder, session_key: str) -> list[str]:
    """The ``paired`` messages a lobby socket of the session ``session_key`` sent."""
    texts = (
        pairing.paired_text(event, session_key)
        for event in layer.to(lobbies.LOBBY_GROUP)
        if event["type"] == "pairing.paired"
    )
    return [text for text in texts if text is not None]


def lobby_changed(layer: Recorder) -> list[dict[str, Any]]:
    return [event for event in layer.to(lobbies.LOBBY_GROUP) if event["type"] == "lobby.changed"]


@pytest.fixture
def layer(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    recorder = Recorder()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: recorder)
    return recorder


def guest(name: str) -> Player:
    return Player(session_key=f"{name}-session")


def seeking(
    player: Player,
    now: datetime.datetime,
    *,
    user: User | None = None,
    name: str = "Guest",
    process: str = "here",
    **fields: Any,
) -> Seek:
    """``player``'s seek (BLITZ unless ``fields`` say otherwise), a lobby socket of its
    session open on ``process``."""
    assert player.session_key is not None
    pairing.socket_opened(
        session_key=player.session_key, channel_name=f"{player.session_key}-1", process=process
    )
    message = {**BLITZ, **fields}
    return pairing.seek(player=player, user=user, name=name, message=message, now=now)


@pytest.fixture
def now() -> datetime.datetime:
    return datetime.datetime(2026, 11, 24, 12, 0, tzinfo=datetime.UTC)


# Seeking


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"kind": "chess"}, "kind"),
        ({"kind": None}, "kind"),
        ({"size": 7}, "size"),
        ({"size": "8"}, "size"),
        ({"size": 8.0}, "size"),
        ({"size": None}, "size"),
        ({"size": 18}, "size"),
        ({"clock": "hourglass"}, "clock"),
        ({"clock": 3}, "clock"),
        ({"main_time": None}, "main_time"),
        ({"main_time": True}, "main_time"),
        ({"main_time": 0}, "main_time"),
        ({"main_time": 86_401}, "main_time"),
        ({"increment": -1}, "increment"),
        ({"clock": "byoyomi", "periods": 0, "period_time": 30}, "periods"),
        ({"clock": "correspondence", "days": 31}, "days"),
        ({"rated": "yes"}, "rated"),
        ({"rated": 1}, "rated"),
        ({"range": [1800, 1400]}, "range"),
        ({"range": [1400]}, "range"),
        ({"range": "1400-1800"}, "range"),
        ({"range": [True, 1800]}, "range"),
        ({"range": [-5, 1800]}, "range"),
    ],
)
def test_a_bad_field_is_refused_naming_it(
    fields: dict[str, Any], field: str, now: datetime.datetime
) -> None:
    with pytest.raises(PairingError) as refused:
        seeking(guest("ann"), now, **fields)
    assert (refused.value.code, refused.value.field) == ("bad_request", field)
    assert not Seek.objects.exists()


@pytest.mark.parametrize(
    ("fields", "field"),
    [({"size": 8.0}, "size"), ({"increment": True}, "increment"), ({"size": "8"}, "size")],
)
def test_a_field_of_the_wrong_type_is_refused_after_a_good_seek_with_the_same_value(
    now: datetime.datetime, fields: dict[str, Any], field: str
) -> None:
    """8.0 == 8 and True == 1 in Python: the checks remembered for a good seek's fields
    (``_game_fields``) are not the answer for these."""
    seeking(guest("ann"), now, increment=1)
    with pytest.raises(PairingError) as refused:
        seeking(guest("bob"), now, **{"increment": 1, **fields})
    assert (refused.value.code, refused.value.field) == ("bad_request", field)


def test_a_setting_the_clock_does_not_use_may_be_absent_or_is_dropped(
    now: datetime.datetime,
) -> None:
    seek = seeking(guest("ann"), now, clock="correspondence", days=3, main_time=None, periods=9)
    assert seek.time_control == {
        "system": "correspondence",
        "main_time": None,
        "increment": None,
        "periods": None,
        "period_time": None,
        "stones": None,
        "days": 3,
    }
    assert seek.pool == "go19-correspondence-3d-casual".replace("go19", "othello8")


def test_a_seek_without_a_clock_is_casual_only(now: datetime.datetime) -> None:
    casual = seeking(guest("ann"), now, clock="none", main_time=None, increment=None)
    assert casual.pool == "othello8-none-casual"
    user = User.objects.create_user("carol")
    with pytest.raises(PairingError) as refused:
        seeking(Player("carol-session", user.pk), now, user=user, clock="none", rated=True)
    assert (refused.value.code, refused.value.field) == ("bad_request", "rated")


def test_a_guests_rated_seek_is_refused(now: datetime.datetime) -> None:
    with pytest.raises(PairingError) as refused:
        seeking(guest("ann"), now, rated=True)
    assert refused.value.code == "login_required"
    assert not Seek.objects.exists()


def test_a_bot_never_enters_the_pools(now: datetime.datetime) -> None:
    user = User.objects.create_user("robo")
    make_bot(user=user)
    with pytest.raises(PairingError) as refused:
        seeking(Player("robo-session", user.pk), now, user=user)
    assert refused.value.code == "bad_request"
    assert not Seek.objects.exists()


def test_seeks_stored_together_each_at_its_own_rating(
    now: datetime.datetime, django_assert_max_num_queries: Any
) -> None:
    """``seek_many``: each request checked on its own, the ratings and the bots read once
    for all of them; a session's later seek replaces its earlier one."""
    from players.models import Rating

    ann, bob, robo = (User.objects.create_user(name) for name in ("ann", "bob", "robo"))
    make_bot(user=robo)
    Rating.objects.create(user=ann, category="othello8-blitz", rating=1820.0)
    Rating.objects.create(user=bob, category="othello8-blitz", rating=1210.0)
    Rating.objects.create(user=bob, category="go9-rapid", rating=1990.0)
    go9 = {"kind": "go", "size": 9, "clock": "byoyomi", "periods": 5, "period_time": 10}

    def request(user: User | None, session: str, **fields: Any) -> pairing.SeekRequest:
        player = Player(session, user.pk if user is not None else None)
        return pairing.SeekRequest(player, user, "Name", {**BLITZ, **fields}, now)

    with django_assert_max_num_queries(8):
        made = pairing.seek_many(
            [
                request(ann, "ann-1", rated=True),
                request(bob, "bob-1", rated=True),
                request(bob, "bob-2", **go9),
                request(None, "guest-1"),
                request(robo, "robo-1"),
                request(None, "guest-2", rated=True),
                request(ann, "ann-1", rated=True, increment=3),
            ]
        )
    assert [getattr(seek, "rating", None) for seek in made] == [
        1820.0,
        1210.0,
        1990.0,
        1500.0,
        None,
        None,
        1820.0,
    ]
    assert [getattr(seek, "code", None) for seek in made[4:6]] == [
        "bad_request",
        "login_required",
    ]
    stored = dict(Seek.objects.values_list("session_key", "pool"))
    assert stored == {
        "ann-1": "othello8-fischer-180+3-rated",
        "bob-1": "othello8-fischer-180+2-rated",
        "bob-2": "go9-byoyomi-180+5x10-casual",
        "guest-1": POOL,
    }


def test_an_account_seeks_rated_at_its_rating(now: datetime.datetime) -> None:
    user = User.objects.create_user("carol")
    seek = seeking(Player("carol-session", user.pk), now, user=user, name="carol", rated=True)
    assert (seek.pool, seek.category, seek.rating) == (
        "othello8-fischer-180+2-rated",
        "othello8-blitz",
        1500.0,
    )


def test_one_seek_a_session_the_new_one_replaces_the_old(now: datetime.datetime) -> None:
    ann = guest("ann")
    seeking(ann, now)
    seeking(ann, now, kind="go", size=9, clock="byoyomi", periods=5, period_time=10)
    assert list(Seek.objects.values_list("pool", flat=True)) == ["go9-byoyomi-180+5x10-casual"]
    assert pairing.cancel_seek(player=ann) is True
    assert pairing.cancel_seek(player=ann) is False
    assert not Seek.objects.exists()


# The sockets that keep a seek


def test_a_seek_goes_when_its_last_socket_closes(
    now: datetime.datetime, layer: Recorder, django_capture_on_commit_callbacks: Any
) -> None:
    ann = guest("ann")
    seeking(ann, now)
    pairing.socket_opened(session_key="ann-session", channel_name="ann-2", process="there")
    with django_capture_on_commit_callbacks(execute=True):
        assert pairing.socket_closed(channel_name="ann-session-1") is False
    assert Seek.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        assert pairing.socket_closed(channel_name="ann-2") is True  # left alone
    alone = Seek.objects.get().alone_since
    assert alone is not None and not LobbySocket.objects.exists()
    assert layer.to(lobbies.LOBBY_GROUP) == []  # still waiting: the counts are the same
    assert pairing.wave(now=alone + datetime.timedelta(seconds=4)) == []
    assert Seek.objects.exists(), "not paired, not gone: its page is reloading"
    with django_capture_on_commit_callbacks(execute=True):
        pairing.wave(now=alone + datetime.timedelta(seconds=6))
    assert not Seek.objects.exists()
    [lobby] = layer.to(lobbies.LOBBY_GROUP)
    assert lobby["seeking"] == {}


def test_a_seek_left_alone_is_not_paired_until_its_page_is_back(now: datetime.datetime) -> None:
    seeking(guest("ann"), now)
    seeking(guest("bob"), now)
    pairing.socket_closed(channel_name="bob-session-1")  # Bob's page reloads

    assert pairing.wave(now=timezone.now()) == []

    pairing.socket_opened(session_key="bob-session", channel_name="bob-2", process="here")
    assert len(pairing.wave(now=timezone.now()) or []) == 1


def test_a_killed_processs_seeks_go_once_its_heartbeat_is_old(
    now: datetime.datetime, frozen_clock: FrozenClock
) -> None:
    frozen_clock.now = now
    presence.heartbeat(process="alive")
    presence.heartbeat(process="killed")
    seeking(guest("ann"), now, process="alive")
    seeking(guest("bob"), now, process="killed", kind="go", size=9, clock="none")
    frozen_clock.advance(3)
    presence.heartbeat(process="alive")
    assert pairing.forget_dead_sockets(now=frozen_clock.now, timeout=4) == 0
    frozen_clock.advance(2)  # "killed" last seen 5 s ago: its seek is left alone
    assert pairing.forget_dead_sockets(now=frozen_clock.now, timeout=4) == 0
    frozen_clock.advance(5)
    presence.heartbeat(process="alive")
    assert pairing.forget_dead_sockets(now=frozen_clock.now, timeout=4) == 1
    assert list(Seek.objects.values_list("session_key", flat=True)) == ["ann-session"]
    assert ServerProcess.objects.filter(name="killed").exists()  # games' sweep forgets it
    # The process running the wave counts its own sockets, even with a late heartbeat.
    frozen_clock.advance(10)
    assert pairing.forget_dead_sockets(now=frozen_clock.now, timeout=4, alive="alive") == 0
    assert pairing.forget_dead_sockets(now=frozen_clock.now, timeout=4) == 0
    frozen_clock.advance(5)
    assert pairing.forget_dead_sockets(now=frozen_clock.now, timeout=4) == 1


# Waves


def test_a_wave_pairs_two_guests_in_one_game(
    now: datetime.datetime, layer: Recorder, django_capture_on_commit_callbacks: Any
) -> None:
    ann, bob = seeking(guest("ann"), now, name="Ann"), seeking(guest("bob"), now, name="Bob")
    with django_capture_on_commit_callbacks(execute=True):
        [game] = pairing.wave(now=now + datetime.timedelta(seconds=1)) or []
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.ACTIVE
    assert {game.black_name, game.white_name} == {"Ann", "Bob"}
    assert {game.black_session_key, game.white_session_key} == {"ann-session", "bob-session"}
    assert (game.kind, game.size, game.time_control["main_time"], game.turn_started_at) == (
        "othello",
        8,
        180,
        game.turn_started_at,
    )
    assert game.clocks is not None
    paired = Pairing.objects.get(game=game)
    assert (paired.pool, paired.category, paired.rated) == (POOL, "othello8-blitz", False)
    assert (paired.black_rating, paired.white_rating) == (1500.0, 1500.0)
    assert not Seek.objects.exists()
    for seek in (ann, bob):
        assert paired_texts(layer, seek.session_key) == [
            f'{{"type":"paired","game_id":"{game.public_id}"}}'
        ]
    assert paired_texts(layer, "cid-session") == []
    assert lobby_changed(layer)  # the lobby is told (a game began)


def test_incompatible_seeks_wait(now: datetime.datetime) -> None:
    seeking(guest("ann"), now)
    seeking(guest("bob"), now, increment=3)
    user = User.objects.create_user("carol")
    seeking(Player("carol-session", user.pk), now, user=user)
    seeking(Player("carol-other-browser", user.pk), now, user=user, increment=3)
    seeking(guest("dan"), now, range=[1600, 1900])
    # ann with carol (180+2) and bob with carol's other browser (180+3); dan's range
    # (1600-1900) keeps him from ann's and carol's 1500.
    made = pairing.wave(now=now) or []
    assert sorted(sorted((game.black_session_key, game.white_session_key)) for game in made) == [
        ["ann-session", "carol-session"],
        ["bob-session", "carol-other-browser"],
    ]
    assert Game.objects.count() == 2
    assert list(Seek.objects.values_list("session_key", flat=True)) == ["dan-session"]


def test_an_account_is_never_paired_with_one_it_blocks_nor_one_that_blocks_it(
    now: datetime.datetime,
) -> None:
    ann, bob = User.objects.create_user("ann"), User.objects.create_user("bob")
    block(blocker_id=ann.pk, blocked_id=bob.pk)
    seeking(Player("ann-session", ann.pk), now, user=ann)
    seeking(Player("bob-session", bob.pk), now, user=bob)
    assert pairing.wave(now=now + datetime.timedelta(seconds=60)) == []
    seeking(guest("cid"), now)
    [game] = pairing.wave(now=now + datetime.timedelta(seconds=61)) or []
    assert "cid-session" in (game.black_session_key, game.white_session_key)
    assert Seek.objects.count() == 1


def test_the_same_account_in_two_browsers_never_plays_itself(now: datetime.datetime) -> None:
    user = User.objects.create_user("carol")
    seeking(Player("carol-1", user.pk), now, user=user)
    seeking(Player("carol-2", user.pk), now, user=user)
    assert pairing.wave(now=now + datetime.timedelta(seconds=60)) == []
    assert Seek.objects.count() == 2


def test_a_pair_is_one_transaction(now: datetime.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    ann, bob = seeking(guest("ann"), now), seeking(guest("bob"), now)
    original = lobby_services.start_games

    def broken(pairs: list[lobby_services.NewPair]) -> list[Game]:
        assert len(original(pairs)) == 1 and Game.objects.count() == 1
        raise RuntimeError("failed once the game was stored")

    monkeypatch.setattr(lobby_services, "start_games", broken)
    with pytest.raises(RuntimeError):
        pairing.pair(ann.pk, bob.pk)
    assert not Game.objects.exists() and not Pairing.objects.exists()
    assert Seek.objects.count() == 2


def test_a_wave_makes_its_pairs_a_chunk_a_transaction(
    now: datetime.datetime,
    monkeypatch: pytest.MonkeyPatch,
    layer: Recorder,
    django_capture_on_commit_callbacks: Any,
) -> None:
    monkeypatch.setattr(pairing, "CHUNK", 3)
    original = lobby_services.start_games
    calls: list[int] = []

    def counted(pairs: list[lobby_services.NewPair]) -> list[Game]:
        calls.append(len(pairs))
        return original(pairs)

    monkeypatch.setattr(lobby_services, "start_games", counted)
    names = [f"p{n:02d}" for n in range(14)]
    for name in names:
        seeking(guest(name), now, name=name)
    with django_capture_on_commit_callbacks(execute=True):
        made = pairing.wave(now=now) or []
    assert calls == [3, 3, 1]
    assert len(made) == Game.objects.count() == Pairing.objects.count() == 7
    seated = [
        key
        for game in Game.objects.all()
        for key in (game.black_session_key, game.white_session_key)
    ]
    assert sorted(seated) == sorted(f"{name}-session" for name in names)
    assert not Seek.objects.exists()
    for game in Game.objects.all():
        assert game.status == Game.Status.ACTIVE
        for key, name in [
            (game.black_session_key, game.black_name),
            (game.white_session_key, game.white_name),
        ]:
            assert key == f"{name}-session"  # each seat named by its own seek
            assert paired_texts(layer, key) == [f'{{"type":"paired","game_id":"{game.public_id}"}}']
    assert len(lobby_changed(layer)) == 1  # the lobby told once a wave


def test_a_seek_is_never_paired_twice(now: datetime.datetime) -> None:
    ann, bob, cid = (seeking(guest(name), now) for name in ("ann", "bob", "cid"))
    assert pairing.pair(ann.pk, bob.pk) is not None
    assert pairing.pair(ann.pk, bob.pk) is None  # a second wave with the same answer
    assert pairing.pair(cid.pk, ann.pk) is None  # or another
    assert Game.objects.count() == 1
    assert list(Seek.objects.values_list("session_key", flat=True)) == ["cid-session"]


def test_two_waves_at_once_pair_each_seek_once(now: datetime.datetime) -> None:
    """Two threads (two database connections, as two processes) make the same pair at the
    same moment: one game."""
    ann, bob = seeking(guest("ann"), now), seeking(guest("bob"), now)

    def run() -> Game | None:
        return pairing.pair(ann.pk, bob.pk)

    made = at_once(run, run)
    assert sorted(game is None for game in made) == [False, True]
    assert Game.objects.count() == 1


@pytest.mark.parametrize(
    "orders",
    [
        ([(0, 1), (2, 3)], [(3, 2), (1, 0)]),  # the same pairs, in the other order
        ([(0, 1), (2, 3)], [(0, 2), (1, 3)]),  # other pairs of the same seeks
        ([(0, 1), (2, 3), (4, 5)], [(5, 4), (2, 0)]),
    ],
)
def test_two_waves_at_once_pair_each_seek_once_whatever_their_pairs(
    now: datetime.datetime, orders: tuple[list[tuple[int, int]], ...]
) -> None:
    """Two threads (two database connections, as two processes without the wave's lock)
    make pairs of the same seeks at the same moment, several a transaction: every seek in
    one game at most, and neither waits for the other for ever (the rows are locked in the
    order of their ids)."""
    seeks = [seeking(guest(f"p{n}"), now) for n in range(6)]

    def run(pairs: list[tuple[int, int]]) -> list[Game]:
        return pairing.pair_many([(seeks[a].pk, seeks[b].pk) for a, b in pairs])

    made = at_once(*(functools.partial(run, pairs) for pairs in orders), timeout=30)
    assert len(made) == 2
    assert all(isinstance(games, list) for games in made), made
    seated = [
        key
        for game in Game.objects.all()
        for key in (game.black_session_key, game.white_session_key)
    ]
    assert len(seated) == len(set(seated)) == 2 * sum(len(games) for games in made)
    assert Seek.objects.count() == 6 - len(seated)
    assert len(made[0]) + len(made[1]) >= min(len(pairs) for pairs in orders)


def test_only_one_wave_runs_at_a_time(now: datetime.datetime) -> None:
    """While one connection (a process) holds the wave's lock, another's wave does nothing."""
    seeking(guest("ann"), now), seeking(guest("bob"), now)
    with held_elsewhere(pairing.wave_lock):
        assert pairing.wave(now=now) is None
        assert Seek.objects.count() == 2
    assert len(pairing.wave(now=now) or []) == 1


def test_the_window_widens_with_waiting(now: datetime.datetime) -> None:
    seeking(guest("ann"), now)
    seeking(guest("bob"), now)
    Seek.objects.filter(session_key="bob-session").update(rating=1800.0)
    assert pairing.wave(now=now) == []
    assert pairing.wave(now=now + datetime.timedelta(seconds=4)) == []  # 280 each side
    assert len(pairing.wave(now=now + datetime.timedelta(seconds=5)) or []) == 1  # 300


def test_the_lobby_counts_the_seekers_of_each_pool(now: datetime.datetime) -> None:
    seeking(guest("ann"), now)
    seeking(guest("bob"), now, kind="go", size=9, clock="byoyomi", periods=5, period_time=10)
    seeking(guest("cid"), now, kind="go", size=9, clock="byoyomi", periods=5, period_time=10)
    assert lobbies.lobby_json()["seeking"] == {POOL: 1, "go9-byoyomi-180+5x10-casual": 2}


def test_a_pair_that_fails_does_not_stop_the_wave(
    now: datetime.datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = seeking(guest("ann"), now), seeking(guest("bob"), now)
    seeking(guest("cid"), now, increment=3), seeking(guest("dan"), now, increment=3)
    original = lobby_services.start_games

    def fails_for_bob(pairs: list[lobby_services.NewPair]) -> list[Game]:
        if any(pair.second.player.session_key in ("ann-session", "bob-session") for pair in pairs):
            raise RuntimeError("the join failed")
        return original(pairs)

    monkeypatch.setattr(lobby_services, "start_games", fails_for_bob)
    [game] = pairing.wave(now=now) or []
    assert {game.black_session_key, game.white_session_key} == {"cid-session", "dan-session"}
    assert set(Seek.objects.values_list("pk", flat=True)) == {ann.pk, bob.pk}


def test_a_wave_of_several_transactions_sends_its_paired_as_one_event(
    now: datetime.datetime,
    monkeypatch: pytest.MonkeyPatch,
    layer: Recorder,
    django_capture_on_commit_callbacks: Any,
) -> None:
    monkeypatch.setattr(pairing, "CHUNK", 1)  # a transaction a pair
    for name in ("a", "b", "c", "d"):
        seeking(guest(name), now, name=name)
    with django_capture_on_commit_callbacks(execute=True):
        made = pairing.wave(now=now) or []
    assert len(made) == 2
    [paired] = [
        event for event in layer.to(lobbies.LOBBY_GROUP) if event["type"] == "pairing.paired"
    ]
    games = {
        session: game.public_id
        for game in made
        for session in (game.black_session_key, game.white_session_key)
    }
    assert dict(pairing.paired_games(paired)) == games
    c_game = games["c-session"]
    assert pairing.paired_text(paired, "c-session") == f'{{"type":"paired","game_id":"{c_game}"}}'
    assert pairing.paired_text(paired, "e-session") is None
    assert len(lobby_changed(layer)) == 1  # the lobby's message is apart, once


@pytest.mark.django_db(transaction=True)
async def test_the_loop_builds_a_held_back_lobby_message_when_it_sends_it(
    layer: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    from channels.db import database_sync_to_async

    from pairing import loop

    monkeypatch.setattr(loop, "get_channel_layer", lambda: layer)
    running = loop.PairingLoop()
    running.lobby_sent = time.monotonic()  # one just went: the next waits for TICK
    await running.tick()  # the pools' counts are new: the lobby changed
    assert lobby_changed(layer) == []  # held back

    def open_game() -> Game:
        """A game waiting for an opponent, its creator's socket open: the lobby told."""
        made = lobby_services.create_game(
            player=guest("ann"),
            new=lobby_services.NewGame(kind="othello", size=8, color="black", name="Ann"),
        )
        Game.objects.filter(pk=made.pk).update(black_online=True)
        lobbies.broadcast_lobby()
        return made

    game = await database_sync_to_async(open_game)()
    running.lobby_sent -= loop.TICK
    await running.tick()
    # The held-back message goes as the lobby is now: it does not take the game away.
    last = lobby_changed(layer)[-1]
    assert [open_game["id"] for open_game in last["games"]] == [game.public_id]
    assert running.lobby_due is False
