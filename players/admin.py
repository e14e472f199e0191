"""Ratings and their history in the admin: read-only lists with search and filters (what
changes a rating is a game's end, a recompute or "annul ratings"), and the games admin
with that action (the games app's, re-registered: the games app never imports this one)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy, ngettext

from games.admin import GameAdmin
from games.models import Game
from players import ratings
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

    @admin.display(description=gettext_lazy("game"), ordering="game__finished_at")
    def game_link(self, change: RatingChange) -> SafeString:
        url = reverse("admin:games_game_change", args=[change.game_id])
        return format_html('<a href="{}">{}</a>', url, change.game.public_id)


admin.site.unregister(Game)


@admin.register(Game)
class RatedGameAdmin(GameAdmin):
    """The games admin and one action of the players' world: annul a game's ratings."""

    actions = (*GameAdmin.actions, "annul_ratings")

    def has_annul_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("players.change_ratingchange")

    @admin.action(
        description=gettext_lazy(
            "Annul the selected games' ratings (cheating): undone for both players, "
            "later games recomputed"
        ),
        permissions=["annul"],
    )
    def annul_ratings(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        annulled = ratings.annul(games=queryset.only("pk"))
        self.message_user(
            request,
            ngettext(
                "Annulled the ratings of %(count)d game; the ratings were recomputed.",
                "Annulled the ratings of %(count)d games; the ratings were recomputed.",
                annulled,
            )
            % {"count": annulled},
            messages.SUCCESS,
        )
