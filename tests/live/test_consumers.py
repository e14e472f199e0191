"""live.consumers through the real ASGI application, as docs/api/websocket.md says.

The seats are taken over HTTP with Django's test client, exactly as browsers take them;
each websocket then presents that browser's session cookie. Runs on SQLite and the
in-memory channel layer by default, on PostgreSQL and Redis when DATABASE_URL and
REDIS_URL are set.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from gamerules import Color, GoPosition
from games.models import ChatMessage, Game, Move
from games.services import computer
from live import events as live_events
from othello_site.asgi import application
from tests.games.services.test_scoring import INVADED, INVADERS

pytestmark = pytest.mark.django_db(transaction=True)

HEADERS = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
# Generous: on PostgreSQL and Redis a round trip is still milliseconds; this only bounds
# how long a broken test waits before failing.
TIMEOUT = 10

# 4x4 Othello, Black first: b1, c1 (White), d3, then White's a1 leaves Black without a
# move, so the server passes for Black (ply 5):
#   W W W .
#   . B B .
#   . B B B
#   . . . .
AUTOMATIC_PASS_LINE = [[0, 1], [0, 2], [2, 3], [0, 0]]


@dataclass(frozen=True)
class Table:
    """A game whose seats were taken over HTTP: its id and each seat's session cookie."""

    game_id: str
    black: str
    white: str | None


def create(kind: str, size: int, *, name: str = "Ann") -> tuple[str, str]:
    """A game created over HTTP by a new guest playing Black: (game id, session cookie)."""
    browser = Client()
    response = browser.post(
        "/games/new/", {"kind": kind, "size": size, "color": "black", "name": name}
    )
    assert response.status_code == 302, response.content
    game_id = response.url.strip("/").split("/")[-1]
    return game_id, browser.cookies["sessionid"].value


def join(game_id: str, *, name: str) -> str:
    """A new guest's join over HTTP: its session cookie."""
    browser = Client()
    response = browser.post(f"/games/{game_id}/join/", {"name": name})
    assert response.status_code == 302
    return browser.cookies["sessionid"].value


def seat(kind: str = "othello", size: int = 4, *, full: bool = True) -> Table:
    game_id, black = create(kind, size)
    return Table(game_id, black, join(game_id, name="Bob") if full else None)


async def table(kind: str = "othello", size: int = 4, *, full: bool = True) -> Table:
    return await database_sync_to_async(seat)(kind, size, full=full)


class Socket:
    """One browser's websocket: send a message, receive the next one."""

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator

    async def send(self, message: Any) -> None:
        await self.communicator.send_to(text_data=json.dumps(message))

    async def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = await self.communicator.receive_json_from(timeout=TIMEOUT)
        return message

    async def error(self, message: Any) -> str:
        """Send ``message`` and return the code of the error it is answered with."""
        await self.send(message)
        answer = await self.receive()
        assert answer["type"] == "error", answer
        assert answer["message"]
        return str(answer["code"])

    async def state(self) -> dict[str, Any]:
        """G as the server has it now (a `sync`)."""
        await self.send({"type": "sync"})
        answer = await self.receive()
        assert answer["type"] == "state", answer
        return dict(answer["game"])


@asynccontextmanager
async def socket(game_id: str, session: str | None = None) -> AsyncIterator[Socket]:
    """A websocket on the game, with that browser's session cookie (none: a passer-by).

    Checks that the first message is `state` and leaves the rest to the test.
    """
    headers = list(HEADERS)
    if session is not None:
        headers.append((b"cookie", f"sessionid={session}".encode()))
    communicator = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    try:
        ws = Socket(communicator)
        first = await ws.receive()
        assert first["type"] == "state"
        assert first["game"]["id"] == game_id
        assert (await ws.receive())["type"] == "chat_history"
        yield ws
    finally:
        await communicator.disconnect()


@asynccontextmanager
async def players(seats: Table) -> AsyncIterator[tuple[Socket, Socket]]:
    """The websockets of both seated players, Black's connected first."""
    assert seats.white is not None
    async with (
        socket(seats.game_id, seats.black) as black,
        socket(seats.game_id, seats.white) as white,
    ):
        # White's arrival reaches Black as state: White is online now.
        arrival = await black.receive()
        assert (arrival["type"], arrival["game"]["online"]) == (
            "state",
            {"black": True, "white": True},
        )
        yield black, white


async def play(ws: Socket, ply: int, point: list[int]) -> None:
    await ws.send({"type": "play", "ply": ply, "point": point})


async def moves_stored(game_id: str) -> int:
    return await database_sync_to_async(Move.objects.filter(game__public_id=game_id).count)()


# Connecting


