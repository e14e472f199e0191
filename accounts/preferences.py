"""An account's preferences of play, kept on its row: when its moves wait for a
confirmation (``confirm_moves``). The game page reads it (a guest's choice stays in the
browser); the settings page changes it."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from accounts.models import Account, ConfirmMoves

__all__ = ["ConfirmMoves", "choose_confirm_moves", "confirm_moves_of"]


def confirm_moves_of(user: Any) -> str:
    """When ``user``'s moves wait for Confirm (a ``ConfirmMoves`` value), or "" when it has
    not chosen (and for a guest): the page then asks for it in correspondence games on a
    touch screen, never elsewhere."""
    if not getattr(user, "is_authenticated", False):
        return ""
    found = Account.objects.filter(user_id=user.pk).values_list("confirm_moves", flat=True)
    return found.first() or ""


@transaction.atomic
def choose_confirm_moves(*, user: Any, value: object) -> str:
    """Keep ``value`` (``never``, ``correspondence`` or ``always``) as ``user``'s choice and
    return it. Raises ValueError, saying why, for anything else."""
    if value not in ConfirmMoves.values:
        raise ValueError(gettext("confirm_moves must be never, correspondence or always"))
    Account.objects.update_or_create(user=user, defaults={"confirm_moves": value})
    return str(value)
