"""The refusal every moderation use case raises."""

from __future__ import annotations

ERROR_CODES = ("bad_request", "rate_limited", "not_found")
"""A refused report or action: 400 ``bad_request`` naming the field at fault, 429
``rate_limited`` (a reporter's reports of the day), 404 ``not_found`` (no such account to
act on)."""

STATUS = {"bad_request": 400, "rate_limited": 429, "not_found": 404}


class ModerationError(Exception):
    """A report or an action refused: ``code`` (one of ``ERROR_CODES``), a message for a
    person, and the ``field`` at fault when there is one; ``status``, its HTTP status."""

    def __init__(self, code: str, message: str, *, field: str | None = None) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.field = field

    @property
    def status(self) -> int:
        return STATUS[self.code]
