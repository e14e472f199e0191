"""HTTP: the tokens page, the bots online (challenging one, and a bot declining, are the
challenges app's routes)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from accounts.selectors import is_bot
from bots import accounts, services
from bots.models import BotAccount
from games.services.errors import GameError


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


def _render_bots(request: HttpRequest) -> HttpResponse:
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
    return render(request, "bots/bots.html", {"bots": listed})
