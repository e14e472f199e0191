"""HTTP of moderation: reporting an account, the staff desk, an account's case and the
actions on it, the log. Thin: parse (a form or a JSON body), one service or selector,
answer in JSON when the request is JSON or asks for it, with a page otherwise.

None of these routes takes an API token: a token is never a staff credential."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import answers, api
from accounts import selectors as accounts
from moderation import selectors, services
from moderation.models import TEXT_MAX, Action, Report
from moderation.services import ModerationError

View = Callable[..., HttpResponse]


def staff_only(view: View) -> View:
    """Only for staff (``is_staff``): a guest is sent to the login page (a request that
    wants JSON: 401 ``login_required``), any other account refused (403, ``forbidden`` in
    JSON)."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            if api.wants_json(request):
                return api.error_json("login_required", gettext("log in first"), status=401)
            return redirect_to_login(request.get_full_path())
        if not request.user.is_staff:
            message = gettext("only staff may use the moderation desk")
            if api.wants_json(request):
                return api.error_json("forbidden", message, status=403)
            raise PermissionDenied(message)
        return view(request, *args, **kwargs)

    return wrapped


def _fields(request: HttpRequest) -> dict[str, Any]:
    """The request's fields: its JSON object, or its form. Raises ModerationError for a
    body that is not a JSON object."""
    if request.content_type != "application/json":
        return request.POST.dict()
    try:
        fields = json.loads(request.body or b"{}")
    except ValueError:
        fields = None
    if not isinstance(fields, dict):
        raise ModerationError("bad_request", gettext("the body must be a JSON object"))
    return fields


def _back(request: HttpRequest, fields: dict[str, Any], default: str) -> str:
    """Where a page's form returns: its ``next`` when it is a page of this site, else
    ``default``."""
    target = fields.get("next")
    safe = isinstance(target, str) and url_has_allowed_host_and_scheme(
        target, {request.get_host()}, require_https=request.is_secure()
    )
    return str(target) if safe else default


@require_POST
def report(request: HttpRequest) -> HttpResponse:
    """`POST /reports/` (logged in) with ``username``, ``reason``, ``text`` and optionally
    ``game`` and ``chat``: 201 ``{"id"}`` (200 with the first report's id for a repeat),
    400/429 ``{"error", "message", "field"}``; a guest 401 ``login_required``. A page's
    form: 302 to its ``next`` (else the profile) saying thanks, or the site's page saying
    why it was refused (a guest: the login page)."""
    if not request.user.is_authenticated:
        if api.wants_json(request):
            return api.error_json(
                "login_required", gettext("log in to report a player"), status=401
            )
        return redirect_to_login(request.POST.get("next") or "/")
    try:
        fields = _fields(request)
        filed = services.report(
            reporter_id=request.user.pk,
            username=fields.get("username"),
            reason=fields.get("reason"),
            text=fields.get("text", ""),
            game=fields.get("game"),
            chat=fields.get("chat"),
        )
    except ModerationError as error:
        return answers.refusal(request, error)
    if api.wants_json(request):
        return JsonResponse({"id": filed.report.pk}, status=201 if filed.made else 200)
    messages.success(request, gettext("Thank you: your report went to the staff."))
    return redirect(_back(request, fields, filed.report.account.get_absolute_url()))


def _action_context() -> dict[str, Any]:
    """What an action's form offers."""
    return {
        "actions": Action.Kind.choices,
        "hours_max": services.HOURS_MAX,
        "text_max": TEXT_MAX,
        "reasons": dict(Report.Reason.choices),
    }


@require_GET
@staff_only
def desk(request: HttpRequest) -> HttpResponse:
    """`GET /moderation/` (staff): the open reports by account, newest first (``?sort=
    accuracy``: the highest mean review accuracy first), each account's case beside them
    and its action form; the latest entries of the log."""
    sort = request.GET.get("sort", "newest")
    if sort not in selectors.SORTS:
        sort = "newest"
    context = {
        "cases": selectors.desk(sort=sort),
        "sort": sort,
        "log": selectors.log(selectors.DESK_LOG),
        **_action_context(),
    }
    return render(request, "moderation/desk.html", context)


@require_http_methods(["GET", "POST"])
@staff_only
def account(request: HttpRequest, username: str) -> HttpResponse:
    """`GET /moderation/<username>/` (staff): the account's case and its action form.
    `POST` with ``action``, ``reason`` and, for a mute, ``hours``: 200 ``{"ok": true}``,
    400/404 ``{"error", "message", "field"}``; a page's form: 302 to its ``next`` (else
    the desk) saying what was done, or the site's page saying why it was refused."""
    if request.method == "POST":
        return _act(request, username)
    found = accounts.account_named(username)
    if found is None:
        raise Http404(gettext("there is no such player"))
    context = {"case": selectors.case_of(found), **_action_context()}
    return render(request, "moderation/account.html", context)


def _act(request: HttpRequest, username: str) -> HttpResponse:
    try:
        fields = _fields(request)
        entry = services.act(
            staff_id=request.user.pk,
            username=username,
            action=fields.get("action"),
            reason=fields.get("reason"),
            hours=fields.get("hours"),
        )
    except ModerationError as error:
        return answers.refusal(request, error)
    if api.wants_json(request):
        return JsonResponse({"ok": True})
    messages.success(
        request,
        gettext("Done: %(action)s, %(name)s. The log keeps your reason.")
        % {"action": entry.get_action_display(), "name": username},
    )
    return redirect(_back(request, fields, "/moderation/"))


@require_GET
@staff_only
def log_json(request: HttpRequest) -> JsonResponse:
    """`GET /moderation/log.json` (staff): ``{"entries": [{"at", "staff", "account",
    "action", "reason", "until"}]}``, the latest ``selectors.LOG_SHOWN``, newest first."""
    return JsonResponse(selectors.log_json())
