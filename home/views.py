"""HTTP: the pages that gather what several apps below offer. The home page: pairing's
one-click pools, the create form and the lobby of the games app, and for an account the
players it follows (the players app), online or not, with their games to watch. A
player's profile page: the players app's profile with the challenges app's Challenge
button and the moderation app's Report button."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET

from accounts.players import player_of, remembered_name
from challenges import views as challenges
from games import selectors
from games.forms import NewGameForm, form_context
from games.views.lobby import new_game_initial
from pairing import selectors as pairing
from players import selectors as players
from players import views as profiles


@require_GET
@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    """`GET /`: the pools, the create form (filled in from the query: "New game with these
    settings"), the open games, the visitor's games in play, recent results. It sets the
    CSRF cookie, so that a script that read it can post the contract's forms."""
    context = {
        **form_context(NewGameForm(initial=new_game_initial(request))),
        **selectors.lobby_of(player_of(request)),
        **pairing.pools(logged_in=request.user.is_authenticated),
        "player_name": remembered_name(request.session, request.user),
        "following": players.following(request.user) if request.user.is_authenticated else None,
    }
    return render(request, "home/home.html", context)


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """`GET /players/<username>/`: ratings with their graphs, results, games, games now
    (``players.views.profile_context``), and to another account the Challenge button
    (``challenges.views.profile_context``) and the Report button (its template,
    ``moderation/_report_button.html``); 404 for an unknown name."""
    context = profiles.profile_context(request, username)
    context.update(challenges.profile_context(request, context["player"]))
    return render(request, "home/profile.html", context)
