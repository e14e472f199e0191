"""HTTP of accounts: django-allauth's views on the site's pages and under the URLs and
field names the site always had (``accounts.forms``): logging in, signing up, a password
reset by e-mail, the link that verifies an address and asking for it again; and choosing
the site's language. Django's own views log out and change a password."""

from __future__ import annotations

from typing import Any

from allauth.account import views as allauth_views
from allauth.account.adapter import get_adapter
from allauth.core import ratelimit
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from accounts import emails, languages


class LoginView(allauth_views.LoginView):
    """`/accounts/login/`: ``username`` and ``password``; 302 to ``next`` (else the home
    page), logged in. A wrong password: the form again with its error; a locked pair or
    address (``accounts.adapter``): 429, the form saying so."""

    template_name = "registration/login.html"

    def form_invalid(self, form: Form) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error("__all__", "too_many_login_attempts"):
            response.status_code = 429
        return response


class SignupView(allauth_views.SignupView):
    """`/accounts/signup/`: create an account, mail the link that verifies its address,
    log in (a guest's seats become the account's, under its username:
    ``accounts.guests``) and welcome it; 400 with the form's errors."""

    template_name = "registration/signup.html"

    def form_valid(self, form: Form) -> HttpResponse:
        response = super().form_valid(form)
        if self.user is not None:
            messages.success(
                self.request,
                gettext(
                    "Welcome, %(username)s! Your account is ready: your games, "
                    "and the password, are in the menu under your name at the "
                    "top of the page."
                )
                % {"username": self.user.get_username()},
            )
        return response

    def form_invalid(self, form: Form) -> HttpResponse:
        response = super().form_invalid(form)
        response.status_code = 400
        return response


class PasswordResetView(allauth_views.PasswordResetView):
    """`/accounts/password_reset/`: ``email``; mails the accounts with that address a link
    to choose a new password, and answers alike whether or not one has it: 302 to the
    "check your e-mail" page; beyond 3 links an address an hour (or 20 asked for from one
    address a minute), 429, the form saying so, nothing mailed."""

    template_name = "registration/password_reset_form.html"

    def form_valid(self, form: Form) -> HttpResponse:
        address = str(form.cleaned_data["email"]).lower()
        if not ratelimit.consume(self.request, action="reset_password", key=address):
            form.add_error(
                None,
                gettext(
                    "Too many links asked for: an address is sent at most 3 an hour. Look "
                    "for those already sent, or try again later."
                ),
            )
            return self.render_to_response(self.get_context_data(form=form), status=429)
        form.save(self.request)  # type: ignore[attr-defined]
        return redirect(self.get_success_url())


class PasswordResetDoneView(allauth_views.PasswordResetDoneView):
    """`/accounts/password_reset/done/`: check your e-mail."""

    template_name = "registration/password_reset_done.html"


class PasswordResetFromKeyView(allauth_views.PasswordResetFromKeyView):
    """`/accounts/password/reset/key/<uidb36>-<key>/`: the mailed link; the form to choose
    the new password (``password1``, ``password2``), or the page saying the link no longer
    works. A password set lifts the locks of failed logins on the address it was set from
    (allauth forgets that address's failures; the pair with the account's username too)."""

    template_name = "registration/password_reset_confirm.html"

    def form_valid(self, form: Form) -> HttpResponse:
        response = super().form_valid(form)
        username = self.reset_user.get_username()
        pair = get_adapter(self.request)._get_login_attempts_cache_key(
            self.request, username=username
        )
        ratelimit.clear(self.request, action="login_failed", key=pair)
        return response


class PasswordResetFromKeyDoneView(allauth_views.PasswordResetFromKeyDoneView):
    """`/accounts/password/reset/key/done/`: the new password is set."""

    template_name = "registration/password_reset_complete.html"


class ConfirmEmailView(allauth_views.ConfirmEmailView):
    """`/accounts/confirm-email/<key>/`: the link that verifies an address. GET: the page
    with a button (mail scanners follow links: only the button's POST verifies); 404 with
    the page saying so for a link that no longer works. POST: verified (unless another
    account verified that address first: the page says so), 302 to the home page (the
    login page for a visitor not logged in)."""

    template_name = "account/email_confirm.html"

    def get(self, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().get(*args, **kwargs)
        if self.object is None:
            response.status_code = 404
        return response

    def post(self, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return super().post(*args, **kwargs)
        except Http404:
            self.object = None
            return self.render_to_response(self.get_context_data(), status=404)


@login_required
@require_POST
def send_verification(request: HttpRequest) -> HttpResponse:
    """`POST /accounts/email/verify/` with ``next`` (a page of this site): mail the account
    the link that verifies its address again (not within minutes of the last one: the
    page says so), 302 to ``next`` (else the home page)."""
    if not emails.send_link(request, request.user):  # else allauth's message says so
        messages.info(
            request,
            gettext(
                "No link was sent: one went out a few minutes ago, or the address is "
                "verified already."
            ),
        )
    return _back(request)


def _back(request: HttpRequest) -> HttpResponse:
    target = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure())
    return redirect(target if safe and target else "home")


@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    """`POST /language/` with ``language`` (one of the site's) and ``next`` (a page of this
    site): the visitor's language kept (a cookie; an account's settings too), 302 to
    ``next`` (else the home page). 400 for a language the site does not speak."""
    try:
        languages.choose(request=request, user=request.user, code=request.POST.get("language", ""))
    except ValueError as error:
        return render(request, "400.html", {"message": str(error)}, status=400)
    return _back(request)
