"""HTTP: the help pages. Thin: find the topic, gather the figures it quotes
(``manual.facts``) and its board pictures (``manual.diagrams``), render."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from bots.services import CHALLENGE_SECONDS
from manual import diagrams, facts
from manual.topics import BY_SLUG, TOPICS, Topic
from moderation.models import Report
from moderation.services import DAILY_LIMIT as REPORTS_A_DAY


def _topics() -> list[Topic]:
    """The topics, their titles and summaries in the visitor's language."""
    return [topic.translated(translation) for topic in TOPICS]


def _pictures(page: str) -> dict[str, str]:
    """The page's pictures, named in the visitor's language."""
    return diagrams.pictures(page, translation, translation.get_language() or "en")


def _figures(slug: str) -> dict[str, Any]:
    """What the page ``slug`` quotes of the code and of the server's settings."""
    if slug in ("clocks", "faq"):
        return {
            "clocks": facts.clocks(translation),
            "first_move_seconds": settings.FIRST_MOVE_SECONDS,
            "abandon_seconds": settings.ABANDON_SECONDS,
        }
    if slug == "ratings":
        return {"ratings": facts.ratings(), "clocks": facts.clocks(translation)}
    if slug == "pairing":
        return facts.pairing(translation)
    if slug == "rules-go":
        return {"count": facts.go_count(diagrams.GO_COUNT)}
    if slug == "review":
        return {"marks": facts.review_marks()}
    if slug == "bots":
        return {"challenge_seconds": CHALLENGE_SECONDS}
    if slug == "tournaments":
        return {**facts.tournaments(), "first_move_seconds": settings.FIRST_MOVE_SECONDS}
    if slug == "fair-play":
        return {
            "daily_reports": REPORTS_A_DAY,
            "reasons": Report.Reason.choices,
            "playbans": facts.playbans(),
        }
    return {}


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """`GET /help/`: the topics, each with a line."""
    return render(request, "manual/index.html", {"topics": _topics()})


@require_GET
def topic(request: HttpRequest, topic: str) -> HttpResponse:
    """`GET /help/<topic>/`: one topic's page; 404 for an unknown topic."""
    found = BY_SLUG.get(topic)
    if found is None:
        raise Http404(gettext("no such help topic"))
    context = {
        "topic": found.translated(translation),
        "topics": _topics(),
        "diagrams": _pictures(found.slug),
        "canonical": request.build_absolute_uri(reverse("help-topic", args=[found.slug])),
        **_figures(found.slug),
    }
    return render(request, found.template, context)


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """`GET /rules/`: the two games in a few lines each, leading to their rules' pages."""
    context = {
        "topics": _topics(),
        "diagrams": _pictures("rules"),
        "othello": BY_SLUG["rules-othello"].translated(translation),
        "go": BY_SLUG["rules-go"].translated(translation),
    }
    return render(request, "manual/rules.html", context)


@require_GET
def faq(request: HttpRequest) -> HttpResponse:
    """`GET /faq/`: the questions and answers (the page of ``/help/faq/``, which it names
    as canonical)."""
    return topic(request, "faq")
