"""Sign-up: a username (unique in any case, as Django's form checks, and never the name
every nameless guest plays under), a password twice, and an optional e-mail address; and
the one-time token field of the forms that must do their work once (``accounts.once``)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext, gettext_lazy

from accounts import names, once, selectors
from accounts.players import GUEST_NAME


class FormTokenField(forms.CharField):
    """A form's one-time token (``accounts.once``): optional; a malformed one is an error
    on the field."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs: object) -> None:
        super().__init__(required=False, max_length=64, **kwargs)  # type: ignore[arg-type]

    def clean(self, value: object) -> str | None:
        try:
            return once.checked(super().clean(value))
        except once.TokenError as error:
            raise forms.ValidationError(str(error)) from None


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    """`/accounts/signup/`: a username, a password twice, and an optional e-mail address,
    the one a password reset link is sent to."""

    email = forms.EmailField(
        required=False,
        label=gettext_lazy("E-mail (optional)"),
        help_text=gettext_lazy("Only to send you a link if you forget your password."),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_username(self) -> str:
        """The username, unless it is an account's in any case (Django's check), looks like
        the guests' name or like an account's (the same skeleton: ``accounts.names``)."""
        username = str(super().clean_username())
        if names.skeleton(username) == names.skeleton(GUEST_NAME):
            raise forms.ValidationError(
                gettext("%(guest_name)s is the name of every guest: choose another.")
                % {"guest_name": GUEST_NAME}
            )
        taken = selectors.account_like(username)
        if taken is not None:
            raise forms.ValidationError(
                gettext(
                    "%(name)s looks too much like %(username)s, an account's name: choose another."
                )
                % {"name": username, "username": taken}
            )
        return username
