"""HTTP routes of the engines' review (DESIGN.md, "Review"): thin, the services decide.

- ``POST /games/<id>/analysis/``: queue a finished game's review: 202 ``{"status"}``
  while queued or running, 200 once done, 409 ``{"error"}`` for a game not finished,
  404 for no game; 429 beyond 5 an hour per session (60 per IP).
- ``GET /games/<id>/analysis.json``: the review so far; 404 before any request.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.http import require_GET, require_POST

from games import limits, services
from games.models import Analysis
from games.services import GameError, NotFinished


@require_POST
@limits.limit_posts(
    "analysis", per_session=limits.ANALYSIS_PER_SESSION, per_ip=limits.ANALYSIS_PER_IP
)
def request_analysis(request: HttpRequest, game_id: str) -> JsonResponse:
    """`POST /games/<id>/analysis/`: queue the game's review (once)."""
    try:
        analysis = services.request_analysis(game_id=game_id)
    except NotFinished as refused:
        return JsonResponse({"error": str(refused)}, status=409)
    except GameError:
        raise Http404("no such game") from None
    status = 200 if analysis.status == Analysis.Status.DONE else 202
    return JsonResponse({"status": analysis.status}, status=status)


@require_GET
def analysis_json(request: HttpRequest, game_id: str) -> JsonResponse:
    """`GET /games/<id>/analysis.json`: the review so far, one entry per position."""
    found = services.analysis_json(game_id)
    if found is None:
        raise Http404("no analysis requested")
    return JsonResponse(found)