async def test_connect_sends_the_state_with_each_viewers_colour() -> None:
    seats = await table()
    async with players(seats) as (black, white), socket(seats.game_id) as passer_by:
        for ws, you in ((black, "black"), (white, "white"), (passer_by, None)):
            state = await ws.state()
            assert state["you"] == you
            assert state["players"] == {"black": "Ann", "white": "Bob"}
            assert (state["kind"], state["size"], state["status"], state["ply"]) == (
                "othello",
                4,
                "active",
                0,
            )
            assert state["board"] == ["....", ".WB.", ".BW.", "...."]
            assert state["to_move"] == "black"
            assert sorted(state["legal"]) == [[0, 1], [1, 0], [2, 3], [3, 2]]


@pytest.mark.parametrize(
    "game_id",
    ["no-such-game", "a%20b", "x" * 200, "%C3%A9"],
    ids=["unknown", "space", "long", "e-acute"],
)
async def test_an_unknown_game_is_closed_with_4404(game_id: str) -> None:
    communicator = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=HEADERS)
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    closed = await communicator.receive_output(timeout=TIMEOUT)
    assert closed == {"type": "websocket.close", "code": 4404}
    await communicator.disconnect()


async def test_a_socket_without_origin_is_refused() -> None:
    seats = await table()
    communicator = WebsocketCommunicator(
        application, f"/ws/games/{seats.game_id}/", headers=[(b"host", b"127.0.0.1")]
    )
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert not connected
    await communicator.disconnect()


async def test_a_join_reaches_the_waiting_creator_as_state() -> None:
    seats = await table(full=False)
    async with socket(seats.game_id, seats.black) as black:
        await database_sync_to_async(join)(seats.game_id, name="Bob")
        event = await black.receive()
        assert event["type"] == "state"
        game = event["game"]
        assert (game["status"], game["you"], game["to_move"]) == ("active", "black", "black")
        assert game["players"] == {"black": "Ann", "white": "Bob"}
        assert "seats" not in game


async def test_a_logged_in_players_seat_follows_the_account(
    django_user_model: Any,
) -> None:
    def create_as_member() -> tuple[str, str]:
        django_user_model.objects.create_user("ann", password="a long pass phrase")
        browser = Client()
        browser.login(username="ann", password="a long pass phrase")
        response = browser.post("/games/new/", {"kind": "go", "size": 9, "color": "white"})
        return response.url.strip("/").split("/")[-1], browser.cookies["sessionid"].value

    game_id, session = await database_sync_to_async(create_as_member)()
    async with socket(game_id, session) as ann:
        state = await ann.state()
        assert (state["you"], state["players"]["white"]) == ("white", "ann")


# Moves reach everyone


async def test_a_move_reaches_both_players_and_a_spectator_each_with_its_colour() -> None:
    seats = await table()
    async with players(seats) as (black, white), socket(seats.game_id) as spectator:
        await play(black, 0, [0, 1])
        for ws, you in ((black, "black"), (white, "white"), (spectator, None)):
            event = await ws.receive()
            assert event["type"] == "moved"
            assert event["move"] == {
                "ply": 1,
                "color": "black",
                "action": "place",
                "point": [0, 1],
                "flipped": [[1, 1]],
                "notation": "b1",
                "clock_ms": None,
            }
            game = event["game"]
            assert (game["ply"], game["to_move"], game["you"]) == (1, "white", you)
            assert game["board"] == [".B..", ".BB.", ".BW.", "...."]
            assert game["score"] == {"black": 4, "white": 1}
            assert "seats" not in event and "seats" not in game

        await play(white, 1, [0, 2])
        for ws in (black, white, spectator):
            event = await ws.receive()
            assert (event["type"], event["move"]["color"], event["move"]["point"]) == (
                "moved",
                "white",
                [0, 2],
            )


async def test_othellos_automatic_pass_arrives_as_its_own_moved_event() -> None:
    seats = await table()
    async with players(seats) as (black, white), socket(seats.game_id) as spectator:
        for ply, point in enumerate(AUTOMATIC_PASS_LINE):
            await play(black if ply % 2 == 0 else white, ply, point)
            for ws in (black, white, spectator):
                assert (await ws.receive())["move"]["ply"] == ply + 1
        for ws in (black, white, spectator):
            event = await ws.receive()
            assert event["type"] == "moved"
            assert event["move"] == {
                "ply": 5,
                "color": "black",
                "action": "pass",
                "point": None,
                "flipped": [],
                "notation": "pass",
                "clock_ms": None,
            }
            assert (event["game"]["ply"], event["game"]["to_move"]) == (5, "white")
        # White moves again, at the ply that counts the pass.
        state = await white.state()
        assert (state["ply"], state["to_move"], state["you"]) == (5, "white", "white")
        await play(white, 5, state["legal"][0])
        assert (await black.receive())["move"]["ply"] == 6


