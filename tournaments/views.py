"""HTTP of the tournaments: the list, the form, a tournament's page and its JSON, and
joining, withdrawing and pausing. Each view parses, calls one service or selector, and
redirects or renders."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import answers
from accounts.once import FORM_TOKEN, TokenError, once
from accounts.players import player_of
from games import limits
from games.forms import clock_menu
from tournaments import selectors, services
from tournaments.forms import CLOCK_SETTINGS, NewTournamentForm
from tournaments.models import Tournament
from tournaments.services import TournamentError


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """`GET /tournaments/`: the upcoming, running and finished tournaments, and (logged
    in) the form to create one."""
    context = {**selectors.listed(), **_form_context(NewTournamentForm(initial=_initial()))}
    return render(request, "tournaments/index.html", context)


def _initial() -> dict[str, Any]:
    soon = timezone.localtime() + datetime.timedelta(minutes=10)
    return {
        "system": "arena",
        "kind": "othello",
        "size": 8,
        "clock": "fischer",
        "main_time": 180,
        "increment": 2,
        "duration": 30,
        "rounds": 5,
        "bar": "3d",
        "starts_at": soon.replace(second=0, microsecond=0).strftime("%Y-%m-%dT%H:%M"),
    }


def _form_context(form: NewTournamentForm) -> dict[str, Any]:
    return {
        "form": form,
        "clock_settings": [form[name] for name in CLOCK_SETTINGS],
        "clock_menu": clock_menu(),
    }


@login_required
@require_http_methods(["GET", "POST"])
@limits.limit_posts("create")
def new(request: HttpRequest) -> HttpResponse:
    """`POST /tournaments/new/` (logged in): 302 to the new tournament's page, or 400:
    the form again with the reason beside the field at fault (its name in the page's
    ``data-error-field``). A form's token makes a resent form answer the first redirect
    (accounts.once). `GET` shows the form."""
    if request.method == "GET":
        return render(
            request, "tournaments/new.html", _form_context(NewTournamentForm(initial=_initial()))
        )
    form = NewTournamentForm(request.POST)
    if not form.is_valid():
        return _refused(request, form)
    player = player_of(request)
    try:
        tournament_id = once(
            form.cleaned_data["form_token"],
            player=player,
            work=lambda: str(services.create(user_id=request.user.pk, **form.options()).pk),
        )
    except (TournamentError, TokenError) as error:
        field = error.field if isinstance(error, TournamentError) else FORM_TOKEN
        form.add_error(field, error.message if isinstance(error, TournamentError) else str(error))
        return _refused(request, form)
    return redirect("tournament", tournament_id=int(tournament_id))


def _refused(request: HttpRequest, form: NewTournamentForm) -> HttpResponse:
    context = {**_form_context(form), "error_fields": list(form.errors)}
    return render(request, "tournaments/new.html", context, status=400)


@require_GET
def tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """`GET /tournaments/<id>/`: its standings, its pairings round by round with links
    to the games, and the buttons to join, withdraw or pause; live (the page's lobby
    socket follows the tournament's group)."""
    found = get_object_or_404(Tournament, pk=tournament_id)
    data = selectors.tournament_json(found)
    entry = selectors.entry_of(found, request.user.pk if request.user.is_authenticated else None)
    context = {
        "tournament": found,
        "data": data,
        "entry": entry,
        "rounds": _rounds(data["pairings"]),
        "username": request.user.get_username() if request.user.is_authenticated else None,
    }
    return render(request, "tournaments/tournament.html", context)


def _rounds(pairings: list[dict[str, Any]]) -> list[tuple[int, list[dict[str, Any]]]]:
    """The pairings by round, the latest first."""
    by_round: dict[int, list[dict[str, Any]]] = {}
    for pairing in pairings:
        by_round.setdefault(pairing["round"], []).append(pairing)
    return sorted(by_round.items(), reverse=True)


@require_GET
def tournament_json(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """`GET /tournaments/<id>.json`: T."""
    found = Tournament.objects.filter(pk=tournament_id).first()
    if found is None:
        raise Http404("no such tournament")
    return JsonResponse(selectors.tournament_json(found))


def _acted(request: HttpRequest, tournament_id: int, action: Any) -> HttpResponse:
    """``action`` done: 302 to the tournament's page; refused, back there saying why (a
    request that wants JSON: 400 ``{"error", "message", "field"}``)."""
    try:
        action(user_id=request.user.pk, tournament_id=tournament_id)
    except TournamentError as error:
        if error.code == "not_found":
            raise Http404(error.message) from None
        back = reverse("tournament", kwargs={"tournament_id": tournament_id})
        return answers.refused(request, error.code, error.message, field=error.field, back=back)
    return redirect("tournament", tournament_id=tournament_id)


@answers.login_required
@require_POST
def join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """`POST /tournaments/<id>/join/`: in (or back in); 302 to its page."""
    return _acted(request, tournament_id, services.join)


@answers.login_required
@require_POST
def withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """`POST /tournaments/<id>/withdraw/`: out; 302 to its page."""
    return _acted(request, tournament_id, services.withdraw)


@answers.login_required
@require_POST
def pause(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """`POST /tournaments/<id>/pause/` (an arena): not paired until joining again."""
    return _acted(request, tournament_id, services.pause)
