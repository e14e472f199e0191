"""HTTP of accounts: signing up (Django's own views log in, out and reset passwords)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts import languages
from accounts.forms import SignupForm


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """`/accounts/signup/`: create an account and log in (a guest's seats become the
    account's, under its username: ``accounts.guests``)."""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(
            request,
            gettext(
                "Welcome, %(username)s! Your account is ready: your games, "
                "and the password, are in the menu under your name at the "
                "top of the page."
            )
            % {"username": user.get_username()},
        )
        return redirect("home")
    status = 400 if request.method == "POST" else 200
    return render(request, "registration/signup.html", {"form": form}, status=status)


@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    """`POST /language/` with ``language`` (one of the site's) and ``next`` (a page of this
    site): the visitor's language kept (a cookie; an account's settings too), 302 to
    ``next`` (else the home page). 400 for a language the site does not speak."""
    try:
        languages.choose(request=request, user=request.user, code=request.POST.get("language", ""))
    except ValueError as error:
        return render(request, "400.html", {"message": str(error)}, status=400)
    target = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure())
    return redirect(target if safe and target else "home")