async def test_go_pass_pass_ends_play_for_everyone_and_two_accepts_finish() -> None:
    seats = await table("go", 5)
    async with players(seats) as (black, white):
        await play(black, 0, [2, 2])
        for ws in (black, white):
            assert (await ws.receive())["move"]["notation"] == "C3"
        await white.send({"type": "pass", "ply": 1})
        for ws in (black, white):
            event = await ws.receive()
            assert (event["move"]["action"], event["move"]["point"]) == ("pass", None)
            assert (event["game"]["status"], event["game"]["to_move"]) == ("active", "black")
        await black.send({"type": "pass", "ply": 2})
        for ws in (black, white):
            event = await ws.receive()
            assert event["move"] == {
                "ply": 3,
                "color": "black",
                "action": "pass",
                "point": None,
                "captured": [],
                "notation": "pass",
                "clock_ms": None,
            }
            game = event["game"]
            # Counting: 24 points of territory against komi 6.5.
            assert (game["status"], game["result"]) == ("scoring", None)
            assert game["score"] == {"black": 24, "white": 6.5}
            assert (game["legal"], game["to_move"]) == ([], None)
        await white.send({"type": "accept"})
        await black.send({"type": "accept"})
        for ws in (black, white):
            assert (await ws.receive())["game"]["status"] == "scoring"
            event = await ws.receive()
            assert event["type"] == "state"
            assert (event["game"]["status"], event["game"]["result"]) == ("finished", "B+17.5")


async def test_resign_ends_the_game_and_later_moves_are_game_over() -> None:
    seats = await table("go", 9)
    async with players(seats) as (black, white):
        await white.send({"type": "resign"})
        for ws in (black, white):
            event = await ws.receive()
            assert event["move"]["action"] == "resign"
            assert event["move"]["color"] == "white"
            assert event["move"]["notation"] == "resign"
            assert (event["game"]["status"], event["game"]["result"]) == ("finished", "B+R")
        assert await black.error({"type": "play", "ply": 1, "point": [4, 4]}) == "game_over"
        assert await white.error({"type": "pass", "ply": 1}) == "game_over"
        assert await black.error({"type": "resign"}) == "game_over"


# Sync


async def test_sync_answers_the_state_to_the_sender_only() -> None:
    seats = await table()
    async with players(seats) as (black, white):
        state = await black.state()
        assert (state["ply"], state["you"]) == (0, "black")
        await play(black, 0, [0, 1])
        # White's next message is the move: the sync was answered to Black alone.
        assert (await white.receive())["type"] == "moved"
        assert (await black.receive())["type"] == "moved"
        assert (await black.state())["ply"] == 1


# Errors: to the sender only, the connection staying open, nothing changed


async def test_a_double_send_is_answered_stale_and_plays_once() -> None:
    seats = await table()
    async with players(seats) as (black, white):
        await play(black, 0, [0, 1])
        await play(black, 0, [0, 1])
        answers = [await black.receive(), await black.receive()]
        # The broadcast and the direct answer travel separately: either may come first.
        assert sorted(answer["type"] for answer in answers) == ["error", "moved"]
        assert next(answer["code"] for answer in answers if answer["type"] == "error") == "stale"
        assert (await white.receive())["move"]["ply"] == 1
        assert await moves_stored(seats.game_id) == 1
        # The stale answer also wins over not_your_turn (it is White's turn now).
        assert await black.error({"type": "play", "ply": 0, "point": [1, 0]}) == "stale"
        assert await black.error({"type": "pass", "ply": 0}) == "stale"
        assert (await black.state())["ply"] == 1


async def test_playing_out_of_turn_is_not_your_turn() -> None:
    seats = await table()
    async with socket(seats.game_id, seats.white) as white:
        assert await white.error({"type": "play", "ply": 0, "point": [0, 1]}) == "not_your_turn"
        assert (await white.state())["ply"] == 0


async def test_moving_before_an_opponent_joined_is_not_your_turn() -> None:
    seats = await table("go", 9, full=False)
    async with socket(seats.game_id, seats.black) as black:
        assert await black.error({"type": "play", "ply": 0, "point": [4, 4]}) == "not_your_turn"
        assert await black.error({"type": "pass", "ply": 0}) == "not_your_turn"
        assert (await black.state())["status"] == "waiting"


@pytest.mark.parametrize(
    "point",
    [
        pytest.param([0, 0], id="flips-nothing"),
        pytest.param([1, 1], id="occupied"),
    ],
)
async def test_a_move_the_rules_forbid_is_illegal_move(point: list[int]) -> None:
    seats = await table()
    async with socket(seats.game_id, seats.black) as black:
        assert await black.error({"type": "play", "ply": 0, "point": point}) == "illegal_move"
        assert await moves_stored(seats.game_id) == 0


async def test_a_pass_in_othello_is_illegal_move() -> None:
    seats = await table()
    async with socket(seats.game_id, seats.black) as black:
        assert await black.error({"type": "pass", "ply": 0}) == "illegal_move"
        assert (await black.state())["ply"] == 0


async def test_go_suicide_is_illegal_move() -> None:
    seats = await table("go", 3)
    async with players(seats) as (black, white):
        # Black b1... then the corner a1 is surrounded by Black: suicide for White.
        for ply, (ws, point) in enumerate([(black, [0, 1]), (white, [2, 2]), (black, [1, 0])]):
            await play(ws, ply, point)
            await black.receive()
            await white.receive()
        assert await white.error({"type": "play", "ply": 3, "point": [0, 0]}) == "illegal_move"


