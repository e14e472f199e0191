"""HTTP: challenging an account (a person from their profile, a bot from the bots' page),
the challenged account declining, an account's challenges in JSON, and what the Challenge
button of a profile needs."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from accounts import answers, api
from accounts import selectors as accounts
from accounts.once import FORM_TOKEN, TokenError, once
from accounts.players import Player, player_of, remember_name, seat_name
from challenges import selectors, services
from challenges.models import Reason
from games import limits
from games.forms import NewGameForm, form_context
from games.services.errors import GameError
from games.views.lobby import new_game_initial


@api.token_route
@require_POST
@limits.limit_posts("create")
def challenge(request: HttpRequest, username: str) -> HttpResponse:
    """`POST /players/<username>/challenge/` with the create fields and `rated`: 302 to
    the waiting game reserved for that account; 400 (429 ``rate_limited`` beyond the
    account's challenges) with the reason: a page, or for a token's request (or one
    asking for JSON) ``{"error", "message", "field"}``."""
    form = NewGameForm(request.POST)
    if not form.is_valid():
        if api.wants_json(request):
            return api.form_error_json(form)
        errors = "; ".join(f"{field}: {' '.join(e)}" for field, e in form.errors.items())
        return _refused(request, username, errors)
    rated = request.POST.get("rated", "0")
    if rated not in ("0", "1"):
        return _refused(request, username, gettext("rated: 0 or 1"), field="rated")
    player = player_of(request, create_session=True)
    name = seat_name(request, form.cleaned_data["name"])
    try:
        game_id = once(
            form.cleaned_data["form_token"],
            player=player,
            work=lambda: (
                services.challenge(
                    player=player,
                    username=username,
                    name=name,
                    rated=rated == "1",
                    options=form.game_options(),
                ).public_id
            ),
        )
    except GameError as error:
        return _refused(
            request,
            username,
            error.message,
            code=error.code,
            field=error.field,
            details=error.details,
        )
    except TokenError as error:
        return _refused(request, username, str(error), field=FORM_TOKEN)
    remember_name(request, name)
    return redirect("games:game", game_id=game_id)


def _refused(
    request: HttpRequest,
    username: str,
    reason: str,
    *,
    code: str = "bad_request",
    field: str | None = None,
    details: dict[str, Any] | None = None,
) -> HttpResponse:
    """400 (429 for ``rate_limited``): a page saying why the challenge was refused, or
    ``{"error", "message", "field"}`` (and the refusal's ``details``: a mute's ``until``)
    for a token's request (or one asking for JSON)."""
    status = 429 if code == "rate_limited" else 400
    if api.wants_json(request):
        return api.error_json(code, reason, field=field, status=status, details=details)
    context = {"reason": reason, "username": username}
    return render(request, "challenges/refused.html", context, status=status)


@api.token_route
@require_POST
def decline(request: HttpRequest, game_id: str) -> HttpResponse:
    """`POST /games/<id>/decline/` with ``reason`` (one of ``Reason``; ``generic`` when
    left out) by the challenged account (a bot by its token, a person logged in): the
    challenge refused, the game aborted. A request that wants JSON (a token's, or one
    asking for it): 200 `{"status": "aborted"}`, 400/403 `{"error", "message", "field"}`.
    A page's form (the header's inbox, the game page): 302 to ``next`` (a page of this
    site; else the game) saying so, or the site's error page in words."""
    reason = request.POST.get("reason") or Reason.GENERIC
    try:
        player = Player.of(None, request.user)
        found = services.decline(player=player, game_id=game_id, reason=reason)
    except GameError as error:
        status = 403 if error.code == "not_a_player" else 400
        return answers.refused(request, error.code, error.message, field=error.field, status=status)
    if api.wants_json(request):
        return JsonResponse({"status": "aborted"})
    challenger = found.creator.name
    messages.success(
        request, gettext("You declined the challenge of %(name)s.") % {"name": challenger}
    )
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return redirect(target)
    return redirect("games:game", game_id=game_id)


@api.token_route
@require_GET
def challenges_json(request: HttpRequest) -> JsonResponse:
    """`GET /challenges.json` (logged in; else 401 ``login_required``): ``{"incoming":
    [...], "outgoing": [...]}`` (challenges.selectors.challenges_json)."""
    if not request.user.is_authenticated:
        return api.error_json("login_required", gettext("log in first"), status=401)
    return JsonResponse(selectors.challenges_json(request.user.pk))


def profile_context(request: HttpRequest, user: Any) -> dict[str, Any]:
    """The Challenge button of a person's profile (``templates/challenges/_profile.html``,
    included by the profile page of the home app): the create form's fields and
    ``challengeable``; nothing on a bot's (challenged from the bots' page), a closed one's
    or one's own."""
    if accounts.is_bot(user) or request.user.pk == user.pk or not user.is_active:
        return {}
    return {**form_context(NewGameForm(initial=new_game_initial(request))), "challengeable": True}
