"""What the apps above add to a profile page (an extension point: each registers in its
``AppConfig.ready``): a part is a function of the request and the profile's account that
returns HTML (the challenges app's Challenge form), or an empty string for nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from django.utils.safestring import SafeString, mark_safe

ProfilePart = Callable[[HttpRequest, Any], str]

_parts: list[ProfilePart] = []


def register_profile_part(part: ProfilePart) -> None:
    """Add ``part`` to every profile page (once)."""
    if part not in _parts:
        _parts.append(part)


def profile_parts(request: HttpRequest, user: Any) -> list[SafeString]:
    """The registered parts' HTML for ``user``'s profile seen by ``request``, in order of
    registration, the empty ones left out."""
    found = (part(request, user) for part in _parts)
    return [mark_safe(html) for html in found if html]