@pytest.mark.parametrize("with_session", [True, False], ids=["guest", "no-session"])
async def test_a_spectator_receives_everything_and_changes_nothing(with_session: bool) -> None:
    seats = await table()
    session = await database_sync_to_async(join)(seats.game_id, name="Cy") if with_session else None
    async with (
        socket(seats.game_id, seats.black) as black,
        socket(seats.game_id, session) as spectator,
    ):
        assert (await spectator.state())["you"] is None
        for message in (
            {"type": "play", "ply": 0, "point": [0, 1]},
            {"type": "pass", "ply": 0},
            {"type": "resign"},
            # not_a_player comes before stale
            {"type": "play", "ply": 7, "point": [0, 1]},
        ):
            assert await spectator.error(message) == "not_a_player"
        await play(black, 0, [0, 1])
        event = await spectator.receive()
        assert (event["type"], event["move"]["ply"], event["game"]["you"]) == ("moved", 1, None)
        assert (await black.receive())["type"] == "moved"
        assert await moves_stored(seats.game_id) == 1
        state = await spectator.state()
        assert state["players"] == {"black": "Ann", "white": "Bob"}


BAD_REQUESTS = {
    "not-json": "play e4",
    "truncated-json": '{"type": "play", "ply": 0, "point": [0, 1]',
    "array": json.dumps([{"type": "sync"}]),
    "string": json.dumps("sync"),
    "number": "42",
    "null": "null",
    "no-type": json.dumps({"ply": 0, "point": [0, 1]}),
    "unknown-type": json.dumps({"type": "teleport", "ply": 0}),
    "type-not-a-string": json.dumps({"type": ["play"], "ply": 0, "point": [0, 1]}),
    "play-without-ply": json.dumps({"type": "play", "point": [0, 1]}),
    "play-ply-string": json.dumps({"type": "play", "ply": "0", "point": [0, 1]}),
    "play-ply-bool": json.dumps({"type": "play", "ply": False, "point": [0, 1]}),
    "play-ply-float": json.dumps({"type": "play", "ply": 0.0, "point": [0, 1]}),
    "play-ply-null": json.dumps({"type": "play", "ply": None, "point": [0, 1]}),
    "play-without-point": json.dumps({"type": "play", "ply": 0}),
    "point-one-number": json.dumps({"type": "play", "ply": 0, "point": [0]}),
    "point-three-numbers": json.dumps({"type": "play", "ply": 0, "point": [0, 1, 2]}),
    "point-string": json.dumps({"type": "play", "ply": 0, "point": "b1"}),
    "point-object": json.dumps({"type": "play", "ply": 0, "point": {"row": 0, "col": 1}}),
    "point-float": json.dumps({"type": "play", "ply": 0, "point": [0, 1.0]}),
    "point-bool": json.dumps({"type": "play", "ply": 0, "point": [False, True]}),
    "point-off-board-row": json.dumps({"type": "play", "ply": 0, "point": [4, 1]}),
    "point-off-board-col": json.dumps({"type": "play", "ply": 0, "point": [0, 4]}),
    "point-negative": json.dumps({"type": "play", "ply": 0, "point": [-1, 1]}),
    "pass-without-ply": json.dumps({"type": "pass"}),
    "pass-ply-bool": json.dumps({"type": "pass", "ply": True}),
    "over-4-KiB": json.dumps({"type": "play", "ply": 0, "point": [0, 1], "pad": "x" * 4096}),
    # 2,064 characters, but 4,104 bytes of UTF-8.
    "over-4-KiB-in-bytes": '{"type":"sync","pad":"' + "é" * 2040 + '"}',
}


@pytest.mark.parametrize("frame", BAD_REQUESTS.values(), ids=BAD_REQUESTS.keys())
async def test_a_malformed_message_is_bad_request_and_touches_nothing(frame: str) -> None:
    seats = await table()
    async with players(seats) as (black, white):
        await black.communicator.send_to(text_data=frame)
        answer = await black.receive()
        assert (answer["type"], answer["code"]) == ("error", "bad_request")
        assert answer["message"]
        # The socket stays open and nothing was played: the legal move still plays at ply 0,
        # and White's next message is that move (the error went to Black alone).
        assert (await black.state())["ply"] == 0
        await play(black, 0, [0, 1])
        assert (await white.receive())["move"]["ply"] == 1


async def test_bad_request_wins_over_every_other_error() -> None:
    seats = await table()
    async with (
        socket(seats.game_id, seats.white) as white,
        socket(seats.game_id) as passer_by,
    ):
        # White is out of turn at a stale ply, the spectator is no player: the shape
        # error is answered first.
        assert await white.error({"type": "play", "ply": 9, "point": [9, 9]}) == "bad_request"
        assert await passer_by.error({"type": "play", "ply": 0, "point": "b1"}) == "bad_request"


