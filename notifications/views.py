"""HTTP of notifications: the list and its JSON, marking read, the account's choices, a
device's push subscription, the one-click unsubscribe of an e-mail, the service worker."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import answers, api
from accounts.api import token_route
from accounts.selectors import unverified_email
from notifications import channels, keys, services
from notifications.models import Kind

SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "sw.js"


def _json_login_required(request: HttpRequest) -> JsonResponse | None:
    if request.user.is_authenticated:
        return None
    return JsonResponse({"error": "login_required", "message": gettext("log in first")}, status=401)


@token_route
@require_GET
def notifications_json(request: HttpRequest) -> JsonResponse:
    """`GET /notifications.json` (logged in; else 401): ``{"unread": n,
    "notifications": [N, ...]}``, newest first, 50 at most."""
    refused = _json_login_required(request)
    if refused is not None:
        return refused
    return JsonResponse(services.latest(user_id=request.user.pk))


@token_route
@answers.login_required
@require_POST
def mark_read(request: HttpRequest) -> HttpResponse:
    """`POST /notifications/read/` with ``ids`` (repeated or comma-separated) or
    ``all=1``: marked read. A request that wants JSON: ``{"marked": n, "unread": n}``, 400
    ``{"error", "message", "field"}`` for ids that are not numbers, 401 not logged in; a
    page's form: 302 back to the list, the site's 400 page saying why, the login page."""
    ids: list[int] | None = None
    if request.POST.get("all") != "1":
        raw = [part for value in request.POST.getlist("ids") for part in value.split(",")]
        if not raw or not all(part.strip().isdigit() for part in raw):
            message = gettext("ids: notification ids, or all=1")
            return answers.refused(request, "bad_request", message, field="ids")
        ids = [int(part) for part in raw]
    marked = services.mark_read(user_id=request.user.pk, ids=ids)
    if not api.wants_json(request):
        return redirect("notifications:list")
    return JsonResponse({"marked": marked, "unread": services.unread_count(request.user.pk)})


@login_required
@require_GET
def notification_list(request: HttpRequest) -> HttpResponse:
    """`GET /notifications/`: the account's notifications, newest first, unread marked."""
    user_id = request.user.pk
    context = {
        "notifications": services.recent(user_id=user_id),
        "unread": services.unread_count(user_id),
    }
    return render(request, "notifications/list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def notification_settings(request: HttpRequest) -> HttpResponse:
    """`/notifications/settings/`: for each kind, e-mail it or not, push it or not (the
    site always shows it, but a kind that is off by default: show it or not); the devices
    that get pushes; an address not verified yet, with a button that mails its link again
    (none is e-mailed before)."""
    user_id = request.user.pk
    if request.method == "POST":
        for kind in services.DEFAULTS:
            services.choose(
                user_id=user_id,
                kind=kind,
                site=request.POST.get(f"{kind}-site") == "1",
                email=request.POST.get(f"{kind}-email") == "1",
                push=request.POST.get(f"{kind}-push") == "1",
            )
        messages.success(request, gettext("Your notification settings are saved."))
        return redirect("notifications:settings")
    context: dict[str, Any] = {
        "choices": [
            {
                "kind": kind,
                "label": Kind(kind).label,
                "switch": kind in services.OFF_BY_DEFAULT,
                "site": choice.site,
                "email": choice.email,
                "push": choice.push,
            }
            for kind, choice in services.all_choices(user_id=user_id).items()
        ],
        "has_email": bool(request.user.email),
        "unverified_email": unverified_email(request.user),
        "vapid_public_key": keys.vapid_public_key(),
    }
    return render(request, "notifications/settings.html", context)


@require_POST
def push_subscription(request: HttpRequest) -> JsonResponse:
    """`POST /notifications/push/` with a browser's subscription JSON (``{"endpoint",
    "keys": {"p256dh", "auth"}}``; ``{"endpoint", "remove": true}`` forgets it): 201 (200
    for a removal); 400 ``endpoint_refused`` naming ``endpoint`` for an endpoint the
    server will not send to (services.subscribe), ``bad_request`` for anything else; 401
    for a visitor not logged in."""
    refused = _json_login_required(request)
    if refused is not None:
        return refused
    try:
        body = json.loads(request.body or b"null")
    except ValueError:
        body = None
    if isinstance(body, dict) and body.get("remove") is True:
        removed = services.unsubscribe_device(
            user_id=request.user.pk, endpoint=str(body.get("endpoint", ""))
        )
        return JsonResponse({"removed": removed})
    try:
        services.subscribe(user_id=request.user.pk, subscription=body)
    except services.NotificationError as error:
        refused = {"error": error.code, "message": str(error)}
        if error.field:
            refused["field"] = error.field
        return JsonResponse(refused, status=400)
    return JsonResponse({"subscribed": True}, status=201)


# A mail client's one-click unsubscribe posts without a CSRF token (RFC 8058); the token in
# the address is the proof, signed by the server.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """`/notifications/unsubscribe/<token>/`: the signed link of an e-mail: no more
    e-mails of its kind to its account (GET, one click; POST, a mail client's one-click,
    RFC 8058). 400 for a token the server did not sign."""
    try:
        user_id, kind = channels.read_unsubscribe_token(token)
    except signing.BadSignature:
        return render(
            request, "400.html", {"message": "this unsubscribe link is not valid"}, status=400
        )
    chosen = services.choices(user_id=user_id, kind=kind)
    services.choose(user_id=user_id, kind=kind, email=False, push=chosen.push)
    context = {"kind": Kind(kind).label.lower()}
    return render(request, "notifications/unsubscribed.html", context)


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """`GET /sw.js`: the service worker that shows pushed notifications, at the site's
    root so that it may serve every page."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
