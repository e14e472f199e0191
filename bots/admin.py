"""Admin screens of the bots app: tokens (never their digests' tokens), bots."""

from django.contrib import admin

from bots.models import ApiToken, BotAccount


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "name", "prefix", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("user__username", "name", "prefix")
    readonly_fields = ("user", "prefix", "digest", "created_at", "last_used_at")


@admin.register(BotAccount)
class BotAccountAdmin(admin.ModelAdmin):
    list_display = ("user", "accepts")
    search_fields = ("user__username",)
