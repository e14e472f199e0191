"""games.models: a seat is a value read from the game's row (``Game.seat``, ``Game.seats``),
written through ``Game.set_seat``; the filters on a seat in its own words (``seat_q``)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User

from games.models import Game, Seat, any_seat_q, seat_column, seat_columns, seat_q

MOMENT = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)


def a_game(**fields: object) -> Game:
    return Game(
        kind="othello", size=8, creator_color="black", snapshot={}, to_move="black", **fields
    )


def test_a_seat_reads_its_colours_columns() -> None:
    game = a_game(
        black_name="Ann",
        black_session_key="ann-session",
        black_online=True,
        white_name="Engine (level 3)",
        white_away_since=MOMENT,
        white_accepted=True,
        computer_color="white",
    )

    black, white = game.seats

    assert (black.color, black.name, black.session_key, black.online) == (
        "black",
        "Ann",
        "ann-session",
        True,
    )
    assert (black.away_since, black.accepted, black.computer) == (None, False, False)
    assert (white.color, white.name, white.online, white.away_since) == (
        "white",
        "Engine (level 3)",
        False,
        MOMENT,
    )
    assert white.accepted and white.computer
    assert game.seat("white") == white and black.opponent == white and white.opponent == black
    assert game.creator == black and not black.free


def test_a_seat_is_a_value_of_the_row_as_read() -> None:
    game = a_game(black_name="Ann")
    before = game.seat("black")

    changed = game.set_seat("black", name="Bob", online=True)

    assert changed == ["black_name", "black_online"]
    assert before.name == "Ann" and not before.online
    assert (game.seat("black").name, game.seat("black").online) == ("Bob", True)
    assert game.seat("white").free
    with pytest.raises(AttributeError):
        before.name = "Carol"  # type: ignore[misc]


def test_a_seat_is_black_or_white_with_seats_fields() -> None:
    game = a_game()
    with pytest.raises(ValueError, match="red"):
        game.seat("red")
    with pytest.raises(ValueError, match="rating"):
        game.set_seat("black", rating=1500)


@pytest.mark.django_db
def test_a_seats_filters_name_its_columns() -> None:
    ann = User.objects.create_user("ann")
    bob = User.objects.create_user("bob")
    as_black = a_game(black_user=ann, black_name="ann")
    as_white = a_game(white_user=ann, white_name="ann", black_user=bob, black_name="bob")
    as_black.save()
    as_white.save()

    assert list(Game.objects.filter(seat_q("black", user=ann))) == [as_black]
    assert list(Game.objects.filter(seat_q("white", user__isnull=False))) == [as_white]
    assert set(Game.objects.filter(any_seat_q(user=ann))) == {as_black, as_white}
    assert as_white.seat_of_user(bob.pk) == as_white.seat("black")
    assert as_black.seat_of_user(bob.pk) is None and as_black.seat_of_user(None) is None
    assert seat_column("white", "user") == "white_user"
    assert seat_columns("black", name="x", online=True) == {"black_name": "x", "black_online": True}
    assert isinstance(as_black.seat("black"), Seat) and as_black.seat("black").user == ann
