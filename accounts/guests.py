"""Guests who log in keep what they did as guests.

A guest's seat is bound to the browser's session key, and Django's ``login()`` gives
the session a new key (``cycle_key()``, against session fixation) before it sends
``user_logged_in``, so by then the old key is gone. Session data survives the new key,
though: a guest taking a seat writes the key that holds it into the session
(``remember_guest_session``), and on login the receiver below tells the apps above
(``accounts.signals.guest_logged_in``), whose receivers hand what that key held to the
account. Every way of logging in goes through ``login()``: the login page, signing up,
the admin's login.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest

from accounts import signals

GUEST_SESSION_KEY = "guest_session_key"
"""The session data entry naming the session key that holds this browser's guest seats."""

NAME_KEY = "player_name"
"""The session data entry holding the name this browser last gave as a guest."""


def remember_guest_session(session: SessionBase) -> None:
    """Note in ``session`` (a guest's, about to take a seat) the key its seats are bound to."""
    if session.session_key is not None:
        session[GUEST_SESSION_KEY] = session.session_key


def logged_in(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """``user_logged_in`` receiver: the guest seats of this browser go to the account
    (``signals.guest_logged_in``), and the guest's name is forgotten (the account's is
    its username).

    Without a request (a login over a websocket, ``channels.auth.login``) there is
    nothing to carry over.
    """
    if request is None:
        return
    request.session.pop(NAME_KEY, None)
    guest_session_key = request.session.pop(GUEST_SESSION_KEY, None)
    if not guest_session_key:
        return
    signals.guest_logged_in.send(
        sender=user.__class__,
        guest_session_key=guest_session_key,
        session=request.session,
        user=user,
    )
