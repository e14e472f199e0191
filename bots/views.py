"""HTTP: the tokens page, the bots online, challenging one, a bot declining."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.once import TokenError, once
from accounts.players import Player, player_of, remember_name, seat_name
from accounts.selectors import is_bot
from bots import accounts, services
from bots.models import BotAccount
from games import limits
from games.forms import NewGameForm
from games.services import GameError


@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    """`/account/tokens/`: the account's tokens (name, made, last use), a form to make
    one (shown once), revoke buttons, and for an account without games, becoming a bot."""
    created = None
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "create":
                created = services.create_token(
                    user=request.user, name=request.POST.get("name", "")
                )[1]
            elif action == "revoke":
                token_id = request.POST.get("token", "")
                if not token_id.isdigit() or not services.revoke_token(
                    user=request.user, token_id=int(token_id)
                ):
                    raise GameError("bad_request", gettext("no such token"))
                messages.success(request, gettext("The token was revoked."))
                return redirect("bots:tokens")
            elif action == "become_bot":
                if request.POST.get("confirm") != "1":
                    raise GameError(
                        "bad_request", gettext("tick the box to confirm: this is for good")
                    )
                services.become_bot(user=request.user)
                messages.success(request, gettext("This account is now a bot."))
                return redirect("bots:tokens")
            else:
                raise GameError("bad_request", gettext("unknown action"))
        except GameError as error:
            messages.error(request, error.message)
            status = 400
    context = {
        "tokens": request.user.api_tokens.all(),
        "created": created,
        "is_bot": is_bot(request.user),
    }
    return render(request, "bots/tokens.html", context, status=status)


KIND_NAMES = {"othello": gettext_lazy("Othello"), "go": gettext_lazy("Go")}


@require_GET
def bots_online(request: HttpRequest) -> HttpResponse:
    """`/players/bots/`: the bots online, what each plays, a Challenge form each."""
    return _render_bots(request)


def _render_bots(request: HttpRequest, *, error: str = "", status: int = 200) -> HttpResponse:
    online = accounts.online_bot_ids()
    bots = BotAccount.objects.filter(user_id__in=online).select_related("user")
    listed = []
    for bot in sorted(bots, key=lambda bot: bot.user.get_username().lower()):
        kinds = [kind for kind in bot.accepts.get("kinds", []) if kind in KIND_NAMES]
        listed.append(
            {
                "bot": bot,
                "kinds": [(kind, KIND_NAMES[kind]) for kind in kinds or KIND_NAMES],
                "size": (bot.accepts.get("sizes") or [8 if kinds == ["othello"] else 19])[0],
            }
        )
    return render(request, "bots/bots.html", {"bots": listed, "error": error}, status=status)


@require_POST
@limits.limit_posts("create")
def challenge(request: HttpRequest, username: str) -> HttpResponse:
    """`POST /players/<bot>/challenge/` with the create fields and `rated`: 302 to the
    waiting game reserved for the bot; 400 with the reason."""
    form = NewGameForm(request.POST)
    if not form.is_valid():
        errors = "; ".join(f"{field}: {' '.join(e)}" for field, e in form.errors.items())
        return _refused(request, errors)
    rated = request.POST.get("rated", "0")
    if rated not in ("0", "1"):
        return _refused(request, gettext("rated: 0 or 1"))
    player = player_of(request, create_session=True)
    name = seat_name(request, form.cleaned_data["name"])
    try:
        game_id = once(
            form.cleaned_data["form_token"],
            player=player,
            work=lambda: (
                services.challenge(
                    player=player,
                    bot_username=username,
                    name=name,
                    rated=rated == "1",
                    options=form.game_options(),
                ).public_id
            ),
        )
    except GameError as error:
        return _refused(request, error.message)
    except TokenError as error:
        return _refused(request, str(error))
    remember_name(request, name)
    return redirect("games:game", game_id=game_id)


def _refused(request: HttpRequest, reason: str) -> HttpResponse:
    """400: the bots' page, saying why the challenge was refused."""
    return _render_bots(
        request,
        error=gettext("The challenge was refused: %(reason)s") % {"reason": reason},
        status=400,
    )


@require_POST
def decline(request: HttpRequest, game_id: str) -> HttpResponse:
    """`POST /games/<id>/decline/` (the bot, by its token): the challenge refused, the
    game aborted. 200 `{"status": "aborted"}`; 400/403 `{"error", "message"}`."""
    try:
        services.decline(player=Player.of(None, request.user), game_id=game_id)
    except GameError as error:
        status = 403 if error.code == "not_a_player" else 400
        return JsonResponse({"error": error.code, "message": error.message}, status=status)
    return JsonResponse({"status": "aborted"})
