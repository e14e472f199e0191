# ruff: noqa: RUF001 (the words name a board with the multiplication sign, as the site does)
"""What the games tell their players (games.services.tell): your move, in a game the
player is away from or by correspondence; the game's end; and the account's open pages
hear it on the lobby socket at once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from accounts.players import Player
from gamerules.clock import TimeControl
from games import selectors
from games.models import Game
from games.services import lobby, play
from notifications import channels, outbox
from notifications.models import Delivery, Notification
from othello_site.asgi import application
from tests.conftest import FrozenClock
from tests.pairing.test_consumers import HEADERS, TIMEOUT
from tests.support.helpers import verified_account

pytestmark = pytest.mark.django_db(transaction=True)

CORRESPONDENCE = TimeControl.correspondence(days=3)
BLITZ = TimeControl.fischer(main_time=300, increment=3)


def account(name: str) -> tuple[User, Player]:
    user = verified_account(name, email=f"{name}@example.org")  # verified: mailed
    return user, Player(session_key=f"{name}-session", user_id=user.pk, username=name)


def game_between(black: Player, white: Player, control: TimeControl | None) -> Game:
    game = lobby.create_game(
        player=black,
        new=lobby.NewGame(kind="othello", size=8, color="black", name="", time_control=control),
    )
    return lobby.join_game(player=white, game_id=game.public_id, name="")


def move(game: Game, player: Player) -> Game:
    game = Game.objects.get(pk=game.pk)
    point = selectors.position_of(game).legal_moves()[0]
    play.play(player=player, game_id=game.public_id, ply=game.ply, point=list(point))
    return Game.objects.get(pk=game.pk)


def notifications_of(user: User) -> list[tuple[str, str, bool]]:
    return [
        (n.kind, n.text, n.read_at is None)
        for n in Notification.objects.filter(user=user).order_by("created_at", "pk")
    ]


def test_a_correspondence_move_tells_the_opponent_by_site_and_mail() -> None:
    (ann, black), (bob, white) = account("ann"), account("bob")
    game = game_between(black, white, CORRESPONDENCE)

    game = move(game, black)

    assert notifications_of(bob) == [("your_move", "Your move against ann (Othello 8×8)", True)]
    assert notifications_of(ann) == []
    assert list(Delivery.objects.values_list("channel", "notification__user__username")) == [
        ("email", "bob")
    ]
    move(game, white)  # Bob moved: his your_move is read; Ann's turn now
    assert notifications_of(bob) == [("your_move", "Your move against ann (Othello 8×8)", False)]
    assert [kind for kind, _, unread in notifications_of(ann) if unread] == ["your_move"]


def test_a_blitz_move_tells_an_opponent_only_when_away_and_never_by_mail() -> None:
    (_, black), (bob, white) = account("ann"), account("bob")
    game = game_between(black, white, BLITZ)
    Game.objects.filter(pk=game.pk).update(white_online=True)

    game = move(game, black)
    assert notifications_of(bob) == []

    game = move(game, white)
    Game.objects.filter(pk=game.pk).update(white_online=False)
    move(game, black)
    assert [kind for kind, _, _ in notifications_of(bob)] == ["your_move"]
    assert not Delivery.objects.exists()


def test_guests_and_the_computer_are_told_nothing() -> None:
    _, black = account("ann")
    game = lobby.create_game(
        player=black,
        new=lobby.NewGame(
            kind="othello", size=8, color="black", name="", time_control=CORRESPONDENCE
        ),
    )
    lobby.join_game(player=Player(session_key="guest"), game_id=game.public_id, name="Gil")
    move(game, black)
    against_computer = lobby.create_game(
        player=black,
        new=lobby.NewGame(
            kind="othello", size=8, color="black", name="", opponent="computer", level=1
        ),
    )
    move(against_computer, black)
    assert not Notification.objects.exists()


def test_the_end_of_a_game_tells_its_away_players() -> None:
    (ann, black), (bob, white) = account("ann"), account("bob")
    game = game_between(black, white, CORRESPONDENCE)
    game = move(game, black)

    play.resign(player=white, game_id=game.public_id)

    assert notifications_of(ann)[-1] == (
        "game_over",
        "Your game against bob (Othello 8×8) is over: Black wins by resignation",
        True,
    )
    assert [(kind, unread) for kind, _, unread in notifications_of(bob)] == [
        ("your_move", False),
        ("game_over", True),
    ]


def mailed(settings: Any) -> list[Any]:
    """The e-mails the outbox sends now (Django's test outbox)."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    outbox.deliver(process="test", send=channels.send)
    return list(mail.outbox)


def test_the_your_move_email_says_the_opponents_move_and_the_time_left(
    settings: Any, frozen_clock: FrozenClock
) -> None:
    (_, black), (_, white) = account("ann"), account("bob")
    game = game_between(black, white, CORRESPONDENCE)  # 3 days a move

    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 3])
    frozen_clock.advance(5 * 3600 + 60)  # sent 5 hours later (held by the hourly cap, say)

    [message] = mailed(settings)
    assert message.to == ["bob@example.org"]
    assert "Your move against ann (Othello 8×8)" in message.subject
    [(html, _)] = message.alternatives
    for body in (message.body, html):
        assert "ann played d3." in body
        assert "You have 2\xa0days, 18\xa0hours left to move." in body


