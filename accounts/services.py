"""Writes of accounts' own facts, one transaction each."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import Account


@transaction.atomic
def make_bot(*, user: Any) -> Account:
    """``user`` a bot for good (from now on; a bot already stays as it was). The bots app
    decides who may become one."""
    account, _ = Account.objects.select_for_update().get_or_create(user=user)
    if not account.is_bot:
        account.is_bot = True
        account.bot_since = timezone.now()
        account.save(update_fields=["is_bot", "bot_since"])
    return account