async def test_a_message_of_exactly_4096_bytes_is_accepted() -> None:
    seats = await table()
    async with socket(seats.game_id, seats.black) as black:
        frame = '{"type":"sync","pad":"' + "x" * 4072 + '"}'
        assert len(frame.encode()) == 4096
        await black.communicator.send_to(text_data=frame)
        assert (await black.receive())["type"] == "state"


async def test_binary_and_empty_frames_are_bad_request() -> None:
    seats = await table()
    async with socket(seats.game_id, seats.black) as black:
        await black.communicator.send_to(bytes_data=b'{"type": "sync"}')
        assert (await black.receive())["code"] == "bad_request"
        await black.communicator.send_input({"type": "websocket.receive", "text": ""})
        assert (await black.receive())["code"] == "bad_request"
        assert (await black.state())["ply"] == 0


async def test_the_game_row_is_untouched_by_errors() -> None:
    seats = await table()

    def snapshot() -> tuple[Any, ...]:
        game = Game.objects.get(public_id=seats.game_id)
        return (game.ply, game.snapshot, game.to_move, game.status, game.updated_at)

    async with players(seats) as (black, white):
        before = await database_sync_to_async(snapshot)()
        assert await black.error({"type": "play", "ply": 0, "point": [0, 0]}) == "illegal_move"
        assert await white.error({"type": "play", "ply": 0, "point": [0, 1]}) == "not_your_turn"
        assert await black.error({"type": "play", "ply": 3, "point": [0, 1]}) == "stale"
        assert await black.error({"type": "pass", "ply": 0}) == "illegal_move"
        assert await database_sync_to_async(snapshot)() == before


# Go's scoring phase: mark, accept, resume


async def counting_table() -> Table:
    """A 5x5 Go game at tests.games.services.test_scoring's INVADED position, White to move."""

    def setup() -> Table:
        seats = seat("go", 5)
        position = GoPosition.from_rows(INVADED, Color.WHITE)
        Game.objects.filter(public_id=seats.game_id).update(
            snapshot=position.to_snapshot(), to_move="white"
        )
        return seats

    return await database_sync_to_async(setup)()


async def everyone_receives(sockets: tuple[Socket, ...], kind: str = "state") -> dict[str, Any]:
    """The next event of each socket, all of type ``kind`` with the same game; that game."""
    games = []
    for ws in sockets:
        event = await ws.receive()
        assert event["type"] == kind, event
        games.append({**event["game"], "you": None})
    assert all(game == games[0] for game in games)
    return games[0]


async def pass_twice(black: Socket, white: Socket, *watchers: Socket) -> dict[str, Any]:
    """White's pass, then Black's, seen by everyone: G once the count starts."""
    everyone = (black, white, *watchers)
    await white.send({"type": "pass", "ply": 0})
    await everyone_receives(everyone, "moved")
    await black.send({"type": "pass", "ply": 1})
    return await everyone_receives(everyone, "moved")


async def test_two_players_count_a_go_game_live_and_a_spectator_watches() -> None:
    seats = await counting_table()
    async with players(seats) as (black, white), socket(seats.game_id) as spectator:
        everyone = (black, white, spectator)
        game = await pass_twice(black, white, spectator)
        assert (game["status"], game["dead"], game["marking"]) == ("scoring", INVADERS, 1)
        assert game["score"] == {"black": 12, "white": 11.5}
        assert game["score_detail"]["black"]["dead"] == 2

        # White disagrees: its stones are alive. Everyone sees it at once.
        await white.send({"type": "mark", "point": [1, 1], "marking": 1})
        game = await everyone_receives(everyone)
        assert (game["dead"], game["marking"]) == ([], 2)
        assert game["score"] == {"black": 0, "white": 11.5}
        assert game["territory"]["black"] == []

        # Black accepts, then marks them dead again: Black's acceptance is withdrawn.
        await black.send({"type": "accept", "marking": 2})
        game = await everyone_receives(everyone)
        assert game["accepted"] == {"black": True, "white": False}
        await black.send({"type": "mark", "point": [2, 1], "marking": 2})
        game = await everyone_receives(everyone)
        assert (game["dead"], game["marking"]) == (INVADERS, 3)
        assert game["accepted"] == {"black": False, "white": False}

        # A click on the old marking is stale; the spectator and empty points change nothing.
        assert await white.error({"type": "accept", "marking": 2}) == "stale"
        assert await white.error({"type": "mark", "point": [1, 1], "marking": 2}) == "stale"
        assert await spectator.error({"type": "mark", "point": [1, 1]}) == "not_a_player"
        assert await spectator.error({"type": "accept"}) == "not_a_player"
        assert await spectator.error({"type": "resume"}) == "not_a_player"
        assert await black.error({"type": "mark", "point": [0, 0]}) == "illegal_move"
        assert await black.error({"type": "mark", "point": [0, 5]}) == "bad_request"
        assert await black.error({"type": "play", "ply": 2, "point": [0, 0]}) == "illegal_move"
        assert await black.error({"type": "pass", "ply": 2}) == "illegal_move"

        # Both accept the same marking: the game is over with that score, for everyone.
        await white.send({"type": "accept", "marking": 3})
        await everyone_receives(everyone)
        await black.send({"type": "accept", "marking": 3})
        game = await everyone_receives(everyone)
        assert (game["status"], game["result"], game["score"]) == (
            "finished",
            "B+0.5",
            {"black": 12, "white": 11.5},
        )
        assert game["dead"] == INVADERS
        for ws in (black, white):
            assert await ws.error({"type": "mark", "point": [1, 1]}) == "game_over"
            assert await ws.error({"type": "accept"}) == "game_over"
            assert await ws.error({"type": "resume"}) == "game_over"


