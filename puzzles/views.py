"""The puzzles' routes (docs/api/http.md, "Puzzles"): the page, the next puzzle as JSON
and the answer. A view parses the request and calls one service or selector."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from accounts import answers, api
from puzzles import selectors, services
from puzzles.models import Puzzle
from puzzles.services import PuzzleError


def _account_id(request: HttpRequest) -> int | None:
    return int(request.user.pk) if request.user.is_authenticated else None


def _kind(value: str | None) -> str:
    """The ``kind`` asked for (Othello when none); PuzzleError naming ``kind`` otherwise."""
    kind = value or Puzzle.Kind.OTHELLO
    if kind not in Puzzle.Kind.values:
        raise PuzzleError("bad_request", gettext("kind must be othello or go"), field="kind")
    return str(kind)


@ensure_csrf_cookie
@require_GET
def page(request: HttpRequest) -> HttpResponse:
    """`GET /puzzles/?kind=othello|go`: the board with a puzzle to solve (``?puzzle=<id>``:
    that one, as the home page's puzzle of the day links it)."""
    try:
        kind = _kind(request.GET.get("kind"))
    except PuzzleError as error:
        return answers.refusal(request, error)
    account_id = _account_id(request)
    asked = request.GET.get("puzzle", "")
    puzzle = Puzzle.objects.filter(pk=int(asked)).first() if asked.isdigit() else None
    if puzzle is None:
        puzzle = selectors.next_puzzle(kind=kind, account_id=account_id)
    else:
        kind = puzzle.kind
    context: dict[str, Any] = {
        "kind": kind,
        "puzzle": None if puzzle is None else selectors.puzzle_data(puzzle),
        "player_rating": selectors.shown_rating(account_id),
    }
    return render(request, "puzzles/puzzles.html", context)


@api.token_route
@require_GET
def next_json(request: HttpRequest) -> HttpResponse:
    """`GET /puzzles/next.json?kind=othello|go`: a puzzle near the player's puzzle rating,
    never one the account answered; 404 ``not_found`` when none is left, 400 naming
    ``kind`` for another kind."""
    try:
        kind = _kind(request.GET.get("kind"))
    except PuzzleError as error:
        return api.error_json(error.code, error.message, field=error.field, status=error.status)
    puzzle = selectors.next_puzzle(kind=kind, account_id=_account_id(request))
    if puzzle is None:
        return api.error_json("not_found", gettext("no puzzle is left for you"), status=404)
    return JsonResponse(selectors.puzzle_data(puzzle))


@api.token_route
@require_POST
def answer(request: HttpRequest, puzzle_id: int) -> HttpResponse:
    """`POST /puzzles/<id>/answer/` with ``point`` (JSON ``{"point": [r, c]}``, or a form's
    ``point`` as "r,c"): ``{"correct", "solution", "value", "rating": {"puzzle",
    "player"}}``; 400 naming ``point``, 404 for no such puzzle. A form that does not ask
    for JSON gets the page telling the answer."""
    try:
        point = _point(request)
        told = services.answer(puzzle_id=puzzle_id, account_id=_account_id(request), point=point)
    except PuzzleError as error:
        return answers.refusal(request, error)
    if api.wants_json(request):
        return JsonResponse(told.json())
    return render(request, "puzzles/answered.html", selectors.answered_context(told))


def _point(request: HttpRequest) -> object:
    """The request's ``point``: its JSON object's, or its form's. PuzzleError naming
    ``point`` for a body that is not a JSON object."""
    if request.content_type != "application/json":
        return request.POST.get("point")
    try:
        fields = json.loads(request.body or b"{}")
    except ValueError:
        fields = None
    if not isinstance(fields, dict):
        raise PuzzleError("bad_request", gettext("the body must be a JSON object"), field="point")
    return fields.get("point")
