"""Who is behind a request or a socket: the ``Player`` every use case acts for (a browser
session and, when logged in, an account), and the name a seat of theirs takes.

An account's seat is named by its username, whatever a form says; a guest's by the name
it gave (remembered in its session for next time), which may not hold a control or format
character (``accounts.names``) nor look like an account's (``accounts.selectors.account_like``),
else "Guest".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest

from accounts import guests, names, selectors

GUEST_NAME = "Guest"


def seat_token(*, session_key: str | None, user_id: int | None) -> str | None:
    """The opaque id of a seat holder (``Player.token``): the account when there is one,
    else the browser session; None for neither."""
    if user_id is not None:
        return f"u:{user_id}"
    if session_key:
        return f"s:{session_key}"
    return None


@dataclass(frozen=True)
class Player:
    """Whoever sends a request: a browser session and, when logged in, an account.

    ``username`` is the account's, when the caller had it at hand (``Player.of``); a seat
    asks the database otherwise. Two Players are the same whatever it says.
    """

    session_key: str | None = None
    user_id: int | None = None
    username: str | None = field(default=None, compare=False)

    @classmethod
    def of(cls, session: Any, user: Any) -> Player:
        """The Player behind an HTTP request or a websocket: ``session`` (a Django
        session, or None) and ``user`` (the account, anonymous, or None)."""
        account = user if user is not None and user.is_authenticated else None
        return cls(
            session_key=session.session_key if session is not None else None,
            user_id=account.pk if account is not None else None,
            username=account.get_username() if account is not None else None,
        )

    @property
    def token(self) -> str | None:
        """An opaque id of the seat holder: the account when there is one, else the session.

        None for a visitor with neither, who can only watch.
        """
        return seat_token(session_key=self.session_key, user_id=self.user_id)


def player_of(request: HttpRequest, *, create_session: bool = False) -> Player:
    """The Player behind a request; a guest about to take a seat gets a session first,
    which remembers the key its seats are bound to (kept through a later login).

    A request with an API token (``request.auth_token``, set by the bots' middleware)
    acts as the token's account, without a session."""
    user = request.user
    if getattr(request, "auth_token", None) is not None:
        return Player(user_id=user.pk, username=user.get_username())
    if create_session and request.session.session_key is None:
        request.session.save()
    if create_session and not user.is_authenticated:
        guests.remember_guest_session(request.session)
    return Player.of(request.session, user)


def remembered_name(session: SessionBase | None, user: Any = None) -> str:
    """The name a seat or a chat line of this visitor takes when it gives none: an
    account's username; a guest's last given name, unless an account has taken it (or
    one that looks like it) since, or the name rules refuse it now; else "" (a guest who
    never gave one). Reads the database for a guest's name."""
    if user is not None and user.is_authenticated:
        return str(user.get_username())
    name = str((session.get(guests.NAME_KEY) if session is not None else None) or "")
    if not name:
        return ""
    try:
        name = names.normalised(name)
    except names.BadName:
        return ""
    return "" if selectors.account_like(name) is not None else name


def seat_name(request: HttpRequest, given: str) -> str:
    """The name this request's seat takes: an account's username (``given`` is ignored);
    a guest's ``given`` name, else the one it gave last, else "Guest". The services refuse
    a guest's name that the name rules refuse or that looks like an account's
    (``accounts.selectors.account_like``)."""
    if request.user.is_authenticated:
        return str(request.user.get_username())
    return given.strip() or remembered_name(request.session) or GUEST_NAME


def remember_name(request: HttpRequest, name: str) -> None:
    """Keep the name a guest just sat down with, for its next seat and its chat lines."""
    if not request.user.is_authenticated:
        request.session[guests.NAME_KEY] = name


def spoken_name(session: SessionBase | None, user: Any) -> str:
    """The name of a chat line's sender who does not sit in the game (a player's is
    their seat's): as ``remembered_name``, else "Guest". Reads the database: call it
    outside the event loop."""
    return remembered_name(session, user) or GUEST_NAME
