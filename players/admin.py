"""Ratings and their history in the admin: read-only lists with search and filters (what
changes a rating is a game's end, a recompute or the games admin's "annul rating")."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from players.models import Rating, RatingChange


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ("user", "category", "rating", "rd", "volatility", "games", "last_played_at")
    list_filter = ("category",)
    search_fields = ("user__username", "category")
    list_select_related = ("user",)
    ordering = ("category", "-rating")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly):
    list_display = (
        "ended_at",
        "user",
        "category",
        "game_link",
        "color",
        "rating_before",
        "rating_after",
        "change",
        "rd_after",
        "annulled",
    )
    list_filter = ("category", "annulled", "ended_at")
    search_fields = ("user__username", "game__public_id", "category")
    list_select_related = ("user", "game")
    ordering = ("-ended_at", "-pk")

    @admin.display(description="game", ordering="game__finished_at")
    def game_link(self, change: RatingChange) -> SafeString:
        url = reverse("admin:games_game_change", args=[change.game_id])
        return format_html('<a href="{}">{}</a>', url, change.game.public_id)
