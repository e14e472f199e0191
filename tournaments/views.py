"""HTTP of the tournaments: the list, the form, a tournament's page and its JSON, and
joining, withdrawing and pausing. Each view parses, calls one service or selector, and
redirects or renders."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import answers, standing
from accounts.api import token_route
from accounts.once import FORM_TOKEN, TokenError, once
from accounts.players import player_of
from games import limits
from games.forms import clock_menu, size_menu
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
    """The form's first values; the start is the script's to fill (ten minutes from now
    in the browser's time zone)."""
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
    }


def _form_context(form: NewTournamentForm) -> dict[str, Any]:
    return {
        "form": form,
        "clock_settings": [form[name] for name in CLOCK_SETTINGS],
        "clock_menu": clock_menu(),
        "size_menu": size_menu(),
    }


@login_required
@require_http_methods(["GET", "POST"])
@limits.limit_posts("create")
def new(request: HttpRequest) -> HttpResponse:
    """`POST /tournaments/new/` (logged in): 302 to the new tournament's page, or 400:
    the form again with the reason beside the field at fault (its name in the page's
    ``data-error-field``); 429, the form again saying why, past the account's caps. A
    form's token makes a resent form answer the first redirect (accounts.once). `GET`
    shows the form."""
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
        limited = isinstance(error, TournamentError) and error.code == "rate_limited"
        return _refused(request, form, status=429 if limited else 400)
    return redirect("tournament", tournament_id=int(tournament_id))


def _refused(request: HttpRequest, form: NewTournamentForm, *, status: int = 400) -> HttpResponse:
    context = {**_form_context(form), "error_fields": list(form.errors)}
    return render(request, "tournaments/new.html", context, status=status)


TIEBREAKS = {
    "buchholz": (gettext_lazy("Buchholz"), gettext_lazy("The sum of the opponents' scores")),
    "sonneborn_berger": (
        gettext_lazy("Sonneborn-Berger"),
        gettext_lazy("The scores of the opponents beaten, and half those drawn"),
    ),
    "disc_difference": (
        gettext_lazy("Disc difference"),
        gettext_lazy("One's discs minus the opponent's, over every game"),
    ),
    "sos": (gettext_lazy("SOS"), gettext_lazy("The sum of the opponents' McMahon scores")),
    "sodos": (
        gettext_lazy("SODOS"),
        gettext_lazy("The McMahon scores of the opponents beaten, and half those drawn"),
    ),
}
"""Each tiebreak of T by its name, and what it sums (static/js/tournament.js has the same)."""
MARKS = {"win": "1", "loss": "0", "draw": "½", "forfeit_win": "+", "forfeit_loss": "\N{MINUS SIGN}"}
"""A round's result in the cross-table (a game being played: "…")."""
COLOURS = {"black": "●", "white": "○"}
DASH = "\N{EN DASH}"
SCORES = {"black": f"1{DASH}0", "white": f"0{DASH}1", "draw": f"½{DASH}½"}
"""A pairing's result, black's first."""


@require_GET
def tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """`GET /tournaments/<id>/`: its cross-table (Swiss, McMahon, round robin) or score
    sheets (arena) with the tiebreaks by name, its pairings round by round with links to
    the games, a countdown, the buttons to join, withdraw or pause, and its chat; live
    (the page's lobby socket follows the tournament's group). The tables are drawn here
    as static/js/tournament.js draws them again from each T."""
    found = get_object_or_404(Tournament, pk=tournament_id)
    facts = selectors.facts_of(found)
    data = selectors.tournament_json(found, facts)
    entry = selectors.entry_of(found, request.user.pk if request.user.is_authenticated else None)
    order = selectors.tiebreak_order(found)
    arena = found.system == Tournament.System.ARENA
    context = {
        "tournament": found,
        "data": data,
        "entry": entry,
        "total_rounds": None if arena else selectors.total_rounds(found, facts),
        "tiebreaks": [(name, *TIEBREAKS[name]) for name in order],
        "table": _table(data),
        "rounds": _rounds(data),
        "username": request.user.get_username() if request.user.is_authenticated else None,
        "playban": _playban(request, entry),
    }
    return render(request, "tournaments/tournament.html", context)


