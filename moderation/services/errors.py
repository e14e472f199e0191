"""The refusal every moderation use case raises."""

from __future__ import annotations

from accounts.refusals import Refusal


class ModerationError(
    Refusal,
    codes={"bad_request": 400, "rate_limited": 429, "not_found": 404},
):
    """A report or an action refused: 400 ``bad_request`` naming the field at fault, 429
    ``rate_limited`` (a reporter's reports of the day), 404 ``not_found`` (no such account
    to act on)."""
