"""A notification's words, made when it is read: from its kind and its parameters, in the
language active then (the reader's: the page's, the socket's, the account's for an e-mail
or a push).

A notification stores what happened (its kind and plain parameters: names, a game's
kind and size, a result, a move), never sentences (lila's ``notify`` keeps content, not
text): an account that changes its language reads its old notifications in the new one.
The app that tells a kind says how it reads (``register``, in its ``AppConfig.ready``):
games ``your_move``, ``game_over`` and ``follow_playing``; challenges theirs;
tournaments theirs. A notification stored before this (its words kept as
``{"legacy": words}``) reads as it was written.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger(__name__)

LEGACY = "legacy"
"""The parameter holding the words of a notification stored before its words were made
when read (migration 0004): shown as they are, in the language they were written in."""

Text = Callable[[Mapping[str, Any]], str]
"""A kind's words from its parameters, in the active language (gettext)."""
Details = Callable[[Mapping[str, Any], datetime.datetime], list[str]]
"""A kind's further lines for its e-mail, as of a moment (the opponent's move, the time
left then), in the active language."""


@dataclass(frozen=True)
class Words:
    text: Text
    details: Details | None = None


_kinds: dict[str, Words] = {}


def register(kind: str, text: Text, details: Details | None = None) -> None:
    """How notifications of ``kind`` read: ``text`` makes their words (the page, the JSON,
    the socket, a push, an e-mail's subject and link), ``details`` an e-mail's further
    lines. A second registration of a kind replaces the first."""
    _kinds[kind] = Words(text, details)


def text_of(kind: str, params: Mapping[str, Any]) -> str:
    """The words of a notification of ``kind`` with ``params``, in the active language:
    its legacy words if it has them; "" when no app says how the kind reads or its
    parameters are not what the kind reads (logged): ``models.words_of`` then says the
    kind's name."""
    legacy = params.get(LEGACY)
    if isinstance(legacy, str):
        return legacy
    words = _kinds.get(kind)
    if words is not None:
        try:
            return words.text(params)
        except (KeyError, TypeError, ValueError):
            logger.exception("the words of a %s notification from %r", kind, dict(params))
    return ""


def details_of(kind: str, params: Mapping[str, Any], now: datetime.datetime) -> list[str]:
    """An e-mail's further lines for a notification of ``kind`` (none for most kinds), as
    of ``now``, in the active language."""
    words = _kinds.get(kind)
    if words is None or words.details is None or LEGACY in params:
        return []
    try:
        return words.details(params, now)
    except (KeyError, TypeError, ValueError):
        logger.exception("the details of a %s notification from %r", kind, dict(params))
        return []
