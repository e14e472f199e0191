"""Moderation's use cases, one module an area, as Zulip's ``zerver/actions``: ``reports``
(an account reporting another), ``actions`` (a staff member's action on an account, the
log's entry written with it), ``playbans`` (the games an account let end without its
move or left, and the playbans they earn: a flag on the account's row, as the actions
set).

Each use case is one transaction; an action locks the account's row first, so that two
staff acting at once on one account are applied one after the other, each logged.
"""

from moderation.services.actions import HOURS_MAX, act
from moderation.services.errors import ModerationError
from moderation.services.reports import DAILY_LIMIT, Filed, report

__all__ = ["DAILY_LIMIT", "HOURS_MAX", "Filed", "ModerationError", "act", "report"]