def _playban(request: HttpRequest, entry: Any) -> str | None:
    """Why and until when the visitor cannot join (a playban in force), where it would
    join; None when it may, or is in."""
    if not request.user.is_authenticated or (entry and not entry.withdrawn and not entry.paused):
        return None
    playban = standing.playbanned(request.user.pk)
    return None if playban is None else playban.words()


def _table(data: dict[str, Any]) -> dict[str, Any]:
    """The players' rows as the page shows them: a cross-table's round columns (``rounds``)
    and each row's ``cells`` (a round's result, the opponent and its colour, a title in
    words, the game's page), or an arena's score sheet (``cells``: a game's points)."""
    games = {
        (pairing["round"], name): pairing["game_id"]
        for pairing in data["pairings"]
        for name in (pairing["black"], pairing["white"])
        if name
    }
    if data["system"] == Tournament.System.ARENA:
        rows = [
            {**row, "cells": [_sheet_cell(line) for line in row["sheet"]]}
            for row in data["players"]
        ]
        return {"rounds": [], "rows": rows}
    last = max((line["round"] for row in data["players"] for line in row["sheet"]), default=0)
    rows = []
    for row in data["players"]:
        by_round = {line["round"]: line for line in row["sheet"]}
        cells = []
        for number in range(1, last + 1):
            line = by_round.get(number)
            game = games.get((number, row["username"])) if line else None
            cells.append(None if line is None else _round_cell(line, game))
        rows.append({**row, "cells": cells})
    return {"rounds": list(range(1, last + 1)), "rows": rows}


def _round_cell(line: dict[str, Any], game: str | None) -> dict[str, Any]:
    result, opponent = line["result"], line["opponent"]
    values = {"round": line["round"], "opponent": opponent}
    if result == "bye":
        return {"mark": _("bye"), "title": _("Round %(round)s: a bye") % values, "result": "bye"}
    titles = {
        "win": _("Round %(round)s: won against %(opponent)s"),
        "loss": _("Round %(round)s: lost to %(opponent)s"),
        "draw": _("Round %(round)s: drew with %(opponent)s"),
        "forfeit_win": _("Round %(round)s: won, %(opponent)s never made a first move"),
        "forfeit_loss": _("Round %(round)s: lost without a first move, against %(opponent)s"),
        None: _("Round %(round)s: playing %(opponent)s"),
    }
    return {
        "mark": MARKS.get(result, "…"),
        "colour": COLOURS[line["color"]],
        "opponent": opponent,
        "title": titles[result] % values,
        "result": result or "playing",
        "url": None if game is None else f"/games/{game}/",
    }


def _sheet_cell(line: dict[str, Any]) -> dict[str, Any]:
    words = [_("On fire: double points")] if line["fire"] else []
    if line["berserk"]:
        words.append(_("Berserk"))
    return {
        "text": "…" if line["points"] is None else str(line["points"]),
        "title": ", ".join(words),
        "fire": line["fire"],
        "berserk": line["berserk"],
        "url": f"/games/{line['game']}/",
    }


def _rounds(data: dict[str, Any]) -> list[tuple[int, list[dict[str, Any]]]]:
    """The pairings by round, the latest first, each with its ``score`` in words
    (1-0 with an en dash, a forfeit's marked)."""
    forfeits = {
        (line["round"], row["username"])
        for row in data["players"]
        for line in row["sheet"]
        if str(line.get("result", "")).startswith("forfeit")
    }
    by_round: dict[int, list[dict[str, Any]]] = {}
    for pairing in data["pairings"]:
        score = SCORES.get(pairing["result"] or "", "")
        if score and (pairing["round"], pairing["black"]) in forfeits:
            score = _("%(score)s, a forfeit") % {"score": score}
        by_round.setdefault(pairing["round"], []).append({**pairing, "score": score})
    return sorted(by_round.items(), reverse=True)


@token_route
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
        back = reverse("tournament", kwargs={"tournament_id": tournament_id})
        return answers.refusal(request, error, back=back)
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
