"""Reads of accounts that every app above asks: whether an account is a bot, whether a
name looks like an account's, the names that start with a prefix, who follows and who
blocks whom, and the address an account may be mailed at (its verified one)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.db.models import Count, Q

from accounts import names
from accounts.models import Account, Block, Follow


def bot_filter(field: str, *, bots: bool = True) -> Q:
    """A filter on ``field``, a path to an account (e.g. ``user`` of a model with a
    foreign key to it, or ``pk`` on the accounts): the rows of bots, or with
    ``bots=False`` of everyone else (people, and rows without an account)."""
    path = "account__is_bot" if field == "pk" else f"{field}__account__is_bot"
    inside = Q(**{path: True})
    return inside if bots else ~inside


def bot_ids(user_ids: Iterable[int | None]) -> set[int]:
    """Which of ``user_ids`` are bots (one query; none for no ids)."""
    wanted = {user_id for user_id in user_ids if user_id is not None}
    if not wanted:
        return set()
    bots = get_user_model().objects.filter(bot_filter("pk"), pk__in=wanted)
    return set(bots.values_list("pk", flat=True))


def is_bot(user: Any) -> bool:
    """True if ``user`` (an account, an id, or anonymous/None) is a bot account."""
    user_id = user if isinstance(user, int) else getattr(user, "pk", None)
    return user_id is not None and user_id in bot_ids([user_id])


def account_with_skeleton(shown: str) -> str | None:
    """The username of an account whose username's skeleton is ``shown``
    (``accounts.names.skeleton``), None when there is none (one indexed lookup)."""
    found = Account.objects.filter(skeleton=shown).order_by("pk")
    return found.values_list("user__username", flat=True).first()


def account_like(name: str) -> str | None:
    """The username of an account whose username looks like ``name`` (trimmed: the same
    skeleton, so also in any case, in full-width letters, or with Cyrillic look-alikes),
    None when there is none, nor for a blank name: a guest may not sit down under such a
    name, nor a new account take it."""
    name = name.strip()
    return account_with_skeleton(names.skeleton(name)) if name else None


def username_of(user_id: int) -> str:
    """The username of the account ``user_id`` (which exists)."""
    return str(get_user_model().objects.values_list("username", flat=True).get(pk=user_id))


def account_named(username: str, *, any_case: bool = False) -> Any:
    """The account named ``username`` (exactly, or with ``any_case`` in any case: no two
    accounts differ only in case), None when there is none; with how many follow it
    (``follower_count``) and its row (``Account``: what the apps ask of it)."""
    lookup = "username__iexact" if any_case else "username"
    found = get_user_model().objects.filter(**{lookup: username}).select_related("account")
    return found.annotate(follower_total=Count("followers", distinct=True)).first()


SEARCHED = 10
"""How many names ``names_starting`` gives at most."""


def names_starting(prefix: str) -> list[tuple[str, bool]]:
    """Up to ``SEARCHED`` accounts whose username starts with ``prefix`` (in any case),
    shortest then alphabetical, each with whether it is a bot; none for a blank prefix."""
    prefix = prefix.strip()
    if not prefix:
        return []
    found = (
        get_user_model()
        .objects.filter(username__istartswith=prefix, is_active=True)
        .values_list("pk", "username")
    )
    rows = sorted(found, key=lambda row: (len(row[1]), row[1].lower()))[:SEARCHED]
    bots = bot_ids(pk for pk, _ in rows)
    return [(username, pk in bots) for pk, username in rows]


def blocks(blocker_id: int | None, blocked_id: int | None) -> bool:
    """Whether the account ``blocker_id`` blocks ``blocked_id`` (False for a guest)."""
    if blocker_id is None or blocked_id is None:
        return False
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def blocked_ids(blocker_id: int | None) -> set[int]:
    """The accounts that ``blocker_id`` blocks (none for a guest)."""
    if blocker_id is None:
        return set()
    return set(Block.objects.filter(blocker_id=blocker_id).values_list("blocked_id", flat=True))


def kept_apart(user_ids: Iterable[int | None]) -> set[frozenset[int]]:
    """The pairs among ``user_ids`` of which one blocks the other (one query)."""
    wanted = {user_id for user_id in user_ids if user_id is not None}
    if len(wanted) < 2:
        return set()
    found = Block.objects.filter(blocker_id__in=wanted, blocked_id__in=wanted)
    return {frozenset(pair) for pair in found.values_list("blocker_id", "blocked_id")}


def follows(follower_id: int | None, followed_id: int) -> bool:
    """Whether the account ``follower_id`` follows ``followed_id``."""
    if follower_id is None:
        return False
    return Follow.objects.filter(follower_id=follower_id, followed_id=followed_id).exists()


def followers_of(user_ids: Iterable[int]) -> list[tuple[int, int]]:
    """Who follows whom among ``user_ids``' followers: ``(follower, followed)`` for each
    follow of one of ``user_ids`` (one query)."""
    wanted = set(user_ids)
    if not wanted:
        return []
    found = Follow.objects.filter(followed_id__in=wanted)
    return list(found.values_list("follower_id", "followed_id"))


def follower_count(user: Any) -> int:
    """How many accounts follow ``user`` (read with it by ``account_named``: no query)."""
    counted = getattr(user, "follower_total", None)
    if counted is not None:
        return int(counted)
    return Follow.objects.filter(followed_id=user.pk).count()


def followed_accounts(follower_id: int) -> list[Any]:
    """The accounts ``follower_id`` follows, by username."""
    found = Follow.objects.filter(follower_id=follower_id).select_related("followed")
    return sorted((row.followed for row in found), key=lambda user: user.get_username().lower())


def verified_email(user_id: int) -> str:
    """The address the account ``user_id`` may be mailed at: its primary one once
    verified; "" while it is not (nothing but password resets is sent to it), or for an
    account without one."""
    return verified_emails([user_id]).get(user_id, "")


def verified_emails(user_ids: Iterable[int]) -> dict[int, str]:
    """``verified_email`` of each of ``user_ids`` that has one (one query)."""
    found = EmailAddress.objects.filter(user_id__in=list(user_ids), primary=True, verified=True)
    return dict(found.values_list("user_id", "email"))


def unverified_email(user: Any) -> str:
    """The address of ``user`` (an account) that is waiting for its link to be followed:
    the one on its row while it has no verified one; "" otherwise."""
    if not user.email or verified_email(user.pk):
        return ""
    return str(user.email)
