"""HTTP of the lobby: creating a game (the form's page when it is refused), the form's
first values for the home page, and a player's games.

Each view parses its input, calls one service or selector, and redirects or renders.
Who sits where comes from the session (and the account when logged in); the name a
guest gives is remembered in the session for next time.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts import api
from accounts.once import FORM_TOKEN, TokenError, once
from accounts.players import player_of, remember_name, remembered_name, seat_name
from games import limits, selectors
from games.forms import NewGameForm, form_context
from games.services import lobby
from games.services.errors import GameError


@api.token_route
@require_POST
@limits.limit_posts("create")
def new_game(request: HttpRequest) -> HttpResponse:
    """`POST /games/new/`: 302 to the new game with the creator seated, or 400: the form
    alone (``games/new_game.html``) with the reasons beside its fields, or for a token's
    request (or one asking for JSON) ``{"error", "message", "field"}`` (429 beyond the
    limits of `games.limits`)."""
    form = NewGameForm(request.POST)
    if not form.is_valid():
        if api.wants_json(request):
            return api.form_error_json(form)
        return _render_new_game(request, form, status=400)
    player = player_of(request, create_session=True)
    name = seat_name(request, form.cleaned_data["name"])
    try:
        game_id = once(
            form.cleaned_data["form_token"],
            player=player,
            work=lambda: (
                lobby.create_game(
                    player=player, new=lobby.NewGame(name=name, **form.game_options())
                ).public_id
            ),
        )
    except (GameError, TokenError) as error:
        if api.wants_json(request):
            code = error.code if isinstance(error, GameError) else "bad_request"
            return api.error_json(code, _message(error), field=_field(error))
        form.add_error(_field(error), _message(error))
        return _render_new_game(request, form, status=400)
    remember_name(request, name)
    return redirect("games:game", game_id=game_id)


def _field(error: GameError | TokenError) -> str | None:
    return error.field if isinstance(error, GameError) else FORM_TOKEN


def _message(error: GameError | TokenError) -> str:
    return error.message if isinstance(error, GameError) else str(error)


def new_game_initial(request: HttpRequest) -> dict[str, Any]:
    """The create form's first values: the fields the query names ("New game with these
    settings" links with them), and the name this visitor last played under."""
    chosen = {
        field: request.GET[field] for field in NewGameForm.base_fields if field in request.GET
    }
    return {**chosen, "name": remembered_name(request.session, request.user)}


def _render_new_game(request: HttpRequest, form: NewGameForm, *, status: int = 200) -> HttpResponse:
    return render(request, "games/new_game.html", form_context(form), status=status)


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    """`/accounts/games/`: every game of the logged-in player, newest first."""
    games = selectors.games_of(player_of(request))
    return render(request, "games/my_games.html", {"games": games})
