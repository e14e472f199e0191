"""HTTP routes of the engines' review (docs/api/http.md#the-review): thin, the services decide.

- ``POST /games/<id>/analysis/``: queue a finished game's review: 202 ``{"status"}``
  while queued or running, 200 once done, 409 ``{"error"}`` for a game not finished,
  404 for no game; 429 beyond 5 an hour per session (60 per IP). The replay page's form
  (a request that does not want JSON) is answered with that page (302), saying why when
  refused.
- ``GET /games/<id>/analysis.json``: the review so far; 404 before any request.
- ``POST /games/<id>/explore.json`` (JSON ``{"ply", "moves"}``): other moves tried from
  a position of a finished game, as the rules play them, with the engine's verdict
  (Othello always, Go with ``"engine": true``); 400 ``{"error", "message"}`` for a
  malformed request or an illegal move, 409 for a game not finished; 60 a minute per
  session (300 per IP). A player's explores queue behind each other
  (games.workers.engines): 429 ``{"error": "busy"}`` beyond 12 of theirs in the process,
  503 for one that waited more than a minute for an engine, both with ``Retry-After``.
"""

from __future__ import annotations

import json

from asgiref.sync import sync_to_async
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from accounts import answers, api
from accounts.api import token_route
from accounts.players import player_of
from games import limits
from games.models import Analysis
from games.services import analysis as analysis_services
from games.services.analysis import NotFinished
from games.services.errors import GameError
from games.workers import engines


@token_route
@require_POST
@limits.limit_posts(
    "analysis", per_session=limits.ANALYSIS_PER_SESSION, per_ip=limits.ANALYSIS_PER_IP
)
def request_analysis(request: HttpRequest, game_id: str) -> HttpResponse:
    """`POST /games/<id>/analysis/`: queue the game's review (once). A page's form (a
    request that does not want JSON): 302 back to the replay, which follows the review,
    or says why it was refused."""
    replay = reverse("games:replay", kwargs={"game_id": game_id})
    try:
        analysis = analysis_services.request_analysis(game_id=game_id)
    except NotFinished as refused:
        if api.wants_json(request):
            return JsonResponse({"error": str(refused)}, status=409)
        return answers.refused(request, "bad_request", str(refused), status=409, back=replay)
    except GameError:
        raise Http404("no such game") from None
    if not api.wants_json(request):
        return redirect(replay)
    status = 200 if analysis.status == Analysis.Status.DONE else 202
    return JsonResponse({"status": analysis.status}, status=status)


@token_route
@require_GET
def analysis_json(request: HttpRequest, game_id: str) -> JsonResponse:
    """`GET /games/<id>/analysis.json`: the review so far, one entry per position."""
    found = analysis_services.analysis_json(game_id)
    if found is None:
        raise Http404("no analysis requested")
    return JsonResponse(found)


@token_route
@require_POST
@limits.limit_posts("explore", per_session=limits.EXPLORE_PER_SESSION, per_ip=limits.EXPLORE_PER_IP)
async def explore_json(request: HttpRequest, game_id: str) -> JsonResponse:
    """`POST /games/<id>/explore.json`: moves tried from a position of the game.

    Async: the rules' part (the database) runs in the request's thread, and the engine's
    verdict comes from this process's engines (games.workers.engines), awaited on the
    event loop: in a daphne process the search never runs in the web process (where no
    engines' pool serves, as under the test client, a thread of it searches)."""
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        return JsonResponse(
            {"error": "bad_request", "message": gettext("the body is not JSON")}, status=400
        )
    if not isinstance(body, dict):
        return JsonResponse(
            {"error": "bad_request", "message": gettext("the body is an object")}, status=400
        )
    try:
        explored = await sync_to_async(analysis_services.explore)(
            game_id=game_id,
            ply=body.get("ply"),
            moves=body.get("moves", []),
            engine=body.get("engine", False),
        )
    except NotFinished as refused:
        return JsonResponse({"error": str(refused)}, status=409)
    except GameError as error:
        return JsonResponse({"error": error.code, "message": error.message}, status=400)
    found = explored.answer
    if explored.job is not None:
        try:
            found.update(await engines.explore(explored.job, await sync_to_async(_asker)(request)))
        except engines.EnginesBusy as busy:
            refused = api.error_json("busy", busy.message, status=busy.status)
            refused["Retry-After"] = str(busy.retry_after)
            return refused
    return JsonResponse(found)


def _asker(request: HttpRequest) -> str:
    """Whose explore this is (``Player.token``): the account (logged in, or a bot's
    token), else the browser's session, saved now for a visitor who had none."""
    if request.session.session_key is None and not api.by_token(request):
        request.session.save()
    token = player_of(request).token
    assert token is not None
    return token
