"""The error every use case raises (``GameError``, with one of the contract's codes), and
a message in the reader's language (``said``)."""

from __future__ import annotations

from django.utils import translation

from accounts.refusals import Refusal

# The contract's error codes, in the order that decides which one a request gets when
# several apply. rate_limited and unavailable come from outside the services (the
# websocket's flow control, the consumer when the database cannot be reached).
ERROR_CODES = (
    "rate_limited",
    "unavailable",
    "bad_request",
    "name_taken",
    "muted",
    "not_allowed",
    "not_a_player",
    "game_over",
    "stale",
    "not_your_turn",
    "illegal_move",
)


def said(error: Exception) -> str:
    """``error``'s message in the active language: the rules' errors and the clock's carry
    their message's template (``translated``); any other as written."""
    translate = getattr(error, "translated", None)
    return translate(translation) if callable(translate) else str(error)


class GameError(
    Refusal,
    codes={
        **dict.fromkeys(ERROR_CODES, 400),
        "rate_limited": 429,
        "unavailable": 503,
        "not_a_player": 403,
    },
):
    """A request the game refuses; ``code`` is one of the contract's ``ERROR_CODES``, and
    ``field`` the request's field at fault when there is one (a form shows the message
    beside it); ``details``, what the refusal carries besides its code and message (a
    mute's ``until``).

    When several apply, the first in ``ERROR_CODES`` is raised.
    """
