"""What the tournaments' tests share: accounts, a tournament made through the service,
and a game ended through games' services."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from accounts.players import Player
from gamerules.clock import TimeControl
from games.models import Game
from games.services import clock, play
from tournaments import services
from tournaments.models import Tournament

START = datetime.datetime(2026, 11, 26, 18, 0, tzinfo=datetime.UTC)


def account(name: str) -> AbstractBaseUser:
    return get_user_model().objects.create_user(name, password="secret-pass-1")


def player(user: AbstractBaseUser) -> Player:
    return Player(user_id=user.pk, username=user.get_username())


def tournament(system: str = "arena", **options: Any) -> Tournament:
    creator = get_user_model().objects.filter(username="creator").first() or account("creator")
    defaults: dict[str, Any] = {
        "system": system,
        "name": f"The {system}",
        "kind": "othello",
        "size": 8,
        "time_control": TimeControl.fischer(main_time=180, increment=2),
        "rated": False,
        "starts_at": START,
        "duration": 60 if system == "arena" else None,
        "rounds": 3 if system in ("swiss", "mcmahon") else None,
        "bar": None,
        "now": START - datetime.timedelta(hours=1),
    }
    return services.create(user_id=creator.pk, **{**defaults, **options})


def joined(found: Tournament, *names: str) -> list[AbstractBaseUser]:
    users = [account(name) for name in names]
    for user in users:
        services.join(user_id=user.pk, tournament_id=found.pk, now=START)
    return users


def win(game: Game, winner: AbstractBaseUser) -> None:
    """The game ended: ``winner``'s opponent resigns (Black, when ``winner`` does not play
    in it)."""
    game.refresh_from_db()
    seat = game.seat_of_user(winner.pk)
    loser = game.seat("black") if seat is None else seat.opponent
    play.resign(player=Player(user_id=loser.user_id), game_id=game.public_id)


def unplayed(game: Game, *, at: datetime.datetime = START) -> None:
    """Nobody made the first move in time: the game's deadline passed, the clock watch
    flags it (it ends at the first-move deadline, lost by its side to move, black), and it
    ended ``at``."""
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - datetime.timedelta(seconds=1))
    clock.flag(game_id=game.public_id)
    Game.objects.filter(pk=game.pk).update(finished_at=at)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.to_move == "black"


def draw(game: Game) -> None:
    """The game ended as a draw (stored as a finished game would be)."""
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, result="Draw")
