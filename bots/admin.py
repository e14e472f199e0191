"""Admin screens of the bots app: tokens (never their digests' tokens), bots, challenges."""

from django.contrib import admin

from bots.models import ApiToken, BotAccount, Challenge


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


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ("game", "bot", "challenger", "rated", "status", "created_at")
    list_filter = ("status", "rated")
    raw_id_fields = ("game", "bot")
