"""The admin shows the reports, the moderation log and the playbans, read-only, each
linked to the account's case at the staff desk, where staff act (moderation.views): an
action is never made nor changed here, so that each one has its log entry and its
effects."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy

from moderation.models import Action, Playban, Report


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    """Shown, never added, changed nor deleted here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=gettext_lazy("at the desk"))
    def desk_link(self, row: Report | Action | Playban) -> SafeString:
        username = row.account.get_username()
        url = reverse("moderation:account", args=[username])
        return format_html('<a href="{}">{}</a>', url, username)


@admin.register(Report)
class ReportAdmin(ReadOnly):
    list_display = ("created_at", "reporter", "desk_link", "reason", "text", "closed_at")
    list_filter = ("reason", ("closed_at", admin.EmptyFieldListFilter), "created_at")
    search_fields = ("account__username", "reporter__username", "text")
    list_select_related = ("reporter", "account")
    date_hierarchy = "created_at"
    fields = readonly_fields = (
        "created_at",
        "reporter",
        "desk_link",
        "reason",
        "text",
        "game",
        "chat",
        "closed_at",
        "closed_by",
    )


@admin.register(Action)
class ActionAdmin(ReadOnly):
    list_display = ("at", "staff", "desk_link", "action", "reason", "until")
    list_filter = ("action", "at")
    search_fields = ("account__username", "staff__username", "reason")
    list_select_related = ("staff", "account")
    date_hierarchy = "at"
    fields = readonly_fields = ("at", "staff", "desk_link", "action", "reason", "until")


@admin.register(Playban)
class PlaybanAdmin(ReadOnly):
    list_display = ("at", "desk_link", "reason", "until", "lifted_at")
    list_filter = ("reason", "at")
    search_fields = ("account__username",)
    list_select_related = ("account",)
    date_hierarchy = "at"
    fields = readonly_fields = ("at", "desk_link", "reason", "until", "lifted_at")
