"""The bots' bridge (gtpbot) against a real daphne: a fake GTP engine in-process, GNU Go
in a bridge process that is killed mid-game and started again, a bad token refused.
gtpbot's own tests (tests/gtpbot/) need no server."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import urllib.error
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from gtpbot.bridge import Bridge, Config
from tests.support.clients import Browser, Follower
from tests.support.daphne import ROOT, Daphne, embedded

FAKE_GTP = Path(__file__).resolve().parents[1] / "gameengine" / "fake_gtp.py"
GNUGO = "/usr/games/gnugo"
LONG = 180
GENERIC = "I am not accepting challenges at the moment."  # a bridge's decline gives no reason


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Daphne]:
    # The test's person answers at once, faster than the websocket's limit allows.
    with embedded(tmp_path, RATE_LIMITS="off") as daphne:
        yield daphne


def bot_token(server: Daphne, name: str) -> str:
    out = subprocess.run(
        [sys.executable, "manage.py", "bot_token", name],
        cwd=ROOT,
        env=server.env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return out.strip().splitlines()[-1]


async def until_online(browser: Browser, name: str) -> None:
    for _ in range(LONG * 10):
        if name.encode() in await asyncio.to_thread(browser.get, "/players/bots/"):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{name} never came online")


async def challenge(browser: Browser, bot: str, **fields: Any) -> str:
    await asyncio.to_thread(browser.get, "/")
    path = await asyncio.to_thread(
        browser.post, f"/players/{bot}/challenge/", {"name": "Ann", "color": "black", **fields}
    )
    return path.strip("/").split("/")[-1]


@contextlib.asynccontextmanager
async def bridge(config: Config) -> AsyncIterator[None]:
    task = asyncio.create_task(Bridge(config).run())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await asyncio.sleep(0)


def show_failure(log: IO[bytes], path: Path, human: Follower | None) -> None:
    """What a failed game through a bridge process leaves to read: its log, the game."""
    log.flush()
    print(path.read_text())
    if human is not None:
        print({key: human.game.get(key) for key in ("status", "ply", "to_move", "you")})
        print(human.errors, human.game.get("board"))


async def play_passing(human: Follower, *, moves: int) -> None:
    """Black (the test): ``moves`` stones on the first legal points, then passes, until
    the count; then accepts the marking once the bot has."""

    def turn(follower: Follower) -> bool:
        game = follower.game
        if game["status"] in ("finished", "aborted"):
            return True
        if game["status"] == "scoring":
            return bool(game["accepted"]["white"])
        return game["status"] == "active" and game["to_move"] == "black"

    while True:
        await human.until(turn, LONG)
        game = human.game
        if game["status"] in ("finished", "aborted"):
            return
        if game["status"] == "scoring":
            await human.socket.send({"type": "accept", "marking": game["marking"]})
            await human.until(lambda follower: follower.game["status"] == "finished", LONG)
            return
        ply = game["ply"]
        if ply // 2 < moves:
            await human.play_first_legal()
        else:
            await human.socket.send({"type": "pass", "ply": ply})
        await human.at_ply(ply + 1, LONG)


async def test_the_bridge_plays_a_fake_engine_to_the_count_and_declines_othello(
    server: Daphne,
) -> None:
    token = await asyncio.to_thread(bot_token, server, "fakebot")
    engine = [sys.executable, str(FAKE_GTP), "--genmove", "pass"]
    config = Config(url=server.url, token=token, engine=engine, kinds=["go"], sizes=[9])
    ann = Browser(server.url)
    async with bridge(config):
        await until_online(ann, "fakebot")
        game_id = await challenge(ann, "fakebot", kind="go", size=9)
        human = await Follower.open(ann, game_id)
        try:
            await human.until(lambda follower: follower.game["status"] == "active", LONG)
            assert human.game["bots"] == {"black": False, "white": True}
            await play_passing(human, moves=1)
            assert human.game["result"].startswith("B+")
            assert [move["action"] for move in human.game["moves"]] == ["place", "pass", "pass"]
        finally:
            await human.close()
        othello = await challenge(ann, "fakebot", kind="othello", size=8)
        refused = await Follower.open(ann, othello)
        try:
            await refused.until(lambda follower: follower.game["status"] == "aborted", LONG)
            assert (
                refused.game["challenge"]["message"] == f"fakebot declined the challenge: {GENERIC}"
            )
        finally:
            await refused.close()


async def test_gnu_go_through_the_bridge_killed_mid_game_plays_on_to_the_count(
    server: Daphne, tmp_path: Path
) -> None:
    token = await asyncio.to_thread(bot_token, server, "gnubot")
    command = [
        sys.executable,
        "-m",
        "gtpbot",
        "--url",
        server.url,
        "--token",
        token,
        "--kinds",
        "go",
        "--sizes",
        "9",
        "--",
        GNUGO,
        "--mode",
        "gtp",
        "--level",
        "1",
        "--chinese-rules",
        "--capture-all-dead",
    ]
    log = (tmp_path / "bridge.log").open("ab")

    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)

    ann = Browser(server.url)
    first = start()
    human = None
    try:
        await until_online(ann, "gnubot")
        game_id = await challenge(ann, "gnubot", kind="go", size=9, komi=7.5, scoring="area")
        human = await Follower.open(ann, game_id)
        await human.until(lambda follower: follower.game["status"] == "active", LONG)
        await human.play_first_legal()
        await human.at_ply(2, LONG)  # GNU Go answered
        first.kill()
        first.wait()
        await human.play_first_legal()
        second = start()
        try:
            await human.at_ply(4, LONG)  # the restarted bridge answered
            await play_passing(human, moves=3)
        finally:
            second.terminate()
            second.wait(10)
    except (AssertionError, TimeoutError, urllib.error.HTTPError):
        show_failure(log, tmp_path / "bridge.log", human)
        raise
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
        if human is not None:
            await human.close()
    game = human.game
    assert game["status"] == "finished" and game["result"]
    assert game["moves"][-1]["action"] == "pass" and game["ply"] > 6


GTP_RHINO = "/usr/games/gtp-rhino"
"""Debian's grhino: an Othello engine with a GTP front end that nobody here wrote."""


