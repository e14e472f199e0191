"""Guests who log in keep their seats.

A guest's seat is bound to the browser's session key, and Django's ``login()`` gives
the session a new key (``cycle_key()``, against session fixation) before it sends
``user_logged_in``, so by then the old key is gone. Session data survives the new key,
though: a guest taking a seat writes the key that holds it into the session
(``remember_guest_session``), and on login the receiver below hands the seats held by
that key to the account (``services.claim_guest_seats``). Every way of logging in goes
through ``login()``: the login page, signing up, the admin's login.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest

from games import services
from games.services import Player

GUEST_SESSION_KEY = "guest_session_key"
"""The session data entry naming the session key that holds this browser's guest seats."""

NAME_KEY = "player_name"
"""The session data entry holding the name this browser last gave (a seat's, the chat's)."""


def remember_guest_session(session: SessionBase) -> None:
    """Note in ``session`` (a guest's, about to take a seat) the key its seats are bound to."""
    if session.session_key is not None:
        session[GUEST_SESSION_KEY] = session.session_key


def claim_on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """``user_logged_in`` receiver: the guest seats of this browser go to the account.

    Without a request (a login over a websocket, ``channels.auth.login``) there is
    nothing to carry over.
    """
    if request is None:
        return
    guest_session_key = request.session.pop(GUEST_SESSION_KEY, None)
    if not guest_session_key:
        return
    services.claim_guest_seats(
        guest_session_key=guest_session_key,
        player=Player(session_key=request.session.session_key, user_id=user.pk),
    )
