"""HTTP of a live game: its page (live over ``/ws/games/<id>/``), taking its free seat,
calling it off, and its JSON state (G: ``live.state``).

The game page always sets the CSRF cookie, so that a script that read it can post the
contract's forms.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from accounts import api
from accounts.once import FORM_TOKEN, TokenError, once
from accounts.players import player_of, remember_name, remembered_name, seat_name
from accounts.preferences import ConfirmMoves, confirm_moves_of
from games import limits, selectors
from games.forms import JoinForm
from games.models import Game
from games.services import lobby
from games.services.errors import GameError
from live import state as states


def _game(game_id: str) -> Game:
    return get_object_or_404(Game, public_id=game_id)


@api.token_route
@require_POST
@limits.limit_posts("join")
def join(request: HttpRequest, game_id: str) -> HttpResponse:
    """`POST /games/<id>/join/`: take the free seat; a full game is watched. 302 to it.

    A name over the limit, a guest at a rated game, or an account marked for engine use
    at one (``not_allowed``): 400, the game page with the
    reason (a token's request, or one asking for JSON: ``{"error", "message", "field"}``),
    nothing stored.
    """
    game = _game(game_id)
    form = JoinForm(request.POST)
    if not form.is_valid():
        if api.wants_json(request):
            return api.form_error_json(form)
        return _render_game(request, game, join_form=form, status=400)
    player = player_of(request, create_session=True)
    name = seat_name(request, form.cleaned_data["name"])
    watching = []

    def take_the_seat() -> str:
        joined = lobby.join_game(player=player, game_id=game.public_id, name=name)
        watching.append(selectors.color_of(joined, player) is None)
        return joined.public_id

    try:
        once(form.cleaned_data["form_token"], player=player, work=take_the_seat)
    except GameError as error:  # a guest (or an engine) at a rated game, an account's name
        if api.wants_json(request):
            return api.error_json(error.code, error.message, field=error.field)
        form.add_error(error.field, error.message)
        return _render_game(request, game, join_form=form, status=400)
    except TokenError as error:
        if api.wants_json(request):
            return api.error_json("bad_request", str(error), field=FORM_TOKEN)
        form.add_error(FORM_TOKEN, str(error))
        return _render_game(request, game, join_form=form, status=400)
    remember_name(request, name)
    if any(watching):
        messages.info(request, gettext("This seat was just taken: you are watching the game."))
    return redirect("games:game", game_id=game.public_id)


@api.token_route
@require_POST
def abort(request: HttpRequest, game_id: str) -> HttpResponse:
    """`POST /games/<id>/abort/`: the creator calls off a game nobody joined; 302 home.

    Anyone else, or a game that has started or ended: 400 with the reason (a token's
    request, or one asking for JSON: ``{"error", "message"}``), nothing changed.
    """
    game = _game(game_id)
    try:
        lobby.abort(player=player_of(request), game_id=game.public_id)
    except GameError as error:
        if api.wants_json(request):
            return api.error_json(error.code, error.message, field=error.field)
        raise BadRequest(error.message) from None  # the site's 400 page, saying why
    messages.success(request, gettext("The game was called off."))
    return redirect("home")


@require_GET
@ensure_csrf_cookie
def game_page(request: HttpRequest, game_id: str) -> HttpResponse:
    """`GET /games/<id>/`: the board, live over `/ws/games/<id>/`."""
    return _render_game(request, _game(game_id))


def _render_game(
    request: HttpRequest, game: Game, *, join_form: JoinForm | None = None, status: int = 200
) -> HttpResponse:
    """live/templates/live/game.html with `game`, `state` (G for this viewer), the account's
    `confirm_moves` ("" for a guest, or while not chosen) with its `confirm_choices` and,
    while a seat is free and the
    viewer holds none, `join_form` (and the challenger's name, `challenged_by`, when the
    seat is reserved for the viewer: a challenge to answer)."""
    state = states.game_state(game, you=selectors.color_of(game, player_of(request)))
    context = {
        "game": game,
        "state": state,
        "time_control": selectors.time_control_text(game),
        "same_settings": urlencode(selectors.same_settings(game)),
        "confirm_moves": confirm_moves_of(request.user),
        "confirm_choices": ConfirmMoves.choices,
    }
    if state["status"] == Game.Status.WAITING and state["you"] is None:
        name = remembered_name(request.session, request.user)
        context["join_form"] = join_form or JoinForm(initial={"name": name})
        if game.reserved_for_id is not None and game.reserved_for_id == request.user.pk:
            context["challenged_by"] = game.creator.name
    return render(request, "live/game.html", context, status=status)


@api.token_route
@require_GET
def state_json(request: HttpRequest, game_id: str) -> JsonResponse:
    """`GET /games/<id>/state.json`: the same state object the websocket sends."""
    state = states.state_for(game_id, you=player_of(request))
    if state is None:
        raise Http404("no such game")
    return JsonResponse(state)