async def test_an_othello_engine_through_the_bridge_killed_mid_game_plays_to_the_end(
    server: Daphne, tmp_path: Path
) -> None:
    token = await asyncio.to_thread(bot_token, server, "rhino")
    command = [
        *(sys.executable, "-m", "gtpbot", "--url", server.url, "--token", token),
        *("--kinds", "othello", "--sizes", "8", "--", GTP_RHINO),
    ]
    log = (tmp_path / "bridge.log").open("ab")

    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)

    def black_to_play_or_over(follower: Follower) -> bool:
        game = follower.game
        over = game["status"] in ("finished", "aborted")
        return over or (game["to_move"] == "black" and game["status"] == "active")

    ann = Browser(server.url)
    running = start()
    human = None
    try:
        await until_online(ann, "rhino")
        # What the engine does not play is declined at once.
        go = await Follower.open(ann, await challenge(ann, "rhino", kind="go", size=9))
        try:
            await go.until(lambda follower: follower.game["status"] == "aborted", LONG)
            assert go.game["challenge"]["message"] == f"rhino declined the challenge: {GENERIC}"
        finally:
            await go.close()
        game_id = await challenge(ann, "rhino", kind="othello", size=8)
        human = await Follower.open(ann, game_id)
        await human.until(lambda follower: follower.game["status"] == "active", LONG)
        assert human.game["bots"] == {"black": False, "white": True}
        restarted = False
        while True:
            await human.until(black_to_play_or_over, LONG)
            if human.game["status"] != "active":
                break
            ply = await human.play_first_legal()
            await human.at_ply(ply + 1, LONG)
            if not restarted and ply >= 10:
                # Mid-game the bridge dies with its engine; a new one picks the game up.
                running.kill()
                running.wait()
                running = start()
                restarted = True
    except (AssertionError, TimeoutError, urllib.error.HTTPError):
        show_failure(log, tmp_path / "bridge.log", human)
        raise
    finally:
        running.kill()
        running.wait()
        if human is not None:
            await human.close()
    game = human.game
    assert restarted and game["status"] == "finished", game["status"]
    # Every white move was the engine's, played to the end: the board is full or
    # neither side could move, and the result is the count of the discs.
    assert game["ply"] > 20 and game["result"]
    assert not human.errors


async def handshake_status(server: Daphne, path: str, token: str | None) -> int:
    """The HTTP status of a websocket handshake on ``path`` (101 once accepted)."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    try:
        async with connect(
            server.url.replace("http://", "ws://", 1) + path,
            origin=Origin(server.url),
            additional_headers=headers,
        ):
            return 101
    except InvalidStatus as refused:
        return int(refused.response.status_code)


async def test_a_real_daphne_refuses_a_bad_token_on_the_handshake_with_401(
    server: Daphne,
) -> None:
    token = await asyncio.to_thread(bot_token, server, "robo")
    assert await handshake_status(server, "/ws/bot/", token) == 101
    # A token that is no token, or none on the bots' stream: 401, as on HTTP.
    assert await handshake_status(server, "/ws/bot/", token + "x") == 401
    assert await handshake_status(server, "/ws/bot/", None) == 401
    assert await handshake_status(server, "/ws/lobby/", "oth_nonsense") == 401
    # Without a token the lobby is open to anyone.
    assert await handshake_status(server, "/ws/lobby/", None) == 101