async def test_resume_returns_to_play_for_everyone() -> None:
    seats = await counting_table()
    async with players(seats) as (black, white):
        await pass_twice(black, white)

        await black.send({"type": "resume"})
        game = await everyone_receives((black, white))
        assert (game["status"], game["to_move"], game["ply"], game["dead"]) == (
            "active",
            "white",
            2,
            [],
        )
        assert await black.error({"type": "resume"}) == "illegal_move"
        assert await black.error({"type": "accept"}) == "illegal_move"
        await play(white, 2, [0, 4])
        game = await everyone_receives((black, white), "moved")
        assert (game["ply"], game["to_move"]) == (3, "black")


SCORING_BAD_REQUESTS = {
    "mark-without-point": {"type": "mark"},
    "mark-point-string": {"type": "mark", "point": "B4"},
    "mark-point-float": {"type": "mark", "point": [1, 1.0]},
    "mark-off-board": {"type": "mark", "point": [5, 0]},
    "mark-marking-string": {"type": "mark", "point": [1, 1], "marking": "1"},
    "accept-marking-float": {"type": "accept", "marking": 1.0},
    "accept-marking-bool": {"type": "accept", "marking": True},
    "resume-marking-list": {"type": "resume", "marking": [1]},
}


@pytest.mark.parametrize("message", SCORING_BAD_REQUESTS.values(), ids=SCORING_BAD_REQUESTS.keys())
async def test_a_malformed_scoring_message_is_bad_request(message: dict[str, Any]) -> None:
    seats = await counting_table()
    async with players(seats) as (black, white):
        before = await pass_twice(black, white)
        assert await white.error(message) == "bad_request"
        after = {**(await white.state()), "you": None}
        del after["moves"]  # `moved` carries no move list; `sync` does
        assert after == before


# Clocks and presence


async def test_presence_reaches_everyone_and_claim_needs_the_opponent_gone(
    settings: Any,
) -> None:
    settings.ABANDON_SECONDS = 0
    seats = await table()
    async with socket(seats.game_id, seats.black) as black, socket(seats.game_id) as passer_by:
        async with socket(seats.game_id, seats.white) as white:
            for ws in (black, passer_by):
                arrival = await ws.receive()
                assert arrival["game"]["online"] == {"black": True, "white": True}
            assert await black.error({"type": "claim"}) == "illegal_move"  # White is here
            assert await passer_by.error({"type": "claim"}) == "not_a_player"
            assert (await white.state())["away_ms"] == {"black": None, "white": None}
        # White closed the page: everyone is told.
        for ws in (black, passer_by):
            left = await ws.receive()
            assert (left["type"], left["game"]["online"]) == (
                "state",
                {"black": True, "white": False},
            )
            assert left["game"]["away_ms"]["white"] >= 0

        await black.send({"type": "claim"})
        for ws in (black, passer_by):
            event = await ws.receive()
            assert (event["move"]["action"], event["move"]["color"]) == ("forfeit", "white")
            assert (event["game"]["status"], event["game"]["result"]) == ("finished", "B+F")


async def test_a_state_older_than_what_the_client_has_is_not_sent() -> None:
    """A state event built before the client's own (queued while its socket connected,
    or sent late by another process) would show the game as it was: it is dropped."""
    seats = await table()
    read = database_sync_to_async(lambda: Game.objects.get(public_id=seats.game_id))
    before = await read()  # nobody online yet
    async with socket(seats.game_id, seats.black) as black:
        await database_sync_to_async(live_events.send_state)(before)
        assert await black.communicator.receive_nothing(timeout=0.2)
        now = await read()  # Black online
        await database_sync_to_async(live_events.send_state)(now)
        assert (await black.receive())["game"]["online"] == {"black": True, "white": False}