def test_a_go_move_is_named_as_the_board_names_it_and_a_pass_as_a_pass(
    settings: Any,
) -> None:
    (ann, black), (_, white) = account("ann"), account("bob")
    game = lobby.create_game(
        player=black,
        new=lobby.NewGame(kind="go", size=9, color="black", name="", time_control=CORRESPONDENCE),
    )
    game = lobby.join_game(player=white, game_id=game.public_id, name="")

    play.play(player=black, game_id=game.public_id, ply=0, point=[2, 2])
    assert "ann played C7." in mailed(settings)[-1].body
    play.pass_turn(player=white, game_id=game.public_id, ply=1)
    [*_, to_ann] = mailed(settings)
    assert to_ann.to == [ann.email] and "bob passed." in to_ann.body


@asynccontextmanager
async def bell(username: str, *, language: str = "") -> AsyncIterator[WebsocketCommunicator]:
    """A page's bell (its lobby socket) of ``username``'s, in ``language`` (its cookie)
    if given."""

    def cookie() -> str:
        browser = Client()
        browser.force_login(User.objects.get(username=username))
        browser.get("/games/")
        return browser.cookies["sessionid"].value

    cookies = f"sessionid={await database_sync_to_async(cookie)()}"
    if language:
        cookies += f"; {django_settings.LANGUAGE_COOKIE_NAME}={language}"
    headers = [*HEADERS, (b"cookie", cookies.encode())]
    socket = WebsocketCommunicator(application, "/ws/lobby/?bell=1", headers=headers)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    try:
        yield socket
    finally:
        await socket.disconnect()


async def test_the_accounts_open_pages_hear_it_on_the_lobby_socket() -> None:
    (_, black), (_, white) = await database_sync_to_async(
        lambda: (account("ann"), account("bob"))
    )()
    game = await database_sync_to_async(game_between)(black, white, CORRESPONDENCE)
    async with bell("bob") as socket:
        assert await socket.receive_nothing(timeout=0.2)  # a bell hears no lobby
        await database_sync_to_async(move)(game, black)
        heard: dict[str, Any] = await socket.receive_json_from(timeout=2)
        assert heard["type"] == "notification" and heard["unread"] == 1
        assert heard["notification"]["kind"] == "your_move"
        assert heard["notification"]["url"] == f"/games/{game.public_id}/"
        # A seek on a bell: refused, and nothing is stored.
        await socket.send_json_to({"type": "cancel_seek"})
        assert (await socket.receive_json_from(timeout=2))["code"] == "bad_request"


async def test_moving_in_a_game_tells_the_movers_pages_its_your_move_is_read() -> None:
    (_, black), (_, white) = await database_sync_to_async(
        lambda: (account("ann"), account("bob"))
    )()
    game = await database_sync_to_async(game_between)(black, white, CORRESPONDENCE)
    game = await database_sync_to_async(move)(game, black)  # Bob's move: one unread
    async with bell("bob") as socket:
        await database_sync_to_async(move)(game, white)  # Bob moves (in another tab, say)
        assert await socket.receive_json_from(timeout=2) == {"type": "unread", "unread": 0}
        assert await socket.receive_nothing(timeout=0.2)
