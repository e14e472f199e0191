"""The form field of every name a person types (a guest's seat name, a tournament's name):
the name rules of ``accounts.names`` before any other check."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts import names


class TypedNameField(forms.CharField):
    """A name as typed: refused when it holds a control or format character (before
    anything else: trimming, required, length), then in NFKC form and trimmed."""

    def to_python(self, value: Any) -> str:
        if isinstance(value, str):
            try:
                value = names.normalised(value)
            except names.BadName as error:
                raise forms.ValidationError(str(error), code="bad_name") from None
        return str(super().to_python(value))
