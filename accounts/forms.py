"""The account forms, django-allauth's adapted to the names the pages always had: log-in,
sign-up (a username never the name every nameless guest plays under, an e-mail address
required), password reset; and the one-time token field of the forms that must do their
work once (``accounts.once``)."""

from __future__ import annotations

from typing import Any

from allauth.account import forms as allauth_forms
from django import forms
from django.contrib.auth import get_user_model
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


class LoginForm(allauth_forms.LoginForm):
    """`/accounts/login/`: ``username`` and ``password``, the names the page always had
    (allauth calls the first ``login``: its data and errors are read under that name, the
    page and the request carry ``username``). Failed logins are limited
    (``accounts.adapter``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["password"].help_text = ""  # the page links the password reset itself

    def add_prefix(self, field_name: str) -> str:
        return super().add_prefix("username" if field_name == "login" else field_name)


class SignupForm(allauth_forms.SignupForm):
    """`/accounts/signup/`: a username (unique in any case, and never the name every
    nameless guest plays under), an e-mail address (unique among accounts in any case,
    verified by a link it is sent) and a password twice."""

    field_order = ("username", "email", "password1", "password2")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].label = gettext_lazy("E-mail")
        self.fields["email"].help_text = gettext_lazy(
            "We send a link there to confirm it; then challenges and your moves come there "
            "by e-mail (as you choose in the notification settings), and the link if you "
            "forget your password."
        )

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


class ResetPasswordForm(allauth_forms.ResetPasswordForm):
    """`/accounts/password_reset/`: ``email``; the accounts it names, in any case, also an
    account made elsewhere (the admin, a script) whose address allauth does not hold yet."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].label = gettext_lazy("E-mail")

    def clean_email(self) -> str:
        email = str(super().clean_email())
        if not self.users:
            self.users = list(get_user_model().objects.filter(email__iexact=email, is_active=True))
        return email
