"""HTTP of the players' world: profiles (page and JSON), following and blocking, the
players' search, leaderboards (page and JSON).

Thin: parse, one selector or service each, render."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import answers, standing
from accounts import selectors as accounts
from accounts import services as relations
from accounts.api import token_route
from games.models import Game
from players import glicko2, graph, selectors
from players.templatetags.players import category_name


def _player_or_404(username: str) -> AbstractBaseUser:
    user = accounts.account_named(username)
    if user is None:
        raise Http404("no such player")
    return user


def profile_context(request: HttpRequest, username: str) -> dict[str, Any]:
    """What the profile page (`GET /players/<username>/`, served by the home app, which adds
    the parts of the apps above this one) shows of the account ``username``: ratings with
    their graphs, results, games, games now, whether staff marked it for engine use (a
    closed account is ``player.is_active`` false), and to another account whether it
    follows or blocks it. Raises Http404 for an unknown name."""
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
        "followers": accounts.follower_count(user),
        "engine": standing.engine_of(user),
    }
    viewer = request.user
    if viewer.is_authenticated and viewer.pk != user.pk:
        context["follows"] = accounts.follows(viewer.pk, user.pk)
        context["blocks"] = accounts.blocks(viewer.pk, user.pk)
    return context


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


@token_route
@require_GET
def profile_json(request: HttpRequest, username: str) -> JsonResponse:
    """`GET /players/<username>.json`; 404 for an unknown name."""
    user = _player_or_404(username)
    # The account itself sees whom it follows: the one query more, of the session.
    return JsonResponse(selectors.profile_json(user, viewer=request.user))


@token_route
@require_GET
def search_json(request: HttpRequest) -> JsonResponse:
    """`GET /players/search.json?q=PREFIX`: `{"players": [{"username", "bot"}]}`, up to
    10 whose username starts with PREFIX (in any case), shortest first."""
    found = accounts.names_starting(request.GET.get("q", "")[:150])
    return JsonResponse({"players": [{"username": name, "bot": bot} for name, bot in found]})


@require_GET
def search(request: HttpRequest) -> HttpResponse:
    """`GET /players/search/?q=NAME` (the header's search box without its script): 302 to
    the profile of the account named NAME in any case, else of the first whose name
    starts so; 404 for none."""
    query = request.GET.get("q", "").strip()[:150]
    user = accounts.account_named(query, any_case=True) if query else None
    if user is None:
        found = accounts.names_starting(query)
        if not found:
            raise Http404("no such player")
        return redirect("profile", username=found[0][0])
    return redirect("profile", username=user.get_username())


RELATIONS = {
    "follow": relations.follow,
    "unfollow": relations.unfollow,
    "block": relations.block,
    "unblock": relations.unblock,
}


@answers.login_required
@require_POST
def relation(request: HttpRequest, username: str, action: str) -> HttpResponse:
    """`POST /players/<username>/follow/`, `/unfollow/`, `/block/`, `/unblock/` (logged
    in): 302 to the profile; 400 for oneself, a name that is no account, or a follow of
    one who blocks you (in the words of a follow of a name that is no account: a block is
    not revealed): the site's page saying why, or for a request that wants JSON
    `{"error": "bad_request", "message"}` (accounts.answers)."""
    user = accounts.account_named(username)
    try:
        if user is None:
            # Following a name that is no account is refused as following one who blocks
            # you is (accounts.services.follow): a block is not revealed.
            refused = gettext(relations.REFUSED) if action == "follow" else _("no such player")
            raise relations.RelationError(refused)
        if action in ("follow", "unfollow"):
            RELATIONS[action](follower_id=request.user.pk, followed_id=user.pk)
        else:
            RELATIONS[action](blocker_id=request.user.pk, blocked_id=user.pk)
    except relations.RelationError as error:
        return answers.refused(request, "bad_request", str(error))
    return redirect("profile", username=user.get_username())


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


@token_route
@require_GET
def top_json(request: HttpRequest) -> JsonResponse:
    """`GET /players/top.json?category=C`: the best 100 non-provisional, best first."""
    category = request.GET.get("category", "")
    bots = request.GET.get("bots", "") in ("1", "true")
    return JsonResponse(selectors.leaderboard_json(category, bots=bots))