async def test_a_timed_game_sends_its_clock_and_each_moves_time_left() -> None:
    def timed() -> Table:
        browser = Client()
        response = browser.post(
            "/games/new/",
            {"kind": "othello", "size": 4, "color": "black", "name": "Ann"}
            | {"clock": "fischer", "main_time": 60, "increment": 2},
        )
        game_id = response.url.strip("/").split("/")[-1]
        return Table(game_id, browser.cookies["sessionid"].value, join(game_id, name="Bob"))

    seats = await database_sync_to_async(timed)()
    async with players(seats) as (black, white):
        clock = (await black.state())["clock"]
        assert (clock["system"], clock["running"], clock["increment"]) == ("fischer", None, 2)
        assert clock["black"]["remaining_ms"] == 60_000  # no clock runs before the first moves
        assert clock["first_move_by"] is not None  # Black's first move is due by then
        # The first moves (b1, c1) are free.
        for ply, (mover, point) in enumerate([(black, [0, 1]), (white, [0, 2])]):
            await play(mover, ply, point)
            moved = (await black.receive(), await white.receive())[1]
            assert moved["move"]["clock_ms"] == 60_000
        # Both have moved: Black's clock runs.
        assert (moved["game"]["clock"]["running"], moved["game"]["clock"]["first_move_by"]) == (
            "black",
            None,
        )
        await play(black, 2, [2, 3])
        moved = await white.receive()
        assert 60_000 < moved["move"]["clock_ms"] <= 62_000  # the increment
        assert moved["game"]["clock"]["running"] == "white"


# Around the board


async def test_players_and_spectators_chat_and_the_history_comes_on_connect() -> None:
    seats = await table()
    async with players(seats) as (black, white), socket(seats.game_id) as passer_by:
        await black.send({"type": "chat", "text": "<script>hi</script>"})
        for ws in (black, white, passer_by):
            said = await ws.receive()
            assert said["type"] == "chat"
            assert said["message"]["text"] == "<script>hi</script>"  # as typed: shown inert
            assert (said["message"]["name"], said["message"]["color"]) == ("Ann", "black")
            assert said["message"]["at"]
        await passer_by.send({"type": "chat", "text": "gl"})
        for ws in (black, white, passer_by):
            said = await ws.receive()
            assert (said["message"]["name"], said["message"]["color"]) == ("Guest", None)

    # A socket opened later gets the chat so far, oldest first, after the state.
    communicator = WebsocketCommunicator(
        application, f"/ws/games/{seats.game_id}/", headers=HEADERS
    )
    assert (await communicator.connect(timeout=TIMEOUT))[0]
    assert (await communicator.receive_json_from(timeout=TIMEOUT))["type"] == "state"
    history = await communicator.receive_json_from(timeout=TIMEOUT)
    assert [m["text"] for m in history["messages"]] == ["<script>hi</script>", "gl"]
    await communicator.disconnect()


async def test_a_player_with_30_sockets_still_says_at_most_5_lines_in_10_s() -> None:
    seats = await table()
    async with contextlib.AsyncExitStack() as stack:
        sockets = [
            await stack.enter_async_context(socket(seats.game_id, seats.black)) for _ in range(30)
        ]
        white = await stack.enter_async_context(socket(seats.game_id, seats.white))
        answers = []
        for number, ws in enumerate(sockets):
            await ws.send({"type": "chat", "text": f"line {number}"})
            # Its own line comes back (after what was sent before it), or an error.
            while (answer := await ws.receive())["type"] != "error":
                if answer["type"] == "chat" and answer["message"]["text"] == f"line {number}":
                    break
            answers.append(answer.get("code", "said"))
        assert answers == ["said"] * 5 + ["rate_limited"] * 25
        said = await database_sync_to_async(
            ChatMessage.objects.filter(game__public_id=seats.game_id).count
        )()
        assert said == 5
        # The opponent has an allowance of its own.
        await white.send({"type": "chat", "text": "slow down"})
        while (heard := await white.receive())["type"] != "chat" or heard["message"][
            "color"
        ] != "white":
            assert heard["type"] != "error"


async def test_more_than_5_chat_messages_in_10_s_are_rate_limited() -> None:
    seats = await table()
    async with socket(seats.game_id) as passer_by:
        for number in range(5):
            await passer_by.send({"type": "chat", "text": f"{number}"})
            assert (await passer_by.receive())["type"] == "chat"
        assert await passer_by.error({"type": "chat", "text": "six"}) == "rate_limited"
        assert await passer_by.error({"type": "chat", "text": ""}) == "rate_limited"
        # The game's own messages are not limited by the chat's limit.
        assert (await passer_by.state())["ply"] == 0


async def test_a_move_taken_back_and_a_rematch_over_the_websocket() -> None:
    seats = await table()
    async with players(seats) as (black, white):
        await play(black, 0, [0, 1])
        for ws in (black, white):
            await ws.receive()
        await black.send({"type": "undo", "ply": 1})
        for ws in (black, white):
            asked = await ws.receive()
            assert (asked["type"], asked["game"]["undo"]) == ("state", "black")
        await white.send({"type": "undo_accept", "ply": 1})
        for ws in (black, white):
            undone = await ws.receive()
            assert (undone["type"], undone["game"]["ply"], undone["game"]["moves"]) == (
                "undone",
                0,
                [],
            )
        await white.send({"type": "resign"})
        for ws in (black, white):
            await ws.receive()
        await white.send({"type": "rematch"})
        for ws in (black, white):
            assert (await ws.receive())["game"]["rematch"] == "white"
        await black.send({"type": "rematch"})
        new_ids = {(await ws.receive())["game_id"] for ws in (black, white)}
    [new_id] = new_ids
    game = await database_sync_to_async(Game.objects.get)(public_id=new_id)
    assert (game.black_name, game.white_name) == ("Bob", "Ann")


