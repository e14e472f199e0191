"""HTTP of accounts: signing up (Django's own views log in, out and reset passwords)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

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
            f"Welcome, {user.get_username()}! Your account is ready: your games, and the "
            "password, are in the menu under your name at the top of the page.",
        )
        return redirect("home")
    status = 400 if request.method == "POST" else 200
    return render(request, "registration/signup.html", {"form": form}, status=status)
