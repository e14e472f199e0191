"""The template context every page gets from notifications: the account's unread count
(the bell in the header)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from notifications.services import unread_count


def unread(request: HttpRequest) -> dict[str, Any]:
    """``unread_notifications``: how many of the logged-in account's notifications are
    unread (0 for a visitor; one query for an account)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"unread_notifications": 0}
    return {"unread_notifications": unread_count(user.pk)}
