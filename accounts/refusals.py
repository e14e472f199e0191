"""The one shape of a refused request, whatever app refuses it: a code of the contract, a
message for a person, the field at fault, what else the refusal carries, and its HTTP
status. Each app's use cases raise a subclass that names its codes (``GameError``,
``PairingError``, ``TournamentError``, ``ModerationError``, ``PuzzleError``);
``accounts.answers.refusal`` answers any of them as JSON or as a page."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar


class Refusal(Exception):
    """A request refused: ``code`` (one of the subclass's ``CODES``), ``message`` for a
    person, ``field`` (the request's field at fault, shown beside it by a form) and
    ``details`` (what the refusal carries besides: a playban's or a mute's ``until``).

    A subclass names the codes it may raise, each with its HTTP status, as a class
    keyword: ``class PuzzleError(Refusal, codes={"bad_request": 400, "not_found": 404})``
    (kept read-only in ``CODES``); a code it does not name is a programming error
    (ValueError), caught where it is written.
    """

    CODES: ClassVar[Mapping[str, int]] = MappingProxyType({})

    def __init_subclass__(cls, *, codes: Mapping[str, int], **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.CODES = MappingProxyType(dict(codes))

    def __init__(
        self,
        code: str,
        message: str,
        *,
        field: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        if code not in self.CODES:
            raise ValueError(f"unknown error code {code!r} for {type(self).__name__}")
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.field = field
        self.details = details or {}

    @property
    def status(self) -> int:
        """The HTTP status this refusal answers with."""
        return self.CODES[self.code]