async def until(ws: Socket, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (presence and other states on the way skipped)."""
    while (message := await ws.receive())["type"] != kind:
        pass
    return message


def against_computer() -> tuple[str, str]:
    """An 8x8 Othello game created over HTTP against the computer, the guest Black."""
    browser = Client()
    fields = {"kind": "othello", "size": 8, "color": "black", "name": "Ann"}
    response = browser.post("/games/new/", {**fields, "opponent": "computer", "level": 1})
    assert response.status_code == 302, response.content
    return response.url.strip("/").split("/")[-1], browser.cookies["sessionid"].value


async def test_a_move_taken_back_against_the_computer_goes_with_its_reply() -> None:
    game_id, session = await database_sync_to_async(against_computer)()
    async with socket(game_id, session) as person:
        await play(person, 0, [2, 3])
        assert (await until(person, "moved"))["move"]["color"] == "black"
        await database_sync_to_async(computer.computer_move)(game_id=game_id, ply=1, point=[2, 2])
        assert (await until(person, "moved"))["move"]["color"] == "white"

        await person.send({"type": "undo", "ply": 2})
        undone = await until(person, "undone")
        assert (undone["game"]["ply"], undone["game"]["moves"], undone["game"]["to_move"]) == (
            0,
            [],
            "black",
        )
        assert undone["game"]["board"][3:5] == ["...WB...", "...BW..."]
        assert await person.error({"type": "undo", "ply": 0}) == "illegal_move"
    assert await moves_stored(game_id) == 0


async def test_the_lobby_socket_sends_the_open_games_and_their_changes() -> None:
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=HEADERS)
    assert (await communicator.connect(timeout=TIMEOUT))[0]
    assert await communicator.receive_json_from(timeout=TIMEOUT) == {
        "type": "lobby",
        "games": [],
        "playing": 0,
        "seeking": {},
    }
    seats = await table(full=False)
    async with socket(seats.game_id, seats.black):
        listed = await communicator.receive_json_from(timeout=TIMEOUT)
        assert [game["id"] for game in listed["games"]] == [seats.game_id]
        assert listed["games"][0]["creator"] == "Ann"
    # The creator left: the game is no longer offered.
    assert (await communicator.receive_json_from(timeout=TIMEOUT))["games"] == []
    await communicator.disconnect()


def accounts_table() -> tuple[Table, int, int]:
    """A game between the accounts ann (Black) and bob (White): its seats' session
    cookies and the two accounts' ids."""
    from django.contrib.auth.models import User

    ann, bob = User.objects.create_user("ann"), User.objects.create_user("bob")
    creator, joiner = Client(), Client()
    creator.force_login(ann)
    joiner.force_login(bob)
    made = creator.post("/games/new/", {"kind": "othello", "size": 4, "color": "black"})
    game_id = made.url.strip("/").split("/")[-1]
    assert joiner.post(f"/games/{game_id}/join/").status_code == 302
    table = Table(game_id, creator.cookies["sessionid"].value, joiner.cookies["sessionid"].value)
    return table, ann.pk, bob.pk


async def test_a_blocked_accounts_chat_lines_are_not_shown_to_the_blocker() -> None:
    from accounts.services import block

    seats, ann, bob = await database_sync_to_async(accounts_table)()
    await database_sync_to_async(block)(blocker_id=bob, blocked_id=ann)
    async with players(seats) as (black, white), socket(seats.game_id) as passer_by:
        await black.send({"type": "chat", "text": "you will lose"})
        for ws in (black, passer_by):
            assert (await ws.receive())["message"]["text"] == "you will lose"
        await passer_by.send({"type": "chat", "text": "hello both"})
        # Bob's next line is the passer-by's: ann's never reached him.
        assert (await white.receive())["message"]["text"] == "hello both"
        assert (await black.receive())["message"]["text"] == "hello both"

    communicator = WebsocketCommunicator(
        application,
        f"/ws/games/{seats.game_id}/",
        headers=[*HEADERS, (b"cookie", f"sessionid={seats.white}".encode())],
    )
    assert (await communicator.connect(timeout=TIMEOUT))[0]
    assert (await communicator.receive_json_from(timeout=TIMEOUT))["type"] == "state"
    history = await communicator.receive_json_from(timeout=TIMEOUT)
    assert [m["text"] for m in history["messages"]] == ["hello both"]
    await communicator.disconnect()
