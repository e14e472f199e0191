"""HTTP: the pages that gather what several apps below offer. The home page: first the
games waiting for the visitor's move, then pairing's one-click pools, the create form and
the lobby of the games app, and for an account the players it follows (the players app),
online or not, with their games to watch. A
player's profile page: the players app's profile with the challenges app's Challenge
button and the moderation app's Report button."""

from __future__ import annotations

import datetime
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET

from accounts.players import player_of, remembered_name
from challenges import views as challenges
from games import selectors
from games.forms import NewGameForm, form_context
from games.models import Game
from games.views.lobby import new_game_initial
from pairing import selectors as pairing
from players import selectors as players
from players import views as profiles
from puzzles import selectors as puzzles


@require_GET
@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    """`GET /`: the games waiting for the visitor's move first (on every screen), the
    pools, the create form (filled in from the query: "New game with these settings"), the
    open games, the visitor's games in play, recent results. It sets the
    CSRF cookie, so that a script that read it can post the contract's forms."""
    lobby = selectors.lobby_of(player_of(request))
    context = {
        **form_context(NewGameForm(initial=new_game_initial(request))),
        **lobby,
        "waiting_for_you": waiting_for_you(lobby["my_games"], lobby["your_move"]),
        **pairing.pools(user_id=request.user.pk if request.user.is_authenticated else None),
        "player_name": remembered_name(request.session, request.user),
        "following": players.following(request.user) if request.user.is_authenticated else None,
        "daily_puzzle": puzzles.daily_part(),
    }
    return render(request, "home/home.html", context)


def waiting_for_you(games: list[Game], your_move: set[str]) -> list[dict[str, Any]]:
    """The visitor's games where it is their move (``your_move``, of ``games``), in the
    lobby's order, for the top of the page: each ``game``, the ``opponent``'s name as the
    pages show it, and for a correspondence clock the ``deadline`` of this move."""
    now = timezone.now()
    rows = []
    for game in games:
        if game.public_id not in your_move:
            continue
        opponent = "white" if game.to_move == "black" else "black"
        clock = selectors.clock_state(game, now)
        deadline = None
        if clock is not None and clock["system"] == "correspondence" and clock["running"]:
            deadline = now + datetime.timedelta(
                milliseconds=clock[clock["running"]]["remaining_ms"]
            )
        rows.append(
            {"game": game, "opponent": selectors.shown_name(game, opponent), "deadline": deadline}
        )
    return rows


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """`GET /players/<username>/`: ratings with their graphs, results, games, games now
    (``players.views.profile_context``), and to another account the Challenge button
    (``challenges.views.profile_context``) and the Report button (its template,
    ``moderation/_report_button.html``), the puzzle rating and the last answers
    (``puzzles.selectors.profile_part``); 404 for an unknown name."""
    context = profiles.profile_context(request, username)
    context.update(challenges.profile_context(request, context["player"]))
    context["puzzles"] = puzzles.profile_part(context["player"].pk)
    return render(request, "home/profile.html", context)
