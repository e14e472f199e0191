"""``{% form_token %}``: a form's one-time token (accounts.once), as a hidden field."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from accounts import once

register = template.Library()


@register.simple_tag
def form_token() -> SafeString:
    """A hidden field with a fresh one-time token: the form does its work once however
    often it is sent."""
    return format_html(
        '<input type="hidden" name="{}" value="{}">', once.FORM_TOKEN, once.new_token()
    )
