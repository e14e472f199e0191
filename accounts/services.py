"""Writes of accounts' own facts, one transaction each: a bot for good; follows and blocks
(one account and another, by id); what a username looks like, kept with it; and the lock
that makes an account's capped actions one at a time (``hold``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from accounts import names
from accounts.models import Account, Block, Follow


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


def keep_skeleton(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    """``post_save`` receiver of accounts: the account's row holds the skeleton of its
    username as it now is (``accounts.names.skeleton``; the row is made for a new
    account). A save that names its fields without ``username`` (a login's
    ``last_login``) changes nothing, at no cost."""
    if update_fields is not None and "username" not in update_fields:
        return
    shown = names.skeleton(instance.get_username())
    if not Account.objects.filter(user=instance).update(skeleton=shown):
        Account.objects.update_or_create(user=instance, defaults={"skeleton": shown})


def hold(user_id: int) -> None:
    """The account's row locked until the transaction ends (call it inside one): the
    account's capped actions (its challenges, its tournaments) are counted and made one at
    a time, so two at once cannot both pass the count."""
    accounts = get_user_model().objects.select_for_update(no_key=True)
    list(accounts.filter(pk=user_id).values_list("pk"))


class RelationError(ValueError):
    """A follow or a block the accounts refuse: of oneself, or followed by an account that
    the other blocks (told as if the other were unknown: a block is not revealed)."""


REFUSED = gettext_noop("you cannot challenge or follow this player")
"""The refusal of a follow or a challenge to an account that blocks the asker, and the
same words for a name that is no account: a block is not revealed, and the words read as a
refusal, not as "no such player" on the player's own profile."""


def follow(*, follower_id: int, followed_id: int) -> bool:
    """``follower_id`` follows ``followed_id`` (again: nothing changes); whether it is new.
    Raises RelationError for oneself, or when ``followed_id`` blocks ``follower_id``."""
    if follower_id == followed_id:
        raise RelationError(gettext("you cannot follow yourself"))
    if Block.objects.filter(blocker_id=followed_id, blocked_id=follower_id).exists():
        raise RelationError(gettext(REFUSED))
    _, made = Follow.objects.get_or_create(follower_id=follower_id, followed_id=followed_id)
    return made


def unfollow(*, follower_id: int, followed_id: int) -> bool:
    """``follower_id`` follows ``followed_id`` no more; whether it did."""
    deleted, _ = Follow.objects.filter(follower_id=follower_id, followed_id=followed_id).delete()
    return bool(deleted)


@transaction.atomic
def block(*, blocker_id: int, blocked_id: int) -> bool:
    """``blocker_id`` blocks ``blocked_id``, who follows it no more (nor it them); whether
    the block is new. Raises RelationError for oneself."""
    if blocker_id == blocked_id:
        raise RelationError(gettext("you cannot block yourself"))
    _, made = Block.objects.get_or_create(blocker_id=blocker_id, blocked_id=blocked_id)
    Follow.objects.filter(follower_id=blocked_id, followed_id=blocker_id).delete()
    Follow.objects.filter(follower_id=blocker_id, followed_id=blocked_id).delete()
    return made


def unblock(*, blocker_id: int, blocked_id: int) -> bool:
    """``blocker_id`` blocks ``blocked_id`` no more; whether it did."""
    deleted, _ = Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).delete()
    return bool(deleted)
