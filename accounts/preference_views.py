"""HTTP of an account's game settings: ``/accounts/settings/`` (``accounts.preferences``)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from accounts import answers, api, preferences
from accounts.models import ConfirmMoves

FIELD = "confirm_moves"


@answers.login_required
@require_http_methods(["GET", "POST"])
def game_settings(request: HttpRequest) -> HttpResponse:
    """`GET`/`POST /accounts/settings/`: the account's game settings, ``confirm_moves``
    (``never``, ``correspondence``, ``always``; "" while not chosen). A form's post keeps
    it and comes back here (302); a JSON body ``{"confirm_moves": ...}`` (or a GET asking
    for JSON) answers ``{"confirm_moves": ...}``. Any other value: 400, the form with its
    error or ``{"error": "bad_request", "message", "field": "confirm_moves"}``. A visitor
    not logged in: the log-in page, or 401 in JSON."""
    as_json = api.wants_json(request)
    if request.method == "GET":
        chosen = preferences.confirm_moves_of(request.user)
        return JsonResponse({FIELD: chosen}) if as_json else _page(request, chosen)
    wanted = _posted(request) if as_json else request.POST.get(FIELD)
    try:
        chosen = preferences.choose_confirm_moves(user=request.user, value=wanted)
    except ValueError as error:
        if as_json:
            return api.error_json("bad_request", str(error), field=FIELD)
        return _page(request, preferences.confirm_moves_of(request.user), str(error))
    if as_json:
        return JsonResponse({FIELD: chosen})
    messages.success(request, gettext("Your game settings are saved."))
    return redirect("accounts:settings")


def _posted(request: HttpRequest) -> Any:
    """The JSON body's ``confirm_moves`` (None when the body is not a JSON object)."""
    try:
        body = json.loads(request.body or b"null")
    except ValueError:
        return None
    return body.get(FIELD) if isinstance(body, dict) else None


def _page(request: HttpRequest, chosen: str, error: str = "") -> HttpResponse:
    context = {"choices": ConfirmMoves.choices, "chosen": chosen, "error": error}
    return render(request, "accounts/settings.html", context, status=400 if error else 200)
