"""HTTP of the players' world: profiles (page and JSON) and leaderboards (page and JSON).

Thin: parse, one selector each, render."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from accounts import selectors as accounts
from games.models import Game
from players import glicko2, graph, selectors
from players.templatetags.players import category_name


def _player_or_404(username: str) -> AbstractBaseUser:
    user = accounts.account_named(username)
    if user is None:
        raise Http404("no such player")
    return user


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """`GET /players/<username>/`: ratings with their graphs, results, games, games now."""
    user = _player_or_404(username)
    filters = selectors.GameFilters.parse(request.GET)
    history = selectors.history_of(user)
    playing, online = selectors.activity(user)
    ratings = [
        {
            "rating": rating,
            "rank": selectors.rating_json(rating)["rank"],
            "graph": _graph(
                history.get(rating.category),
                gettext("%(player)s's %(category)s rating")
                % {"player": user.get_username(), "category": category_name(rating.category)},
            ),
        }
        for rating in selectors.ratings_of(user)
    ]
    context = {
        "player": user,
        "ratings": ratings,
        "results": selectors.results_of(user),
        "playing": playing,
        "online": online,
        "page": selectors.games_page(user, filters, request.GET.get("page")),
        "filters": filters,
        "filtered": filters != selectors.GameFilters(),
        "kinds": Game.Kind.choices,
        "results_choices": selectors.RESULTS,
        "provisional_rd": glicko2.PROVISIONAL_RD,
    }
    return render(request, "players/profile.html", context)


def _graph(history: selectors.History | None, label: str) -> str:
    if history is None:
        return ""
    return graph.rating_graph(
        history.ratings,
        start=history.start,
        first=history.first,
        last=history.last,
        label=label,
        words=translation,
    )


@require_GET
def profile_json(request: HttpRequest, username: str) -> JsonResponse:
    """`GET /players/<username>.json`; 404 for an unknown name."""
    return JsonResponse(selectors.profile_json(_player_or_404(username)))


@require_GET
def top(request: HttpRequest) -> HttpResponse:
    """`GET /players/top/`: one table per category, its best non-provisional players;
    then the bots' tables, kept apart."""
    boards = selectors.leaderboards()
    context = {
        "boards": boards[False],
        "bot_boards": boards[True],
        "provisional_rd": glicko2.PROVISIONAL_RD,
    }
    return render(request, "players/top.html", context)


@require_GET
def top_json(request: HttpRequest) -> JsonResponse:
    """`GET /players/top.json?category=C`: the best 100 non-provisional, best first."""
    category = request.GET.get("category", "")
    bots = request.GET.get("bots", "") in ("1", "true")
    return JsonResponse(selectors.leaderboard_json(category, bots=bots))
