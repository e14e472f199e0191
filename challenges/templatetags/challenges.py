"""``{% challenge_inbox %}``: the header's challenge inbox (``templates/base.html``) for the
logged-in account: the challenges waiting for its answer, each with Accept and Decline (a
reason to pick), kept live by static/js/inbox.js."""

from __future__ import annotations

from typing import Any

from django import template

from challenges import selectors
from challenges.models import Reason

register = template.Library()


@register.inclusion_tag("challenges/_inbox.html", takes_context=True)
def challenge_inbox(context: template.Context) -> dict[str, Any]:
    """The inbox of the request's account (nothing for a visitor not logged in, nor on a
    page rendered without its request)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    show = user is not None and user.is_authenticated
    return {
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "show": show,
        "challenges": list(selectors.incoming(user.pk)) if show else [],
        "reasons": Reason.choices,
    }
