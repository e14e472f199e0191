"""Who is behind an HTTP request: the Player a view acts for (a session, an account, or
an API token's account) and the name a seat takes (the one given, remembered in the
session for next time)."""

from __future__ import annotations

from django.http import HttpRequest

from games import guests
from games.services import Player

DEFAULT_NAME = "Guest"


def player_of(request: HttpRequest, *, create_session: bool = False) -> Player:
    """The Player behind a request; a guest about to take a seat gets a session first,
    which remembers the key its seats are bound to (kept through a later login)."""
    user = request.user
    # A request with an API token (bots.middleware) acts as its account, without a session.
    if getattr(request, "auth_token", None) is not None:
        return Player(user_id=user.pk)
    if create_session and request.session.session_key is None:
        request.session.save()
    if create_session and not user.is_authenticated:
        guests.remember_guest_session(request.session)
    return Player.of(request.session, user)


def remembered_name(request: HttpRequest) -> str:
    """The name this browser last gave, else the account's, else "" (a guest who never
    gave one)."""
    name = request.session.get(guests.NAME_KEY)
    if name:
        return str(name)
    return request.user.get_username() if request.user.is_authenticated else ""


def seat_name(request: HttpRequest, given: str) -> str:
    """The name to seat: the one given (and remembered), else the last one, else Guest."""
    if given:
        request.session[guests.NAME_KEY] = given
        return given
    return remembered_name(request) or DEFAULT_NAME
